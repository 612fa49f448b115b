package shipping

import (
	"context"
	"fmt"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/calendarday"
	"github.com/mallplatform/partnerapi/ent/calendarrevision"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/services/shipping/calendar"
)

// revisionRow is the id of the calendar's one version row.
const revisionRow = 1

// EntStore is the Store on ent, for PostgreSQL and SQLite alike.
type EntStore struct {
	client *ent.Client
}

var _ Store = (*EntStore)(nil)

// NewEntStore returns a Store on d.
func NewEntStore(d *db.DB) *EntStore { return &EntStore{client: d.Ent} }

func (s *EntStore) db(ctx context.Context) *ent.Client { return db.Client(ctx, s.client) }

// CalendarVersion implements Store.
func (s *EntStore) CalendarVersion(ctx context.Context) (int64, error) {
	row, err := s.db(ctx).CalendarRevision.Query().Where(calendarrevision.ID(revisionRow)).Only(ctx)
	if ent.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("shipping: calendar version: %w", err)
	}
	return row.Version, nil
}

// CalendarDays implements Store.
func (s *EntStore) CalendarDays(ctx context.Context) ([]calendar.Day, int64, error) {
	v, err := s.CalendarVersion(ctx)
	if err != nil {
		return nil, 0, err
	}
	rows, err := s.db(ctx).CalendarDay.Query().Order(ent.Asc(calendarday.FieldDate), ent.Asc(calendarday.FieldScope)).All(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("shipping: calendar days: %w", err)
	}
	days := make([]calendar.Day, 0, len(rows))
	for _, r := range rows {
		d, err := calendar.ParseDate(r.Date)
		if err != nil {
			return nil, 0, fmt.Errorf("shipping: calendar day %s: %w", r.ID, err)
		}
		days = append(days, calendar.Day{Date: d, Kind: calendar.Kind(r.Kind), Name: r.Name,
			Proclamation: r.Proclamation, Tentative: r.Tentative, Scope: r.Scope})
	}
	return days, v, nil
}

// PutCalendarDays implements Store: one upsert per day on (date, scope),
// then the version, in one transaction.
func (s *EntStore) PutCalendarDays(ctx context.Context, days []calendar.Day) (int64, error) {
	var v int64
	err := db.InTx(ctx, s.client, func(ctx context.Context) error {
		c := s.db(ctx)
		for _, d := range days {
			err := c.CalendarDay.Create().SetID(dayID(d.Date, d.Scope)).SetDate(d.Date.String()).SetScope(d.Scope).
				SetKind(calendarday.Kind(d.Kind)).SetName(d.Name).SetProclamation(d.Proclamation).SetTentative(d.Tentative).
				OnConflictColumns(calendarday.FieldDate, calendarday.FieldScope).UpdateNewValues().Exec(ctx)
			if err != nil {
				return fmt.Errorf("shipping: put calendar day %s: %w", d.Date, err)
			}
		}
		var err error
		v, err = s.bump(ctx)
		return err
	})
	return v, err
}

// DeleteCalendarDay implements Store.
func (s *EntStore) DeleteCalendarDay(ctx context.Context, date calendar.Date, scope string) (int64, error) {
	var v int64
	err := db.InTx(ctx, s.client, func(ctx context.Context) error {
		n, err := s.db(ctx).CalendarDay.Delete().
			Where(calendarday.Date(date.String()), calendarday.Scope(scope)).Exec(ctx)
		if err != nil {
			return fmt.Errorf("shipping: delete calendar day %s: %w", date, err)
		}
		if n == 0 {
			return ErrNotFound
		}
		v, err = s.bump(ctx)
		return err
	})
	return v, err
}

// SeedCalendar implements Store.
func (s *EntStore) SeedCalendar(ctx context.Context, days []calendar.Day) (bool, error) {
	seeded := false
	err := db.InTx(ctx, s.client, func(ctx context.Context) error {
		n, err := s.db(ctx).CalendarDay.Query().Count(ctx)
		if err != nil {
			return fmt.Errorf("shipping: count calendar days: %w", err)
		}
		if n > 0 {
			return nil
		}
		if _, err := s.PutCalendarDays(ctx, days); err != nil {
			return err
		}
		seeded = true
		return nil
	})
	return seeded, err
}

// bump moves the version row by one, creating it at 1 the first time: an
// upsert, so two first edits cannot both create it.
func (s *EntStore) bump(ctx context.Context) (int64, error) {
	c := s.db(ctx)
	err := c.CalendarRevision.Create().SetID(revisionRow).SetVersion(1).
		OnConflictColumns(calendarrevision.FieldID).
		Update(func(u *ent.CalendarRevisionUpsert) { u.AddVersion(1).UpdateUpdatedAt() }).
		Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("shipping: bump calendar version: %w", err)
	}
	return s.CalendarVersion(ctx)
}

// dayID is a day's row id: its date, and its scope for a local day.
func dayID(d calendar.Date, scope string) string {
	if scope == "" {
		return d.String()
	}
	return d.String() + "/" + scope
}
