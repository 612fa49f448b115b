// Package retention is the worker job that deletes rows past their
// retention: idempotency keys after 24 hours, events and webhook delivery
// attempts after 30 days, the consent flow's spent rows a day past their
// expiry (each domain lists its own in internal/serviceset). Each
// table is a Target; the job depends on the stores only through Purger, so
// the stores' packages and the worker never import each other.
package retention

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/worker"
)

const (
	// Kind is the job kind in River's tables and in the worker's metrics.
	Kind = "retention.purge"
	// timeout bounds one run; the next tick carries on where it stopped.
	timeout = 2 * time.Minute
)

// Purger deletes the rows older than a time and reports how many went.
type Purger interface {
	Purge(ctx context.Context, before time.Time) (int, error)
}

// Target is one table under retention.
type Target struct {
	// Name names the target in job arguments and logs ("events").
	Name string
	// Keep is how long rows are kept, on the wall clock.
	Keep time.Duration
	// Every is how often the purge runs.
	Every  time.Duration
	Purger Purger
}

// Args names the target of one run; each run purges by its own clock.
type Args struct {
	Target string `json:"target"`
}

// Kind implements river.JobArgs.
func (Args) Kind() string { return Kind }

// InsertOpts keeps at most one purge per target queued or running
// (worker.OneAtATime: unique by arguments).
func (Args) InsertOpts() river.InsertOpts {
	return worker.OneAtATime(3)
}

// Job runs purges.
type Job struct {
	river.WorkerDefaults[Args]
	targets map[string]Target
	clock   clock.Clock
	log     *zap.Logger
}

// New returns the job over targets. Rows age on the wall clock (security
// time), never a sandbox shop's business clock.
func New(c clock.Clock, log *zap.Logger, targets ...Target) (*Job, error) {
	if c == nil {
		c = clock.System{}
	}
	if log == nil {
		log = zap.NewNop()
	}
	j := &Job{targets: map[string]Target{}, clock: c, log: log}
	for _, t := range targets {
		switch {
		case t.Name == "" || t.Purger == nil:
			return nil, errors.New("retention: a target needs a name and a purger")
		case t.Keep <= 0 || t.Every <= 0:
			return nil, fmt.Errorf("retention: target %s needs a positive retention and interval", t.Name)
		case j.targets[t.Name].Name != "":
			return nil, fmt.Errorf("retention: target %s twice", t.Name)
		}
		j.targets[t.Name] = t
	}
	return j, nil
}

// Register adds the purge of every target to jobs, each on its interval.
func Register(jobs *worker.Jobs, c clock.Clock, log *zap.Logger, targets ...Target) error {
	j, err := New(c, log, targets...)
	if err != nil {
		return err
	}
	if err := worker.Add(jobs, river.Worker[Args](j)); err != nil {
		return err
	}
	for _, t := range targets {
		if err := worker.AddSchedule(jobs, Kind+":"+t.Name, t.Every, Args{Target: t.Name}); err != nil {
			return err
		}
	}
	return nil
}

// Timeout implements river.Worker.
func (*Job) Timeout(*river.Job[Args]) time.Duration { return timeout }

// Work deletes the target's rows older than its retention.
func (j *Job) Work(ctx context.Context, job *river.Job[Args]) error {
	t, ok := j.targets[job.Args.Target]
	if !ok {
		// A job queued by a release that had this target: nothing to do
		// and nothing to retry.
		return river.JobCancel(fmt.Errorf("retention: unknown target %q", job.Args.Target))
	}
	before := j.clock.Now().Add(-t.Keep)
	n, err := t.Purger.Purge(ctx, before)
	if err != nil {
		return fmt.Errorf("purge %s before %s: %w", t.Name, before.Format(time.RFC3339), err)
	}
	j.log.Info("rows purged", zap.String("target", t.Name), zap.Int("deleted", n), zap.Time("before", before))
	return nil
}
