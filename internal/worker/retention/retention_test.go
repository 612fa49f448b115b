package retention_test

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
	"github.com/mallplatform/partnerapi/internal/worker/retention"
)

// purger is a test double of a store under retention.
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

// The job asks the target's store to delete rows older than the target's
// retention on the wall clock.
func TestWorkPurgesRowsPastTheirRetention(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	keys, evs := &purger{}, &purger{}
	j, err := retention.New(clock.NewManual(now), nil,
		retention.Target{Name: "keys", Keep: 24 * time.Hour, Every: time.Minute, Purger: keys},
		retention.Target{Name: "events", Keep: 30 * 24 * time.Hour, Every: time.Hour, Purger: evs})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Work(context.Background(), &river.Job[retention.Args]{Args: retention.Args{Target: "events"}}); err != nil {
		t.Fatal(err)
	}
	want := now.Add(-30 * 24 * time.Hour)
	if len(evs.before) != 1 || !evs.before[0].Equal(want) || len(keys.before) != 0 {
		t.Fatalf("events purged before %v, keys %v; want [%v] and none", evs.before, keys.before, want)
	}
}

// A store failure fails the run, so River retries it and counts it; an
// unknown target is cancelled, not retried.
func TestWorkReportsFailures(t *testing.T) {
	p := &purger{err: errors.New("database gone")}
	j, err := retention.New(clock.NewManual(time.Now()), nil, retention.Target{Name: "keys", Keep: time.Hour, Every: time.Minute, Purger: p})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Work(context.Background(), &river.Job[retention.Args]{Args: retention.Args{Target: "keys"}}); err == nil {
		t.Fatal("a failed purge reported success")
	}
	if err := j.Work(context.Background(), &river.Job[retention.Args]{Args: retention.Args{Target: "gone"}}); err == nil {
		t.Fatal("an unknown target reported success")
	}
	if _, err := retention.New(nil, nil, retention.Target{Name: "keys", Purger: p}); err == nil {
		t.Fatal("a target without retention was accepted")
	}
}

// Registered on a worker, the job is the kind retention.purge and runs
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
		if err := retention.Register(jobs, clock.NewManual(now), nil, retention.Target{Name: "keys", Keep: 24 * time.Hour, Every: time.Hour, Purger: p}); err != nil {
			t.Fatal(err)
		}
		if k := jobs.Kinds(); len(k) != 1 || k[0] != "retention.purge" {
			t.Fatalf("kinds %v, want [retention.purge]", k)
		}
		w, err := worker.New(worker.Config{DB: d, Jobs: jobs, PollInterval: 50 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = w.Drain(ctx) })
		if _, err := w.Enqueue(ctx, retention.Args{Target: "keys"}, nil); err != nil {
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
