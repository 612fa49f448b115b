package idempotencypurge_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/internal/worker/idempotencypurge"
)

// purger is a test double of the idempotency store.
type purger struct {
	mu     sync.Mutex
	before []time.Time
	err    error
	called chan struct{}
}

func (p *purger) Purge(_ context.Context, before time.Time) (int, error) {
	p.mu.Lock()
	p.before = append(p.before, before)
	p.mu.Unlock()
	if p.called != nil {
		p.called <- struct{}{}
	}
	return 3, p.err
}

// The job asks the store to delete keys created more than 24 hours before
// the wall clock's now.
func TestWorkPurgesKeysOlderThanADay(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	p := &purger{}
	j, err := idempotencypurge.New(p, clock.NewManual(now), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Work(context.Background(), &river.Job[idempotencypurge.Args]{}); err != nil {
		t.Fatal(err)
	}
	want := now.Add(-24 * time.Hour)
	if len(p.before) != 1 || !p.before[0].Equal(want) {
		t.Fatalf("Purge called with %v, want [%v]", p.before, want)
	}
}

// A store failure fails the run, so River retries it and counts it.
func TestWorkReportsStoreFailure(t *testing.T) {
	p := &purger{err: errors.New("database gone")}
	j, err := idempotencypurge.New(p, clock.NewManual(time.Now()), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Work(context.Background(), &river.Job[idempotencypurge.Args]{}); err == nil {
		t.Fatal("a failed purge reported success")
	}
}

// Registered on a worker, the job is the kind idempotency.purge and runs
// through River against the store.
func TestRegisteredPurgeRunsOnTheWorker(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if err := db.MigrateRiver(ctx, d); err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		p := &purger{called: make(chan struct{}, 1)}
		jobs := worker.NewJobs()
		if err := idempotencypurge.Register(jobs, p, clock.NewManual(now), nil); err != nil {
			t.Fatal(err)
		}
		if k := jobs.Kinds(); len(k) != 1 || k[0] != "idempotency.purge" {
			t.Fatalf("kinds %v, want [idempotency.purge]", k)
		}
		w, err := worker.New(worker.Config{DB: d, Jobs: jobs, PollInterval: 50 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = w.Drain(ctx) })
		if _, err := w.Enqueue(ctx, idempotencypurge.Args{}, nil); err != nil {
			t.Fatal(err)
		}
		select {
		case <-p.called:
		case <-time.After(30 * time.Second):
			t.Fatal("the purge never ran")
		}
		if err := w.Drain(ctx); err != nil {
			t.Fatal(err)
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		if want := now.Add(-24 * time.Hour); !p.before[0].Equal(want) {
			t.Fatalf("Purge(before=%v), want %v", p.before[0], want)
		}
	})
}
