package webhooks

import (
	"context"
	"errors"
	"time"

	"github.com/riverqueue/river"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/services/events"
)

// ReplayWindow is how far back a replay may start: the events feed's
// retention.
const ReplayWindow = events.Retention

// maxReplay bounds one replay's deliveries; a partner replays a longer gap
// in several windows.
const maxReplay = 10_000

// Deliveries lists one of the app's subscriptions' deliveries, newest
// first: those queued and not attempted yet (pending), then the attempts
// made.
func (s *Service) Deliveries(ctx context.Context, id string, limit int) ([]Attempt, error) {
	v, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = 20
	}
	out, err := s.cfg.Store.Pending(ctx, v.Subscription, limit)
	if err != nil {
		return nil, err
	}
	if len(out) == limit {
		return out, nil
	}
	made, err := s.cfg.Store.Attempts(ctx, v.ID, limit-len(out))
	if err != nil {
		return nil, err
	}
	return append(out, made...), nil
}

// Retry queues the event of one of the subscription's attempts again.
func (s *Service) Retry(ctx context.Context, id, deliveryID string) (int, error) {
	v, err := s.Get(ctx, id)
	if err != nil {
		return 0, err
	}
	a, err := s.cfg.Store.Attempt(ctx, v.ID, deliveryID)
	if errors.Is(err, ErrNotFound) {
		return 0, apierr.New(apierr.NotFound, "delivery not found")
	}
	if err != nil {
		return 0, err
	}
	if err := refuseInactive(v, "retry the delivery"); err != nil {
		return 0, err
	}
	return 1, s.queue(ctx, DeliverArgs{SubscriptionID: v.ID, EventID: a.EventID, Test: a.Test})
}

// Replay queues every event of the subscription's type since since: those
// addressed to the app, and the others of every seller whose grant to the
// app includes the type's scope.
func (s *Service) Replay(ctx context.Context, id string, since time.Time) (int, error) {
	v, err := s.Get(ctx, id)
	if err != nil {
		return 0, err
	}
	if err := refuseInactive(v, "replay"); err != nil {
		return 0, err
	}
	now := s.cfg.Clock.Now()
	if since.Before(now.Add(-ReplayWindow)) {
		return 0, apierr.New(apierr.ValidationError, "since: at most 30 days back (events are kept 30 days)")
	}
	evIDs, err := s.cfg.Store.ReplayEvents(ctx, v.Subscription, events.ReadScope(v.Type), since, now, maxReplay+1)
	if err != nil {
		return 0, err
	}
	if len(evIDs) > maxReplay {
		return 0, apierr.Newf(apierr.ValidationError, "since: more than %d events to replay; replay a shorter window", maxReplay)
	}
	args := make([]DeliverArgs, len(evIDs))
	for i, e := range evIDs {
		args[i] = DeliverArgs{SubscriptionID: v.ID, EventID: e}
	}
	return len(args), s.queue(ctx, args...)
}

// Test queues a synthetic event of the subscription's type.
func (s *Service) Test(ctx context.Context, id string) (int, error) {
	v, err := s.Get(ctx, id)
	if err != nil {
		return 0, err
	}
	if err := refuseInactive(v, "send a test"); err != nil {
		return 0, err
	}
	return 1, s.queue(ctx, DeliverArgs{SubscriptionID: v.ID, EventID: ids.NewAt("evt", s.cfg.Clock.Now()), Test: true})
}

// refuseInactive refuses to queue deliveries to a paused or disabled
// subscription: its deliverer sends nothing while it is inactive, so a 202
// would promise requests that never come. then names what to do once it is
// resumed.
func refuseInactive(v View, then string) error {
	if v.Active {
		return nil
	}
	if v.DisabledReason != nil {
		return apierr.New(apierr.Conflict, "the subscription is paused: the platform disabled it after failed deliveries; set active to true to resume it, then "+then)
	}
	return apierr.New(apierr.Conflict, "the subscription is paused; set active to true to resume it, then "+then)
}

func (s *Service) queue(ctx context.Context, args ...DeliverArgs) error {
	if s.cfg.Jobs == nil {
		return errors.New("webhooks: no job inserter")
	}
	params := make([]river.InsertManyParams, len(args))
	for i, a := range args {
		params[i] = river.InsertManyParams{Args: a}
	}
	return s.cfg.Store.InTx(ctx, func(ctx context.Context) error { return s.cfg.Jobs.InsertTx(ctx, params...) })
}
