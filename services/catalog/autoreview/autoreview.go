// Package autoreview is the sandbox's automatic review: a worker job that
// approves the proposed products of test shops once they are older than a
// delay on the shop's own business clock (MP_SANDBOX_REVIEW_DELAY, dev
// only, off by default). It takes the catalog's named review steps (start
// review, approve), as the trust and safety team and the sandbox's review
// tool do, so partners see the same statuses and events.
package autoreview

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/services/catalog"
)

const (
	// Kind is the job kind in River's tables and the worker's metrics.
	Kind = "catalog.sandbox_autoreview"
	// batch bounds the products one run approves per shop; the next tick
	// carries on.
	batch = 200
	// timeout bounds one run.
	timeout = 2 * time.Minute
)

// Interval is how often the job runs for a delay: a quarter of it, between
// one second and one minute, so a product is approved at most a quarter
// late (a minute for long delays).
func Interval(delay time.Duration) time.Duration {
	return min(max(delay/4, time.Second), time.Minute)
}

// Candidates finds what to approve (catalog.Store).
type Candidates interface {
	TestShops(ctx context.Context) ([]string, error)
	ProposedBefore(ctx context.Context, sellerID string, t time.Time, limit int) ([]string, error)
}

// Approver takes a product through the review to live (catalog.Service).
type Approver interface {
	AutoApprove(ctx context.Context, sellerID, id string) (*catalog.Product, error)
}

// Config is what the job is built from.
type Config struct {
	// Delay is how old (on the shop's business clock) a proposed product
	// must be; it must be positive.
	Delay      time.Duration
	Candidates Candidates
	Approver   Approver
	// Business is each shop's business time (shopclock.Clock).
	Business clock.Business
	Logger   *zap.Logger
}

// Args of a run: there are none, and at most one run is queued or running
// (worker.OneAtATime).
type Args struct{}

// Kind implements river.JobArgs.
func (Args) Kind() string { return Kind }

// InsertOpts implements river.JobArgsWithInsertOpts.
func (Args) InsertOpts() river.InsertOpts { return worker.OneAtATime(3) }

// Job approves old enough proposed products of test shops.
type Job struct {
	river.WorkerDefaults[Args]
	cfg Config
}

// New returns the job.
func New(cfg Config) (*Job, error) {
	if cfg.Delay <= 0 || cfg.Candidates == nil || cfg.Approver == nil || cfg.Business == nil {
		return nil, errors.New("autoreview: a positive delay, candidates, an approver and a business clock are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	return &Job{cfg: cfg}, nil
}

// Register adds the job to jobs on its interval.
func Register(jobs *worker.Jobs, cfg Config) error {
	j, err := New(cfg)
	if err != nil {
		return err
	}
	if err := worker.Add(jobs, river.Worker[Args](j)); err != nil {
		return err
	}
	return worker.AddSchedule(jobs, Kind, Interval(cfg.Delay), Args{})
}

// Timeout implements river.Worker.
func (*Job) Timeout(*river.Job[Args]) time.Duration { return timeout }

// Work implements river.Worker.
func (j *Job) Work(ctx context.Context, _ *river.Job[Args]) error {
	_, err := j.Run(ctx)
	return err
}

// Run approves every test shop's proposed products created at least the
// delay ago on that shop's clock (up to a batch per shop) and reports how
// many it approved.
func (j *Job) Run(ctx context.Context) (int, error) {
	shops, err := j.cfg.Candidates.TestShops(ctx)
	if err != nil {
		return 0, err
	}
	approved := 0
	for _, shop := range shops {
		before := j.cfg.Business.Business(principal.WithSeller(ctx, shop)).Add(-j.cfg.Delay)
		ids, err := j.cfg.Candidates.ProposedBefore(ctx, shop, before, batch)
		if err != nil {
			return approved, err
		}
		for _, id := range ids {
			_, err := j.cfg.Approver.AutoApprove(ctx, shop, id)
			if _, ok := apierr.As(err); ok {
				// The product moved (deleted, or reviewed by hand) since it
				// was listed: nothing left to approve.
				j.cfg.Logger.Debug("product left review before its automatic approval", zap.String("product_id", id), zap.Error(err))
				continue
			}
			if err != nil {
				return approved, fmt.Errorf("autoreview: approve %s: %w", id, err)
			}
			approved++
		}
	}
	if approved > 0 {
		j.cfg.Logger.Info("sandbox products approved", zap.Int("approved", approved))
	}
	return approved, nil
}
