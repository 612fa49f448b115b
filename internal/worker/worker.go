// Package worker runs the platform's durable background jobs on River, a job
// queue kept in core's own database: PostgreSQL (pgx driver) for the worker
// role, SQLite in the dev role. Domains register their job kinds on a Jobs
// set; the worker starts River once River's schema is current, reports
// readiness and metrics, and drains on shutdown (stop fetching, let running
// jobs finish within a grace, then cancel them).
package worker

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivertype"
	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/internal/db"
)

// Defaults for Config's zero values.
const (
	DefaultConcurrency = 10
	// DefaultDrainGrace leaves running jobs 25 s to finish on shutdown; with
	// the 5 s given to cancelled jobs to return it fits Kubernetes' 30 s
	// default termination grace (the Deployment allows a little more).
	DefaultDrainGrace = 25 * time.Second
	// DefaultRescueAfter is how long a job may run before River takes its
	// worker for dead and retries it.
	DefaultRescueAfter = 5 * time.Minute
	// cancelGrace is how long cancelled jobs get to return once the drain
	// grace is over.
	cancelGrace = 5 * time.Second
	// schemaPoll is how often a worker whose River schema is behind looks
	// again, so it starts by itself once the migrate job has run.
	schemaPoll = 5 * time.Second
)

// Config configures a Worker.
type Config struct {
	DB   *db.DB
	Jobs *Jobs
	// Concurrency is how many jobs run at once in this process.
	Concurrency int
	// DrainGrace bounds how long shutdown waits for running jobs.
	DrainGrace time.Duration
	// RescueAfter is how long a job may run before it is taken for the job
	// of a dead worker and handed out again (default DefaultRescueAfter);
	// it must exceed every job's own timeout.
	RescueAfter time.Duration
	// PollInterval is how often the queue is polled for new jobs when no
	// notification arrives (SQLite has none). Zero: River's default, 1 s.
	PollInterval time.Duration
	Logger       *zap.Logger
	Metrics      *Metrics
}

// Validate reports a configuration the worker cannot run with.
func (c Config) Validate() error {
	var errs []error
	if c.DB == nil {
		errs = append(errs, errors.New("worker: a database is required"))
	} else if c.DB.Driver() == db.DriverPostgres && c.DB.Pool == nil {
		errs = append(errs, errors.New("worker: the PostgreSQL database has no pgx pool"))
	}
	if c.Jobs == nil || len(c.Jobs.kinds) == 0 {
		errs = append(errs, errors.New("worker: no job kinds registered"))
	}
	if c.Concurrency < 0 || c.Concurrency > 10_000 {
		errs = append(errs, fmt.Errorf("worker: concurrency %d: want 1-10000 (0: %d)", c.Concurrency, DefaultConcurrency))
	}
	if c.DrainGrace < 0 {
		errs = append(errs, errors.New("worker: drain grace cannot be negative"))
	}
	if c.PollInterval < 0 {
		errs = append(errs, errors.New("worker: poll interval cannot be negative"))
	}
	return errors.Join(errs...)
}

// client is what the worker uses of River's client; *river.Client[TTx]
// satisfies it for either driver's transaction type.
type client interface {
	Start(ctx context.Context) error
	Stop(ctx context.Context) error
	StopAndCancel(ctx context.Context) error
	Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
	Subscribe(kinds ...river.EventKind) (<-chan *river.Event, func())
}

// Worker runs registered jobs.
type Worker struct {
	cfg     Config
	log     *zap.Logger
	client  client
	started atomic.Bool
	// migrated caches a successful schema check: the schema does not go
	// back, so readiness stops asking once it was current.
	migrated    atomic.Bool
	events      sync.WaitGroup
	unsubscribe func()
}

// New builds a worker over cfg.DB. It does not touch the database: Run starts
// River once River's schema is current.
func New(cfg Config) (*Worker, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Concurrency == 0 {
		cfg.Concurrency = DefaultConcurrency
	}
	if cfg.DrainGrace == 0 {
		cfg.DrainGrace = DefaultDrainGrace
	}
	if cfg.RescueAfter == 0 {
		cfg.RescueAfter = DefaultRescueAfter
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	queues := map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: cfg.Concurrency}}
	for name, n := range cfg.Jobs.queues {
		queues[name] = river.QueueConfig{MaxWorkers: n}
	}
	rc := &river.Config{
		Queues:       queues,
		Workers:      cfg.Jobs.workers,
		PeriodicJobs: cfg.Jobs.periodic,
		// A job whose worker died (SIGKILL, a lost node) stays "running"
		// until River's rescuer hands it out again: after 5 minutes rather
		// than River's hour, above every job's own timeout (the longest,
		// the retention purge, is 2 minutes), so a delivery cut off
		// mid-flight is retried within minutes.
		RescueStuckJobsAfter: cfg.RescueAfter,
		// Jobs set their own timeouts; the default for others stays under
		// the rescue, as River requires.
		JobTimeout: min(river.JobTimeoutDefault, cfg.RescueAfter),
		// River logs through slog; only its warnings and errors are worth a
		// line next to the platform's own logs.
		Logger: slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	if cfg.PollInterval > 0 {
		rc.FetchPollInterval = cfg.PollInterval
		rc.FetchCooldown = min(cfg.PollInterval, river.FetchCooldownDefault)
	}
	var (
		c   client
		err error
	)
	switch cfg.DB.Driver() {
	case db.DriverPostgres:
		c, err = newClient[pgx.Tx](riverpgxv5.New(cfg.DB.Pool), rc)
	case db.DriverSQLite:
		c, err = newClient[*sql.Tx](riversqlite.New(cfg.DB.SQL), rc)
	default:
		err = fmt.Errorf("unknown driver %q", cfg.DB.Driver())
	}
	if err != nil {
		return nil, fmt.Errorf("worker: %w", err)
	}
	if cfg.Metrics != nil && cfg.Metrics.reg != nil {
		if err := cfg.Metrics.reg.Register(newQueueDepth(cfg.DB.SQL, river.QueueDefault)); err != nil {
			return nil, fmt.Errorf("worker: queue depth metric: %w", err)
		}
	}
	return &Worker{cfg: cfg, log: cfg.Logger, client: c}, nil
}

func newClient[TTx any](drv riverdriver.Driver[TTx], rc *river.Config) (client, error) {
	return river.NewClient(drv, rc)
}

// Enqueue inserts a one-off job of a registered kind.
func (w *Worker) Enqueue(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (int64, error) {
	res, err := w.client.Insert(ctx, args, opts)
	if err != nil {
		return 0, fmt.Errorf("worker: enqueue %s: %w", args.Kind(), err)
	}
	return res.Job.ID, nil
}

// Run starts the worker once River's schema is current, works until ctx
// ends, then drains. A schema that is behind is not an error: readiness says
// so and Run looks again every few seconds, so the pod comes up by itself
// once the migrate job has run.
func (w *Worker) Run(ctx context.Context) error {
	for {
		err := w.schemaCurrent(ctx)
		if err == nil {
			break
		}
		w.log.Warn("not starting jobs yet", zap.Error(err))
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(schemaPoll):
		}
	}
	if err := w.Start(ctx); err != nil {
		return err
	}
	<-ctx.Done()
	return w.Drain(context.WithoutCancel(ctx))
}

// Start starts fetching and running jobs. The caller must have checked that
// River's schema is current (Run does).
func (w *Worker) Start(ctx context.Context) error {
	events, unsubscribe := w.client.Subscribe(subscribedEvents...)
	w.events.Go(func() {
		for ev := range events {
			w.cfg.Metrics.record(ev)
		}
	})
	// River's context ends the work loops; jobs stop through Drain, not
	// through the caller's context ending.
	if err := w.client.Start(context.WithoutCancel(ctx)); err != nil {
		unsubscribe()
		w.events.Wait()
		return fmt.Errorf("worker: start: %w", err)
	}
	w.unsubscribe = unsubscribe
	w.started.Store(true)
	w.log.Info("worker started", zap.Int("concurrency", w.cfg.Concurrency), zap.Strings("kinds", w.cfg.Jobs.Kinds()))
	return nil
}

// Drain stops fetching new jobs, waits up to the drain grace for running
// jobs to finish, then cancels those still running and waits a little more
// for them to return. Readiness fails from the moment it begins.
func (w *Worker) Drain(ctx context.Context) error {
	if !w.started.Swap(false) {
		return nil
	}
	gctx, cancel := context.WithTimeout(ctx, w.cfg.DrainGrace)
	defer cancel()
	err := w.client.Stop(gctx)
	if err != nil && errors.Is(err, context.DeadlineExceeded) {
		w.log.Warn("drain grace over: cancelling the jobs still running", zap.Duration("grace", w.cfg.DrainGrace))
		cctx, ccancel := context.WithTimeout(context.WithoutCancel(ctx), cancelGrace)
		defer ccancel()
		err = w.client.StopAndCancel(cctx)
	}
	if w.unsubscribe != nil {
		w.unsubscribe()
	}
	w.events.Wait()
	if err != nil {
		return fmt.Errorf("worker: drain: %w", err)
	}
	w.log.Info("worker drained")
	return nil
}

// Ready reports whether the worker is running jobs: River's client is
// started, the database answers and River's schema is at the version this
// binary carries.
func (w *Worker) Ready(ctx context.Context) error {
	if err := w.cfg.DB.SQL.PingContext(ctx); err != nil {
		return fmt.Errorf("database does not answer: %w", err)
	}
	if err := w.schemaCurrent(ctx); err != nil {
		return err
	}
	if !w.started.Load() {
		return errors.New("the worker is not running jobs")
	}
	return nil
}

func (w *Worker) schemaCurrent(ctx context.Context) error {
	if w.migrated.Load() {
		return nil
	}
	current, latest, err := db.RiverMigrationStatus(ctx, w.cfg.DB)
	if err != nil {
		return err
	}
	if current != latest {
		return fmt.Errorf("the job queue's schema is at version %d, this release needs %d: run the migrate role", current, latest)
	}
	w.migrated.Store(true)
	return nil
}
