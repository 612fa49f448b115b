package events

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/event"
	"github.com/mallplatform/partnerapi/ent/predicate"
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

// Append implements Store. The next sequence is read from the resource's
// end of the (resource_id, sequence) index. Changes to one resource are
// serialised by the change itself (it holds the resource's row), and the
// unique index refuses a duplicate should two ever race.
func (s *EntStore) Append(ctx context.Context, e Event, recordedAt time.Time) (Event, error) {
	c := s.db(ctx)
	var last []struct {
		Max *int64 `json:"max"`
	}
	err := c.Event.Query().Where(event.ResourceID(e.ResourceID)).
		Aggregate(ent.As(ent.Max(event.FieldSequence), "max")).Scan(ctx, &last)
	if err != nil {
		return Event{}, fmt.Errorf("events: next sequence: %w", err)
	}
	e.Sequence = 1
	if len(last) == 1 && last[0].Max != nil {
		e.Sequence = *last[0].Max + 1
	}
	row, err := c.Event.Create().
		SetEventID(e.ID).SetSellerID(e.SellerID).SetNillableAppID(appID(e)).SetType(e.Type).SetResourceID(e.ResourceID).
		SetSequence(e.Sequence).SetData(e.Data).SetCreatedAt(e.CreatedAt).SetRecordedAt(recordedAt).
		Save(ctx)
	if err != nil {
		return Event{}, fmt.Errorf("events: append: %w", err)
	}
	return fromEnt(row), nil
}

// appendBatch keeps multi-row INSERTs under SQLite's bound-parameter limit.
const appendBatch = 500

// copyAtLeast is the batch from which AppendMany writes with one COPY on
// PostgreSQL (db.PgxConn) instead of INSERTs of appendBatch rows: a
// 5,000-product bulk create's events go in several times faster.
const copyAtLeast = appendBatch

// copyColumns are the events columns COPY writes, in order.
var copyColumns = []string{"event_id", "seller_id", "app_id", "type", "resource_id", "sequence", "data", "created_at",
	"recorded_at"}

// AppendMany implements Store: one query reads the last sequence of every
// resource named, then multi-row INSERTs write the events (from copyAtLeast
// events in a PostgreSQL transaction, one COPY).
func (s *EntStore) AppendMany(ctx context.Context, es []Event, recordedAt time.Time) error {
	if len(es) == 0 {
		return nil
	}
	c := s.db(ctx)
	resources := make([]string, 0, len(es))
	next := map[string]int64{}
	for _, e := range es {
		if _, seen := next[e.ResourceID]; !seen {
			next[e.ResourceID] = 0
			resources = append(resources, e.ResourceID)
		}
	}
	var last []struct {
		ResourceID string `json:"resource_id"`
		Max        int64  `json:"max"`
	}
	err := c.Event.Query().Where(event.ResourceIDIn(resources...)).
		GroupBy(event.FieldResourceID).Aggregate(ent.As(ent.Max(event.FieldSequence), "max")).Scan(ctx, &last)
	if err != nil {
		return fmt.Errorf("events: next sequences: %w", err)
	}
	for _, l := range last {
		next[l.ResourceID] = l.Max
	}
	seq := make([]int64, len(es))
	for i, e := range es {
		next[e.ResourceID]++
		seq[i] = next[e.ResourceID]
	}
	if len(es) >= copyAtLeast {
		err := db.PgxConn(ctx, func(conn *pgx.Conn) error {
			_, err := conn.CopyFrom(ctx, pgx.Identifier{"events"}, copyColumns, pgx.CopyFromSlice(len(es), func(i int) ([]any, error) {
				e := es[i]
				return []any{e.ID, e.SellerID, appID(e), e.Type, e.ResourceID, seq[i], e.Data, e.CreatedAt, recordedAt}, nil
			}))
			return err
		})
		if !errors.Is(err, db.ErrNoPgxConn) {
			if err != nil {
				return fmt.Errorf("events: append: %w", err)
			}
			return nil
		}
	}
	for start := 0; start < len(es); start += appendBatch {
		chunk := es[start:min(start+appendBatch, len(es))]
		builders := make([]*ent.EventCreate, len(chunk))
		for i, e := range chunk {
			builders[i] = c.Event.Create().
				SetEventID(e.ID).SetSellerID(e.SellerID).SetNillableAppID(appID(e)).SetType(e.Type).SetResourceID(e.ResourceID).
				SetSequence(seq[start+i]).SetData(e.Data).SetCreatedAt(e.CreatedAt).SetRecordedAt(recordedAt)
		}
		if err := c.Event.CreateBulk(builders...).Exec(ctx); err != nil {
			return fmt.Errorf("events: append: %w", err)
		}
	}
	return nil
}

// List implements Store.
func (s *EntStore) List(ctx context.Context, sellerID string, f Filter, afterPosition int64, limit int) ([]Event, bool, error) {
	if len(f.Types) == 0 {
		return nil, false, nil
	}
	q := s.sellerEvents(ctx, sellerID).Where(filter(f)...)
	if afterPosition > 0 {
		q = q.Where(event.IDGT(afterPosition))
	}
	rows, err := q.Order(event.ByID()).Limit(limit + 1).All(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("events: list: %w", err)
	}
	more := len(rows) > limit
	if more {
		rows = rows[:limit]
	}
	out := make([]Event, len(rows))
	for i, r := range rows {
		out[i] = fromEnt(r)
	}
	return out, more, nil
}

// Count implements Store.
// Only addressed types carry an app (the Recorder sees to it), so the
// unaddressed ones are counted without the audience: on the (seller, type,
// id) index alone, as before there were addressed events. The addressed
// ones, a few per grant, are counted apart.
func (s *EntStore) Count(ctx context.Context, sellerID string, f Filter) (int64, error) {
	if len(f.Types) == 0 {
		return 0, nil
	}
	if f.Audience.AnyApp {
		return s.count(ctx, sellerID, f)
	}
	var plain, addressed []string
	for _, name := range f.Types {
		if t, ok := ParseType(name); ok && Addressed(t) {
			addressed = append(addressed, name)
		} else {
			plain = append(plain, name)
		}
	}
	var total int64
	if len(plain) > 0 {
		n, err := s.count(ctx, sellerID, Filter{Types: plain, CreatedAfter: f.CreatedAfter, Audience: Audience{AnyApp: true}})
		if err != nil {
			return 0, err
		}
		total += n
	}
	if len(addressed) > 0 && f.Audience.AppID != "" {
		n, err := s.count(ctx, sellerID, Filter{Types: addressed, CreatedAfter: f.CreatedAfter, Audience: f.Audience})
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

func (s *EntStore) count(ctx context.Context, sellerID string, f Filter) (int64, error) {
	n, err := s.sellerEvents(ctx, sellerID).Where(filter(f)...).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("events: count: %w", err)
	}
	return int64(n), nil
}

// Get implements Store.
func (s *EntStore) Get(ctx context.Context, sellerID string, a Audience, id string) (Event, error) {
	q := s.sellerEvents(ctx, sellerID).Where(event.EventID(id))
	if p := audiencePredicate(a); p != nil {
		q = q.Where(p)
	}
	row, err := q.Only(ctx)
	if ent.IsNotFound(err) {
		return Event{}, ErrNotFound
	}
	if err != nil {
		return Event{}, fmt.Errorf("events: get: %w", err)
	}
	return fromEnt(row), nil
}

// ByID returns an event by its public id whatever its seller, for the
// delivery worker.
func (s *EntStore) ByID(ctx context.Context, id string) (Event, error) {
	row, err := s.db(ctx).Event.Query().Where(event.EventID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return Event{}, ErrNotFound
	}
	if err != nil {
		return Event{}, fmt.Errorf("events: get: %w", err)
	}
	return fromEnt(row), nil
}

// Purge implements Store.
func (s *EntStore) Purge(ctx context.Context, before time.Time) (int, error) {
	n, err := s.db(ctx).Event.Delete().Where(event.RecordedAtLT(before)).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("events: purge: %w", err)
	}
	return n, nil
}

// sellerEvents starts every query of the feed: the seller filter is written
// here and nowhere else.
func (s *EntStore) sellerEvents(ctx context.Context, sellerID string) *ent.EventQuery {
	return s.db(ctx).Event.Query().Where(event.SellerID(sellerID))
}

func filter(f Filter) []predicate.Event {
	var ps []predicate.Event
	if len(f.Types) == 1 {
		ps = append(ps, event.Type(f.Types[0]))
	} else {
		ps = append(ps, event.TypeIn(f.Types...))
	}
	if f.CreatedAfter != nil {
		ps = append(ps, event.CreatedAtGTE(*f.CreatedAfter))
	}
	if p := audiencePredicate(f.Audience); p != nil {
		ps = append(ps, p)
	}
	return ps
}

// audiencePredicate keeps the events a sees: the unaddressed ones and
// those addressed to its app (nil: every event).
func audiencePredicate(a Audience) predicate.Event {
	switch {
	case a.AnyApp:
		return nil
	case a.AppID == "":
		return event.AppIDIsNil()
	}
	return event.Or(event.AppIDIsNil(), event.AppID(a.AppID))
}

// appID is e's app as stored: NULL when unaddressed.
func appID(e Event) *string {
	if e.AppID == "" {
		return nil
	}
	return &e.AppID
}

func fromEnt(r *ent.Event) Event {
	return Event{
		Position: r.ID, ID: r.EventID, SellerID: r.SellerID, AppID: r.AppID, Type: r.Type, ResourceID: r.ResourceID,
		Sequence: r.Sequence, Data: r.Data, CreatedAt: r.CreatedAt,
	}
}
