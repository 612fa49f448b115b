package expiring

import (
	"context"
	"fmt"
	"time"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/sellerauthorization"
	"github.com/mallplatform/partnerapi/internal/db"
)

// EntStore is the Store on ent, for PostgreSQL and SQLite alike.
type EntStore struct {
	client *ent.Client
}

var _ Store = (*EntStore)(nil)

// NewEntStore returns a Store on d.
func NewEntStore(d *db.DB) *EntStore { return &EntStore{client: d.Ent} }

func (s *EntStore) db(ctx context.Context) *ent.Client { return db.Client(ctx, s.client) }

// Due implements Store.
func (s *EntStore) Due(ctx context.Context, now, until time.Time, limit int) ([]Grant, error) {
	rows, err := s.db(ctx).SellerAuthorization.Query().
		Where(sellerauthorization.RevokedAtIsNil(), sellerauthorization.ExpiringNotifiedAtIsNil(),
			sellerauthorization.GrantExpiresAtGT(now), sellerauthorization.GrantExpiresAtLTE(until)).
		WithApp().
		Order(ent.Asc(sellerauthorization.FieldGrantExpiresAt), ent.Asc(sellerauthorization.FieldID)).
		Limit(limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("expiring: grants due: %w", err)
	}
	out := make([]Grant, 0, len(rows))
	for _, r := range rows {
		g := Grant{ID: r.ID, AppID: r.AppID, SellerID: r.SellerID, Scopes: r.Scopes, GrantedAt: r.CreatedAt,
			ExpiresAt: *r.GrantExpiresAt}
		if r.Edges.App != nil {
			g.ClientID = r.Edges.App.ClientID
		}
		out = append(out, g)
	}
	return out, nil
}

// MarkNoticed implements Store: one conditional UPDATE, so of two runs
// racing on a grant exactly one changes its row (on PostgreSQL the second
// waits for the first's commit and then finds the condition false).
func (s *EntStore) MarkNoticed(ctx context.Context, id string, at time.Time) (bool, error) {
	n, err := s.db(ctx).SellerAuthorization.Update().
		Where(sellerauthorization.ID(id), sellerauthorization.ExpiringNotifiedAtIsNil(), sellerauthorization.RevokedAtIsNil()).
		SetExpiringNotifiedAt(at).Save(ctx)
	if err != nil {
		return false, fmt.Errorf("expiring: mark noticed: %w", err)
	}
	return n == 1, nil
}

// InTx implements Store.
func (s *EntStore) InTx(ctx context.Context, fn func(ctx context.Context) error) error {
	return db.InTx(ctx, s.client, fn)
}
