package deadline_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/deadline"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/sandbox/shopclock"
)

// The subject of these tests is a table of its own: an item WAITING until
// its due time, then DONE, then CLOSED an hour after it was done. Times are
// Unix milliseconds, the same on both drivers.

type item struct {
	ID, Seller, Status string
	DueMs, UpdatedMs   int64
}

const closeAfter = time.Hour

func rule(e item, now time.Time) (deadline.Move, bool) {
	switch e.Status {
	case "WAITING":
		if at := time.UnixMilli(e.DueMs); now.After(at) {
			return deadline.Move{From: "WAITING", To: "DONE", At: at}, true
		}
	case "DONE":
		if at := time.UnixMilli(e.UpdatedMs).Add(closeAfter); now.After(at) {
			return deadline.Move{From: "DONE", To: "CLOSED", At: at}, true
		}
	}
	return deadline.Move{}, false
}

type store struct{ d *db.DB }

var errNotFound = errors.New("no such item")

func (s store) q(q string) string {
	if s.d.Driver() != db.DriverPostgres {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (s store) tx(ctx context.Context) *sql.Tx {
	tx, ok := db.SQLTx(ctx)
	if !ok {
		panic("deadline test: store used outside a transaction")
	}
	return tx
}

func (s store) Load(ctx context.Context, ref deadline.Ref) (item, error) {
	var e item
	err := s.tx(ctx).QueryRowContext(ctx, s.q(`SELECT id, seller_id, status, due_ms, updated_ms FROM dl_items WHERE id = ? AND seller_id = ?`),
		ref.ID, ref.SellerID).Scan(&e.ID, &e.Seller, &e.Status, &e.DueMs, &e.UpdatedMs)
	if errors.Is(err, sql.ErrNoRows) {
		return e, errNotFound
	}
	return e, err
}

func (s store) Advance(ctx context.Context, ref deadline.Ref, m deadline.Move) (bool, error) {
	res, err := s.tx(ctx).ExecContext(ctx, s.q(`UPDATE dl_items SET status = ?, updated_ms = ? WHERE id = ? AND seller_id = ? AND status = ?`),
		m.To, m.At.UnixMilli(), ref.ID, ref.SellerID, m.From)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Due is the rule as a query: waiting past the due time, or done for more
// than closeAfter.
func (s store) Due(ctx context.Context, seller string, now time.Time, limit int) ([]deadline.Ref, error) {
	ms := now.UnixMilli()
	rows, err := s.d.SQL.QueryContext(ctx, s.q(`SELECT seller_id, id FROM dl_items
		WHERE (? = '' OR seller_id = ?) AND ((status = 'WAITING' AND due_ms < ?) OR (status = 'DONE' AND updated_ms + ? < ?))
		ORDER BY id LIMIT ?`), seller, seller, ms, closeAfter.Milliseconds(), ms, limit)
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }()
	var out []deadline.Ref
	for rows.Next() {
		var r deadline.Ref
		if err := rows.Scan(&r.SellerID, &r.ID); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func record(d *db.DB) deadline.Recorder[item] {
	s := store{d}
	return func(ctx context.Context, e item, m deadline.Move) error {
		_, err := s.tx(ctx).ExecContext(ctx, s.q(`INSERT INTO dl_events (item_id, from_status, to_status, at_ms) VALUES (?, ?, ?, ?)`),
			e.ID, m.From, m.To, m.At.UnixMilli())
		return err
	}
}

type offsets struct {
	mu sync.Mutex
	m  map[string]time.Duration
}

func (o *offsets) Offset(_ context.Context, seller string) (time.Duration, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.m[seller], nil
}

func (o *offsets) Advance(_ context.Context, seller string, by time.Duration) (time.Duration, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if seller != "shop_test" {
		return 0, shopclock.ErrNotTestShop
	}
	o.m[seller] += by
	return o.m[seller], nil
}

func (o *offsets) MovedShops(context.Context) ([]string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []string
	for s, off := range o.m {
		if off > 0 {
			out = append(out, s)
		}
	}
	return out, nil
}

type args struct{}

func (args) Kind() string { return "deadline.test_items" }

type fixture struct {
	d       *db.DB
	wall    *clock.Manual
	offsets *offsets
	clock   *shopclock.Clock
	subject *deadline.Subject[item]
	job     *deadline.Job[args]
	start   time.Time
}

func newFixture(t *testing.T, d *db.DB) *fixture {
	t.Helper()
	ctx := context.Background()
	serial := "INTEGER PRIMARY KEY AUTOINCREMENT"
	if d.Driver() == db.DriverPostgres {
		serial = "BIGSERIAL PRIMARY KEY"
	}
	for _, q := range []string{
		`CREATE TABLE dl_items (id TEXT PRIMARY KEY, seller_id TEXT NOT NULL, status TEXT NOT NULL, due_ms BIGINT NOT NULL, updated_ms BIGINT NOT NULL)`,
		`CREATE TABLE dl_events (id ` + serial + `, item_id TEXT NOT NULL, from_status TEXT NOT NULL, to_status TEXT NOT NULL, at_ms BIGINT NOT NULL)`,
	} {
		if _, err := d.SQL.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
	f := &fixture{d: d, wall: clock.NewManual(start), offsets: &offsets{m: map[string]time.Duration{}}, start: start}
	var err error
	if f.clock, err = shopclock.New(shopclock.Config{Wall: f.wall, Store: f.offsets}); err != nil {
		t.Fatal(err)
	}
	f.subject = &deadline.Subject[item]{
		Name: "test_items", Store: store{d}, Rule: rule, Record: record(d),
		InTx: func(ctx context.Context, fn func(ctx context.Context) error) error { return db.InTx(ctx, d.Ent, fn) },
	}
	if f.job, err = deadline.NewJob[args](f.subject, deadline.JobConfig{Business: f.clock, Shops: f.offsets}); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) add(t *testing.T, id, seller string, due time.Time) {
	t.Helper()
	s := store{f.d}
	if _, err := f.d.SQL.Exec(s.q(`INSERT INTO dl_items (id, seller_id, status, due_ms, updated_ms) VALUES (?, ?, 'WAITING', ?, ?)`),
		id, seller, due.UnixMilli(), f.start.UnixMilli()); err != nil {
		t.Fatal(err)
	}
}

// read is a read path: it settles the item on its seller's business clock.
func (f *fixture) read(ctx context.Context, seller, id string) (item, []deadline.Move, error) {
	ctx = principal.WithSeller(ctx, seller)
	return f.subject.Settle(ctx, deadline.Ref{SellerID: seller, ID: id}, f.clock.Business(ctx))
}

type event struct {
	From, To string
	AtMs     int64
}

func (f *fixture) events(t *testing.T) map[string][]event {
	t.Helper()
	rows, err := f.d.SQL.Query(`SELECT item_id, from_status, to_status, at_ms FROM dl_events ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rows.Close() }()
	out := map[string][]event{}
	for rows.Next() {
		var id string
		var e event
		if err := rows.Scan(&id, &e.From, &e.To, &e.AtMs); err != nil {
			t.Fatal(err)
		}
		out[id] = append(out[id], e)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSettleOnRead(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		ctx := context.Background()
		due := f.start.Add(2 * time.Hour)
		f.add(t, "itm_1", "shop_live", due)

		e, moves, err := f.read(ctx, "shop_live", "itm_1")
		if err != nil || e.Status != "WAITING" || len(moves) != 0 {
			t.Fatalf("before the deadline: %+v %v %v, want WAITING and no move", e, moves, err)
		}
		// The deadline itself is still on time.
		f.wall.Set(due)
		if e, _, _ := f.read(ctx, "shop_live", "itm_1"); e.Status != "WAITING" {
			t.Fatalf("at the deadline: %s, want WAITING", e.Status)
		}
		// Past it, and past the chained close: both moves, each at its own
		// deadline, each with one event.
		f.wall.Set(due.Add(closeAfter).Add(time.Millisecond))
		e, moves, err = f.read(ctx, "shop_live", "itm_1")
		if err != nil || e.Status != "CLOSED" || len(moves) != 2 {
			t.Fatalf("past both deadlines: %+v %v %v, want CLOSED after two moves", e, moves, err)
		}
		if e.UpdatedMs != due.Add(closeAfter).UnixMilli() {
			t.Errorf("updated at %d, want the close deadline %d", e.UpdatedMs, due.Add(closeAfter).UnixMilli())
		}
		want := []event{{"WAITING", "DONE", due.UnixMilli()}, {"DONE", "CLOSED", due.Add(closeAfter).UnixMilli()}}
		if got := f.events(t)["itm_1"]; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("events %v, want %v", got, want)
		}
		// Settled: nothing more, and the job finds nothing.
		if _, moves, _ := f.read(ctx, "shop_live", "itm_1"); len(moves) != 0 {
			t.Errorf("a second read applied %v", moves)
		}
		if n, err := f.job.Run(ctx); err != nil || n != 0 {
			t.Errorf("job after the read: %d moves, %v", n, err)
		}
		// Another seller's read is the store's not found, and moves nothing.
		if _, _, err := f.read(ctx, "shop_other", "itm_1"); !errors.Is(err, errNotFound) {
			t.Errorf("another seller's read: %v, want not found", err)
		}
	})
}

func TestJobSweepsEveryClock(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		ctx := context.Background()
		day := 24 * time.Hour
		f.add(t, "itm_live_due", "shop_live", f.start.Add(-time.Minute))
		f.add(t, "itm_live_later", "shop_live", f.start.Add(day))
		f.add(t, "itm_test_later", "shop_test", f.start.Add(day))

		n, err := f.job.Run(ctx)
		if err != nil || n != 1 {
			t.Fatalf("first sweep: %d moves, %v; want 1 (the live shop's due item)", n, err)
		}
		// The test shop's clock jumps two days: its item is due for it (and
		// its close too), the live shop's later item is not.
		if _, err := f.clock.Advance(ctx, "shop_test", 2*day); err != nil {
			t.Fatal(err)
		}
		if n, err = f.job.Run(ctx); err != nil || n != 2 {
			t.Fatalf("sweep after the jump: %d moves, %v; want 2 (done, then closed)", n, err)
		}
		ev := f.events(t)
		if len(ev["itm_live_due"]) != 1 || len(ev["itm_test_later"]) != 2 || len(ev["itm_live_later"]) != 0 {
			t.Errorf("events %v", ev)
		}
		// The live shop's own item closes an hour after its deadline, on
		// the wall clock.
		f.wall.Advance(closeAfter)
		if n, err = f.job.Run(ctx); err != nil || n != 1 {
			t.Fatalf("an hour later: %d moves, %v; want 1", n, err)
		}
		// Run as the worker runs it.
		if err := f.job.Work(ctx, &river.Job[args]{}); err != nil {
			t.Fatal(err)
		}
	})
}

// TestJobAndReadsRace: after a sandbox clock jump, the job and many reads
// settle the same items at once; every item makes each move once, with one
// event each.
func TestJobAndReadsRace(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		ctx := context.Background()
		const items = 40
		for i := range items {
			f.add(t, fmt.Sprintf("itm_%02d", i), "shop_test", f.start.Add(time.Duration(i+1)*time.Minute))
		}
		if _, err := f.clock.Advance(ctx, "shop_test", 3*time.Hour); err != nil {
			t.Fatal(err)
		}
		var (
			wg     sync.WaitGroup
			mu     sync.Mutex
			errs   []error
			report = func(err error) {
				if err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		)
		for range 2 {
			wg.Go(func() {
				_, err := f.job.Run(ctx)
				report(err)
			})
		}
		for r := range 3 {
			wg.Go(func() {
				for i := range items {
					// Each reader walks the items from its own place.
					_, _, err := f.read(ctx, "shop_test", fmt.Sprintf("itm_%02d", (i+r*13)%items))
					report(err)
				}
			})
		}
		wg.Wait()
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		ev := f.events(t)
		for i := range items {
			id := fmt.Sprintf("itm_%02d", i)
			due := f.start.Add(time.Duration(i+1) * time.Minute)
			want := []event{{"WAITING", "DONE", due.UnixMilli()}, {"DONE", "CLOSED", due.Add(closeAfter).UnixMilli()}}
			if fmt.Sprint(ev[id]) != fmt.Sprint(want) {
				t.Errorf("%s: events %v, want %v", id, ev[id], want)
			}
			if e, _, err := f.read(ctx, "shop_test", id); err != nil || e.Status != "CLOSED" {
				t.Errorf("%s: %+v %v, want CLOSED", id, e, err)
			}
		}
	})
}

func TestRunawayRule(t *testing.T) {
	d := dbtest.SQLite(t)
	f := newFixture(t, d)
	f.add(t, "itm_1", "shop_live", f.start.Add(-time.Minute))
	// A rule that always finds WAITING to DONE due, though the item moved.
	f.subject.Rule = func(item, time.Time) (deadline.Move, bool) {
		return deadline.Move{From: "WAITING", To: "DONE", At: f.start}, true
	}
	if _, _, err := f.read(context.Background(), "shop_live", "itm_1"); !errors.Is(err, deadline.ErrRunaway) {
		t.Fatalf("runaway rule: %v, want ErrRunaway", err)
	}
	// Its transaction rolled back: no move, no event.
	if ev := f.events(t); len(ev) != 0 {
		t.Errorf("events %v after a rolled back settlement", ev)
	}
}
