package db_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
)

// doublingSQL answers $1 × 2, and no row for a multiple of 7. With $2 true
// it first waits for the advisory lock 4242, which a test holds on a
// connection of its own (holdLock) to keep a round trip out for as long as it
// needs.
const doublingSQL = `
SELECT x * 2 FROM (SELECT $1::int8 AS x) s
 WHERE x % 7 <> 0 AND ($2::bool IS FALSE OR (SELECT pg_advisory_xact_lock(4242)::text) IS NOT NULL)`

func newDoublingBatcher(t *testing.T, maxInFlight int) (*db.ReadBatcher, *db.DB) {
	t.Helper()
	d := dbtest.Postgres(t)
	b, err := d.ReadBatcher(db.ReadBatcherConfig{Name: "double", SQL: doublingSQL, MaxInFlight: maxInFlight, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return b, d
}

// double reads x through b; blocked makes the read wait for the test's lock.
func double(ctx context.Context, b *db.ReadBatcher, x int64, blocked bool) (int64, error) {
	var got int64
	err := b.QueryRow(ctx, []any{x, blocked}, &got)
	return got, err
}

// checkDouble says what is wrong with double's answer for x.
func checkDouble(x, got int64, err error) error {
	if x%7 == 0 {
		if !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("read %d: got %d, %v; want pgx.ErrNoRows", x, got, err)
		}
		return nil
	}
	if err != nil || got != 2*x {
		return fmt.Errorf("read %d: got %d, %v; want %d", x, got, err, 2*x)
	}
	return nil
}

// holdLock takes the advisory lock doublingSQL waits for; the returned func
// releases it.
func holdLock(t *testing.T, d *db.DB) (release func()) {
	t.Helper()
	ctx := context.Background()
	conn, err := d.Pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock(4242)"); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			if _, err := conn.Exec(ctx, "SELECT pg_advisory_unlock(4242)"); err != nil {
				t.Error(err)
			}
			conn.Release()
		})
	}
	t.Cleanup(release)
	return release
}

// waitFor polls cond until it holds; it fails the test after a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting for %s", what)
		}
	}
}

func TestReadBatcherReadsAloneWhenNothingIsOut(t *testing.T) {
	b, _ := newDoublingBatcher(t, 1)
	for x := int64(1); x <= 20; x++ {
		got, err := double(context.Background(), b, x, false)
		if err := checkDouble(x, got, err); err != nil {
			t.Error(err)
		}
	}
	if got, want := b.Stats(), (db.ReadBatcherStats{RoundTrips: 20, Reads: 20}); got != want {
		t.Errorf("stats %+v, want %+v: one round trip a read", got, want)
	}
}

func TestReadBatcherSendsTheReadsQueuedMeanwhileInOneRoundTrip(t *testing.T) {
	b, d := newDoublingBatcher(t, 1)
	release := holdLock(t, d)

	leader := make(chan error, 1)
	go func() {
		got, err := double(context.Background(), b, 100, true)
		leader <- checkDouble(100, got, err)
	}()
	waitFor(t, "the first read to go out", func() bool { return b.Stats().RoundTrips == 1 })

	const queued = 10
	errs := make(chan error, queued)
	for x := int64(1); x <= queued; x++ {
		go func() {
			got, err := double(context.Background(), b, x, false)
			errs <- checkDouble(x, got, err)
		}()
	}
	waitFor(t, "the reads to queue", func() bool { return b.Queued() == queued })
	release()

	if err := <-leader; err != nil {
		t.Error(err)
	}
	for range queued {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if got, want := b.Stats(), (db.ReadBatcherStats{RoundTrips: 2, Reads: 1 + queued}); got != want {
		t.Errorf("stats %+v, want %+v: the queued reads in one round trip", got, want)
	}
}

func TestReadBatcherReadLeavesWithItsContextAndTheOthersGetTheirRows(t *testing.T) {
	b, d := newDoublingBatcher(t, 1)
	release := holdLock(t, d)

	go func() { _, _ = double(context.Background(), b, 100, true) }()
	waitFor(t, "the first read to go out", func() bool { return b.Stats().RoundTrips == 1 })

	ctx, cancel := context.WithCancel(context.Background())
	gone := make(chan error, 1)
	go func() {
		_, err := double(ctx, b, 3, false)
		gone <- err
	}()
	stays := make(chan error, 1)
	go func() {
		got, err := double(context.Background(), b, 5, false)
		stays <- checkDouble(5, got, err)
	}()
	waitFor(t, "the reads to queue", func() bool { return b.Queued() == 2 })

	cancel()
	if err := <-gone; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled read: %v, want context.Canceled while its round trip is still to come", err)
	}
	release()
	if err := <-stays; err != nil {
		t.Error(err)
	}
	if got, want := b.Stats(), (db.ReadBatcherStats{RoundTrips: 2, Reads: 2}); got != want {
		t.Errorf("stats %+v, want %+v: the cancelled read left out of the round trip", got, want)
	}
}

// TestReadBatcherConcurrentReads runs many readers at once (with -race in
// CI): every read gets its own row whatever batch it lands in.
func TestReadBatcherConcurrentReads(t *testing.T) {
	for _, inFlight := range []int{1, 2} {
		t.Run(fmt.Sprintf("in flight %d", inFlight), func(t *testing.T) {
			b, _ := newDoublingBatcher(t, inFlight)
			const readers, each = 32, 40
			var wg sync.WaitGroup
			errs := make(chan error, readers*each)
			for r := range readers {
				wg.Go(func() {
					for i := range each {
						x := int64(r*each + i)
						got, err := double(context.Background(), b, x, false)
						if err := checkDouble(x, got, err); err != nil {
							errs <- err
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			if s := b.Stats(); s.Reads != readers*each {
				t.Errorf("stats %+v: want %d reads", s, readers*each)
			}
		})
	}
}

// Each configuration below is complete but for the one mistake it names.
func TestReadBatcherConfigValidate(t *testing.T) {
	valid := db.ReadBatcherConfig{Name: "one", SQL: "SELECT 1", Timeout: time.Second}
	if err := valid.Validate(); err != nil {
		t.Fatalf("a valid configuration: %v", err)
	}
	for name, mistake := range map[string]func(*db.ReadBatcherConfig){
		"no name":              func(c *db.ReadBatcherConfig) { c.Name = " " },
		"no statement":         func(c *db.ReadBatcherConfig) { c.SQL = "" },
		"no timeout":           func(c *db.ReadBatcherConfig) { c.Timeout = 0 },
		"negative batch":       func(c *db.ReadBatcherConfig) { c.MaxBatch = -1 },
		"negative round trips": func(c *db.ReadBatcherConfig) { c.MaxInFlight = -1 },
	} {
		cfg := valid
		mistake(&cfg)
		if err := cfg.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if b, err := dbtest.Postgres(t).ReadBatcher(db.ReadBatcherConfig{}); b != nil || err == nil {
		t.Errorf("DB.ReadBatcher with an empty configuration: %v, %v; want an error", b, err)
	}
}

// A database keeps one batcher a statement, shared by every store on it, and
// its collector counts what they sent.
func TestDBReadBatcherIsSharedAndCounted(t *testing.T) {
	d := dbtest.Postgres(t)
	cfg := db.ReadBatcherConfig{Name: "double", SQL: doublingSQL, Timeout: time.Minute}
	b, err := d.ReadBatcher(cfg)
	if err != nil {
		t.Fatal(err)
	}
	again, err := d.ReadBatcher(cfg)
	if err != nil || again != b {
		t.Fatalf("second ask: %p, %v; want the first batcher %p", again, err, b)
	}
	if _, err := d.ReadBatcher(db.ReadBatcherConfig{Name: "double", SQL: "SELECT 1", Timeout: time.Minute}); err == nil {
		t.Error("the same name with another statement was accepted")
	}
	if _, err := d.ReadBatcher(db.ReadBatcherConfig{Name: "double", SQL: doublingSQL, MaxInFlight: 2, Timeout: time.Minute}); err == nil {
		t.Error("the same name with other limits was accepted")
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(db.BatchCollector(d))
	for x := int64(1); x <= 3; x++ {
		if _, err := double(context.Background(), b, x, false); err != nil {
			t.Fatal(err)
		}
	}
	want := `
# HELP mp_db_read_batch_reads_total Reads the batched round trips carried, by statement.
# TYPE mp_db_read_batch_reads_total counter
mp_db_read_batch_reads_total{statement="double"} 3
# HELP mp_db_read_batch_round_trips_total Round trips to PostgreSQL of the batched reads, by statement.
# TYPE mp_db_read_batch_round_trips_total counter
mp_db_read_batch_round_trips_total{statement="double"} 3
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want)); err != nil {
		t.Error(err)
	}
	if problems, err := testutil.GatherAndLint(reg); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
	if b, err := dbtest.SQLite(t).ReadBatcher(cfg); b != nil || err != nil {
		t.Errorf("SQLite: %v, %v; want no batcher", b, err)
	}
}
