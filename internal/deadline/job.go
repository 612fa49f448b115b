package deadline

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
)

const (
	// Every is how often a subject's job sweeps by default: a move nobody
	// reads is applied at most this late (a read applies it at once).
	Every = time.Minute
	// batch is how many entities one query of a sweep reads.
	batch = 200
	// timeout bounds one sweep; the next tick carries on.
	timeout = 5 * time.Minute
)

// Shops lists the sellers whose business clock runs ahead of the wall clock
// (sandbox test shops whose clock moved): their entities fall due earlier
// than everyone else's, so a sweep asks about each of them on its own clock.
type Shops interface {
	MovedShops(ctx context.Context) ([]string, error)
}

// settler is what the job needs of a Subject, whatever its entity type.
type settler interface {
	due(ctx context.Context, seller string, now time.Time, limit int) ([]Ref, error)
	settleAt(ctx context.Context, ref Ref, now time.Time) (int, error)
	name() string
}

func (s *Subject[E]) due(ctx context.Context, seller string, now time.Time, limit int) ([]Ref, error) {
	return s.Store.Due(ctx, seller, now, limit)
}

func (s *Subject[E]) settleAt(ctx context.Context, ref Ref, now time.Time) (int, error) {
	_, moves, err := s.Settle(ctx, ref, now)
	return len(moves), err
}

func (s *Subject[E]) name() string { return s.Name }

// JobConfig is what a subject's job is built from.
type JobConfig struct {
	// Business is each seller's business time (shopclock.Clock): the job
	// asks it with the seller in the context.
	Business clock.Business
	// Shops lists the sellers whose clock moved.
	Shops  Shops
	Logger *zap.Logger
}

// Job is the worker job of one subject: it sweeps the entities with a move
// due and settles each in a transaction of its own. A is the subject's own
// job arguments type (its kind names the job in River's tables).
type Job[A river.JobArgs] struct {
	river.WorkerDefaults[A]
	subject settler
	cfg     JobConfig
}

// NewJob returns subject's job.
func NewJob[A river.JobArgs, E any](subject *Subject[E], cfg JobConfig) (*Job[A], error) {
	if err := subject.Validate(); err != nil {
		return nil, err
	}
	if cfg.Business == nil || cfg.Shops == nil {
		return nil, errors.New("deadline: a job needs a business clock and the moved shops")
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	return &Job[A]{subject: subject, cfg: cfg}, nil
}

// Register adds subject's job to jobs, swept every interval (Every when
// zero) and when a worker becomes leader. args is the subject's job
// arguments; its InsertOpts should keep one sweep at a time
// (worker.OneAtATime).
func Register[A river.JobArgs, E any](jobs *worker.Jobs, args A, every time.Duration, subject *Subject[E], cfg JobConfig) error {
	j, err := NewJob[A](subject, cfg)
	if err != nil {
		return err
	}
	if err := worker.Add(jobs, river.Worker[A](j)); err != nil {
		return err
	}
	if every <= 0 {
		every = Every
	}
	return worker.AddSchedule(jobs, args.Kind(), every, args)
}

// Timeout implements river.Worker.
func (*Job[A]) Timeout(*river.Job[A]) time.Duration { return timeout }

// Work implements river.Worker.
func (j *Job[A]) Work(ctx context.Context, _ *river.Job[A]) error {
	_, err := j.Run(ctx)
	return err
}

// Run sweeps once and reports how many moves it applied: first every
// seller's entities due on the wall clock (a moved clock is only ever
// ahead of it, so they are due for their seller too), then each moved
// shop's on that shop's clock.
func (j *Job[A]) Run(ctx context.Context) (int, error) {
	moved := 0
	defer func() {
		if moved > 0 {
			j.cfg.Logger.Info("automatic moves applied", zap.String("subject", j.subject.name()), zap.Int("moves", moved))
		}
	}()
	n, err := j.sweep(ctx, "", j.cfg.Business.Business(ctx))
	moved += n
	if err != nil {
		return moved, err
	}
	shops, err := j.cfg.Shops.MovedShops(ctx)
	if err != nil {
		return moved, err
	}
	for _, shop := range shops {
		n, err := j.sweep(ctx, shop, j.now(ctx, shop))
		moved += n
		if err != nil {
			return moved, err
		}
	}
	return moved, nil
}

func (j *Job[A]) now(ctx context.Context, seller string) time.Time {
	return j.cfg.Business.Business(principal.WithSeller(ctx, seller))
}

// sweep settles the entities due at now (seller's, or everyone's), batch by
// batch. An entity is settled on its own seller's clock: in the sweep of
// every seller, now is the wall clock, which a moved shop's clock is ahead
// of.
func (j *Job[A]) sweep(ctx context.Context, seller string, now time.Time) (int, error) {
	moved := 0
	for {
		refs, err := j.subject.due(ctx, seller, now, batch)
		if err != nil {
			return moved, err
		}
		progress := false
		for _, ref := range refs {
			at := now
			if seller == "" {
				at = j.now(ctx, ref.SellerID)
			}
			n, err := j.subject.settleAt(ctx, ref, at)
			if _, ok := apierr.As(err); ok {
				// Gone since it was listed (a domain refusal such as
				// NOT_FOUND): nothing left to settle.
				j.cfg.Logger.Debug("entity left before its automatic move", zap.String("subject", j.subject.name()),
					zap.String("id", ref.ID), zap.Error(err))
				continue
			}
			if err != nil {
				return moved, fmt.Errorf("deadline: %s %s: %w", j.subject.name(), ref.ID, err)
			}
			moved += n
			progress = progress || n > 0
		}
		// A full batch that others settled entirely: they carry on.
		if len(refs) < batch || !progress {
			return moved, nil
		}
	}
}
