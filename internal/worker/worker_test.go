package worker_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/worker"
)

// waitLimit only keeps a broken test from hanging; nothing asserts on time.
const waitLimit = 30 * time.Second

type blockArgs struct {
	N int `json:"n"`
}

func (blockArgs) Kind() string { return "test.block" }

// blockWorker reports each job it starts on running, then waits for release
// (or for its context to end) and reports how the job ended on done.
type blockWorker struct {
	river.WorkerDefaults[blockArgs]
	running chan int
	release chan struct{}
	done    chan error
}

func newBlockWorker() *blockWorker {
	return &blockWorker{running: make(chan int, 10), release: make(chan struct{}), done: make(chan error, 10)}
}

func (w *blockWorker) Work(ctx context.Context, job *river.Job[blockArgs]) error {
	w.running <- job.Args.N
	select {
	case <-w.release:
		w.done <- nil
		return nil
	case <-ctx.Done():
		w.done <- ctx.Err()
		return ctx.Err()
	}
}

func newWorker(t *testing.T, d *db.DB, bw *blockWorker, grace time.Duration, reg prometheus.Registerer) *worker.Worker {
	t.Helper()
	jobs := worker.NewJobs()
	if err := worker.Add(jobs, bw); err != nil {
		t.Fatal(err)
	}
	cfg := worker.Config{DB: d, Jobs: jobs, Concurrency: 2, DrainGrace: grace, PollInterval: 50 * time.Millisecond}
	if reg != nil {
		cfg.Metrics = worker.NewMetrics(reg)
	}
	w, err := worker.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func migrated(t *testing.T, d *db.DB) *db.DB {
	t.Helper()
	if err := db.MigrateRiver(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	return d
}

func receive[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(waitLimit):
		t.Fatalf("%s never happened", what)
		panic("unreachable")
	}
}

func jobState(t *testing.T, d *db.DB, id int64) string {
	t.Helper()
	var state string
	q := "SELECT state FROM river_job WHERE id = $1"
	if d.Driver() == db.DriverSQLite {
		q = "SELECT state FROM river_job WHERE id = ?"
	}
	if err := d.SQL.QueryRowContext(context.Background(), q, id).Scan(&state); err != nil {
		t.Fatal(err)
	}
	return state
}

// An enqueued job runs and completes on both backends, and the completion is
// counted by kind and outcome.
func TestEnqueuedJobRuns(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		reg := prometheus.NewRegistry()
		bw := newBlockWorker()
		w := newWorker(t, migrated(t, d), bw, time.Minute, reg)
		if err := w.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = w.Drain(ctx) })
		id, err := w.Enqueue(ctx, blockArgs{N: 7}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if n := receive(t, bw.running, "job start"); n != 7 {
			t.Fatalf("job ran with N=%d, want 7", n)
		}
		close(bw.release)
		if err := receive(t, bw.done, "job end"); err != nil {
			t.Fatalf("job ended with %v", err)
		}
		if err := w.Drain(ctx); err != nil {
			t.Fatal(err)
		}
		if s := jobState(t, d, id); s != "completed" {
			t.Fatalf("job state %q, want completed", s)
		}
		if got := counter(t, reg, "test.block", "completed"); got != 1 {
			t.Fatalf("mp_worker_jobs_total{kind=test.block,outcome=completed} = %v, want 1", got)
		}
	})
}

func counter(t *testing.T, reg *prometheus.Registry, kind, outcome string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "mp_worker_jobs_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["kind"] == kind && labels["outcome"] == outcome {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}

// Drain lets a running job finish (it is not cancelled within the grace),
// waits for it, and then returns; readiness is off meanwhile.
func TestDrainFinishesRunningJob(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		bw := newBlockWorker()
		w := newWorker(t, migrated(t, d), bw, time.Hour, nil)
		if err := w.Start(ctx); err != nil {
			t.Fatal(err)
		}
		first, err := w.Enqueue(ctx, blockArgs{N: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		receive(t, bw.running, "job start")
		drained := make(chan error, 1)
		go func() { drained <- w.Drain(ctx) }()
		// Readiness turns off as soon as the drain begins.
		deadline := time.Now().Add(waitLimit)
		for w.Ready(ctx) == nil {
			if time.Now().After(deadline) {
				t.Fatal("still ready while draining")
			}
			time.Sleep(10 * time.Millisecond)
		}
		select {
		case err := <-drained:
			t.Fatalf("Drain returned (%v) while a job was still running", err)
		default:
		}
		close(bw.release)
		if err := receive(t, bw.done, "job end"); err != nil {
			t.Fatalf("the running job was cancelled (%v) instead of finishing", err)
		}
		if err := receive(t, drained, "drain"); err != nil {
			t.Fatalf("Drain: %v", err)
		}
		if s := jobState(t, d, first); s != "completed" {
			t.Fatalf("running job state %q, want completed", s)
		}
	})
}

// A job still running when the grace is over is cancelled, and Drain returns.
func TestDrainCancelsAfterGrace(t *testing.T) {
	d := dbtest.SQLite(t)
	ctx := context.Background()
	bw := newBlockWorker()
	w := newWorker(t, migrated(t, d), bw, 10*time.Millisecond, nil)
	if err := w.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Enqueue(ctx, blockArgs{N: 1}, nil); err != nil {
		t.Fatal(err)
	}
	receive(t, bw.running, "job start")
	if err := w.Drain(ctx); err != nil {
		t.Fatalf("Drain: %v", err)
	}
	if err := receive(t, bw.done, "job end"); err == nil {
		t.Fatal("the job finished normally; want it cancelled after the grace")
	}
}

// The worker is not ready on a database whose River schema was never
// migrated, and Run does not start jobs there; after the migration it is.
func TestReadyNeedsRiverSchema(t *testing.T) {
	d := dbtest.Postgres(t)
	ctx := context.Background()
	w := newWorker(t, d, newBlockWorker(), time.Minute, nil)
	err := w.Ready(ctx)
	if err == nil || !strings.Contains(err.Error(), "run the migrate role") {
		t.Fatalf("Ready before River's migrations = %v, want an error naming the migrate role", err)
	}
	rctx, cancel := context.WithCancel(ctx)
	ran := make(chan error, 1)
	go func() { ran <- w.Run(rctx) }()
	cancel()
	if err := receive(t, ran, "Run to return"); err != nil {
		t.Fatalf("Run on an unmigrated schema: %v", err)
	}
	migrated(t, d)
	if err := w.Ready(ctx); err == nil || !strings.Contains(err.Error(), "not running") {
		t.Fatalf("Ready migrated but not started = %v, want not running", err)
	}
	if err := w.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := w.Ready(ctx); err != nil {
		t.Fatalf("Ready after migrating and starting: %v", err)
	}
	if err := w.Drain(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestConfigValidate(t *testing.T) {
	if err := (worker.Config{}).Validate(); err == nil {
		t.Fatal("an empty config validated")
	}
	jobs := worker.NewJobs()
	if err := worker.Add(jobs, newBlockWorker()); err != nil {
		t.Fatal(err)
	}
	if err := worker.Add(jobs, newBlockWorker()); err == nil {
		t.Fatal("the same kind registered twice")
	}
	d := dbtest.SQLite(t)
	for _, cfg := range []worker.Config{
		{DB: d, Jobs: worker.NewJobs()},
		{DB: d, Jobs: jobs, Concurrency: -1},
		{DB: d, Jobs: jobs, DrainGrace: -time.Second},
	} {
		if err := cfg.Validate(); err == nil {
			t.Errorf("%+v validated", cfg)
		}
	}
	if err := (worker.Config{DB: d, Jobs: jobs}).Validate(); err != nil {
		t.Fatal(err)
	}
}

// The queue depth counts available jobs at scrape time, and reports the
// served queue at 0 while it is empty.
func TestQueueDepth(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		reg := prometheus.NewRegistry()
		w := newWorker(t, migrated(t, d), newBlockWorker(), time.Minute, reg)
		depth := func() (float64, bool) {
			mfs, err := reg.Gather()
			if err != nil {
				t.Fatal(err)
			}
			for _, mf := range mfs {
				if mf.GetName() != "mp_worker_queue_available_jobs" {
					continue
				}
				for _, m := range mf.GetMetric() {
					if m.GetLabel()[0].GetValue() == "default" {
						return m.GetGauge().GetValue(), true
					}
				}
			}
			return 0, false
		}
		if n, ok := depth(); !ok || n != 0 {
			t.Fatalf("empty queue: depth %v reported %v, want 0 reported", n, ok)
		}
		// Not started: the jobs stay available.
		for i := 0; i < 2; i++ {
			if _, err := w.Enqueue(ctx, blockArgs{N: i}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if n, _ := depth(); n != 2 {
			t.Fatalf("depth %v, want 2", n)
		}
	})
}
