// Package idempotencypurge is the worker job that deletes idempotency keys
// past their retention. It depends on the idempotency store only through
// Purger, so the store's package and the worker never import each other.
package idempotencypurge

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/worker"
)

const (
	// Kind is the job kind in River's tables and in the worker's metrics.
	Kind = "idempotency.purge"
	// Every is how often the purge runs.
	Every = 10 * time.Minute
	// Retention is how long a key is kept: a retry within it replays the
	// first answer, one after it is a new request.
	Retention = 24 * time.Hour
	// timeout bounds one run; the next tick carries on where it stopped.
	timeout = 2 * time.Minute
)

// Purger deletes the keys created before a time and reports how many went.
type Purger interface {
	Purge(ctx context.Context, before time.Time) (int, error)
}

// Args are the job's (empty) arguments: each run purges by its own clock.
type Args struct{}

// Kind implements river.JobArgs.
func (Args) Kind() string { return Kind }

// InsertOpts keeps at most one purge queued or running at a time, so ticks
// piling up behind a slow or stopped worker do not queue duplicate runs.
func (Args) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: 3, UniqueOpts: river.UniqueOpts{ByState: []rivertype.JobState{
		rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
		rivertype.JobStateScheduled, rivertype.JobStateRetryable,
	}}}
}

// Job runs the purge.
type Job struct {
	river.WorkerDefaults[Args]
	store Purger
	clock clock.Clock
	log   *zap.Logger
}

// New returns the job over store. Keys age on the wall clock (security time),
// never a sandbox shop's business clock.
func New(store Purger, c clock.Clock, log *zap.Logger) (*Job, error) {
	if store == nil {
		return nil, errors.New("idempotencypurge: a store is required")
	}
	if c == nil {
		c = clock.System{}
	}
	if log == nil {
		log = zap.NewNop()
	}
	return &Job{store: store, clock: c, log: log}, nil
}

// Register adds the purge to jobs, every 10 minutes.
func Register(jobs *worker.Jobs, store Purger, c clock.Clock, log *zap.Logger) error {
	j, err := New(store, c, log)
	if err != nil {
		return err
	}
	return worker.AddPeriodic(jobs, Every, func() Args { return Args{} }, river.Worker[Args](j))
}

// Timeout implements river.Worker.
func (*Job) Timeout(*river.Job[Args]) time.Duration { return timeout }

// Work deletes the keys older than the retention.
func (j *Job) Work(ctx context.Context, _ *river.Job[Args]) error {
	before := j.clock.Now().Add(-Retention)
	n, err := j.store.Purge(ctx, before)
	if err != nil {
		return fmt.Errorf("purge idempotency keys before %s: %w", before.Format(time.RFC3339), err)
	}
	j.log.Info("idempotency keys purged", zap.Int("deleted", n), zap.Time("before", before))
	return nil
}
