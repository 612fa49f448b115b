package maintenance

import (
	"context"
	"time"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/maintenancewindow"
	"github.com/mallplatform/partnerapi/internal/db"
)

// EntStore is the maintenance_windows table.
type EntStore struct {
	client *ent.Client
}

// NewEntStore returns the store on d.
func NewEntStore(d *db.DB) *EntStore { return &EntStore{client: d.Ent} }

func (s *EntStore) db(ctx context.Context) *ent.Client { return db.Client(ctx, s.client) }

// Get implements Store.
func (s *EntStore) Get(ctx context.Context, env string) (State, error) {
	row, err := s.db(ctx).MaintenanceWindow.Get(ctx, env)
	if ent.IsNotFound(err) {
		return State{Environment: env}, nil
	}
	if err != nil {
		return State{}, err
	}
	st := State{Environment: row.ID, On: row.Active, Message: row.Message, SetBy: row.SetBy, UpdatedAt: row.UpdatedAt.UTC()}
	if row.Until != nil {
		st.Until = row.Until.UTC()
	}
	return st, nil
}

// Put implements Store: one upsert on the environment's row.
func (s *EntStore) Put(ctx context.Context, st State) error {
	var until *time.Time
	if !st.Until.IsZero() {
		u := st.Until.UTC()
		until = &u
	}
	return s.db(ctx).MaintenanceWindow.Create().
		SetID(st.Environment).SetActive(st.On).SetNillableUntil(until).SetMessage(st.Message).
		SetSetBy(st.SetBy).SetUpdatedAt(st.UpdatedAt.UTC()).
		OnConflictColumns(maintenancewindow.FieldID).
		Update(func(u *ent.MaintenanceWindowUpsert) {
			u.UpdateActive().UpdateMessage().UpdateSetBy().UpdateUpdatedAt()
			if until == nil {
				u.ClearUntil()
			} else {
				u.UpdateUntil()
			}
		}).
		Exec(ctx)
}
