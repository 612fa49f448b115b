// Package expiring is the worker job that tells an app, 7 days ahead, that a
// seller's grant to it is about to end: for each grant (a seller
// authorization) not revoked whose end falls within the next 7 days and
// that was not noticed yet, it records authorization.expiring, addressed to
// the grant's app, and marks the grant noticed, in one transaction per grant
// (the event's webhook deliveries commit with it). Two workers running it
// at once notice a grant once: the mark is conditional on its absence.
package expiring

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"go.uber.org/zap"

	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/events"
)

const (
	// Kind is the job kind in River's tables and in the worker's metrics.
	Kind = "authorization.expiring_notice"
	// Notice is how long before a grant ends its app is told.
	Notice = 7 * 24 * time.Hour
	// Every is how often the job runs.
	Every = time.Hour
	// batch is how many grants one query reads.
	batch = 100
	// timeout bounds one run; the next tick carries on where it stopped.
	timeout = 5 * time.Minute
)

// Grant is a seller's grant to an app, as the job reads it.
type Grant struct {
	ID        string
	AppID     string
	ClientID  string
	SellerID  string
	Scopes    []string
	GrantedAt time.Time
	ExpiresAt time.Time
}

// Store reads the grants due a notice and marks them.
type Store interface {
	// Due returns up to limit grants not revoked and not noticed whose end
	// is after now and at or before until, soonest ending first.
	Due(ctx context.Context, now, until time.Time, limit int) ([]Grant, error)
	// MarkNoticed sets the grant's notice time to at, when it has none and
	// the grant is not revoked, on the transaction ctx carries; it reports
	// whether it did (false: another run noticed it, or it was revoked).
	MarkNoticed(ctx context.Context, id string, at time.Time) (bool, error)
	// InTx runs fn in a transaction (joining one ctx carries).
	InTx(ctx context.Context, fn func(ctx context.Context) error) error
}

// Args is one run; runs carry nothing.
type Args struct{}

// Kind implements river.JobArgs.
func (Args) Kind() string { return Kind }

// InsertOpts keeps at most one run queued or running (worker.OneAtATime).
func (Args) InsertOpts() river.InsertOpts {
	return worker.OneAtATime(3)
}

// Job records the notices.
type Job struct {
	river.WorkerDefaults[Args]
	store    Store
	recorder *events.Recorder
	clock    clock.Clock
	log      *zap.Logger
}

// New returns the job over store, recording with recorder (which hands the
// events to the webhook deliveries, as core's does). Grants end on the wall
// clock (security time), never a sandbox shop's business clock.
func New(store Store, recorder *events.Recorder, c clock.Clock, log *zap.Logger) (*Job, error) {
	if store == nil || recorder == nil {
		return nil, errors.New("expiring: a store and a recorder are required")
	}
	if c == nil {
		c = clock.System{}
	}
	if log == nil {
		log = zap.NewNop()
	}
	return &Job{store: store, recorder: recorder, clock: c, log: log}, nil
}

// Register adds the job to jobs, run every hour (and when a worker becomes
// leader).
func Register(jobs *worker.Jobs, store Store, recorder *events.Recorder, c clock.Clock, log *zap.Logger) error {
	j, err := New(store, recorder, c, log)
	if err != nil {
		return err
	}
	if err := worker.Add(jobs, river.Worker[Args](j)); err != nil {
		return err
	}
	return worker.AddSchedule(jobs, Kind, Every, Args{})
}

// Timeout implements river.Worker.
func (*Job) Timeout(*river.Job[Args]) time.Duration { return timeout }

// Work notices every grant due, batch by batch.
func (j *Job) Work(ctx context.Context, _ *river.Job[Args]) error {
	now := j.clock.Now()
	noticed := 0
	defer func() {
		if noticed > 0 {
			j.log.Info("expiring grants noticed", zap.Int("grants", noticed))
		}
	}()
	for {
		due, err := j.store.Due(ctx, now, now.Add(Notice), batch)
		if err != nil {
			return err
		}
		progress := false
		for _, g := range due {
			ok, err := j.notice(ctx, g, now)
			if err != nil {
				return fmt.Errorf("expiring: grant %s: %w", g.ID, err)
			}
			if ok {
				noticed++
				progress = true
			}
		}
		// A full batch that another run noticed entirely: that run carries
		// on with the rest.
		if len(due) < batch || !progress {
			return nil
		}
	}
}

// notice marks g and records its event in one transaction; false when
// another run had marked it (nothing is recorded then).
func (j *Job) notice(ctx context.Context, g Grant, now time.Time) (bool, error) {
	done := false
	err := j.store.InTx(ctx, func(ctx context.Context) error {
		ok, err := j.store.MarkNoticed(ctx, g.ID, now)
		if err != nil || !ok {
			return err
		}
		_, err = j.recorder.Record(ctx, events.Change{
			SellerID: g.SellerID, AppID: g.AppID, Type: eventsv1.EventType_EVENT_TYPE_AUTHORIZATION_EXPIRING,
			ResourceID: g.ID, At: now, View: g.view(),
		})
		done = err == nil
		return err
	})
	return done, err
}

// view is g as the authorization events carry it, rendered as the flow's
// own granted and revoked events render theirs.
func (g Grant) view() *eventsv1.Grant {
	return auth.GrantView(&auth.Grant{Authorization: auth.Authorization{ID: g.ID, AppID: g.AppID, SellerID: g.SellerID,
		Scopes: g.Scopes}, ExpiresAt: g.ExpiresAt, CreatedAt: g.GrantedAt}, g.ClientID)
}
