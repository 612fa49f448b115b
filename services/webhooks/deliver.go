package webhooks

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/riverqueue/river"
	"google.golang.org/protobuf/proto"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/wirejson"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/webhooks/delivery"
)

// DeliverKind is the job kind of one event's delivery to one subscription.
const DeliverKind = "webhook.deliver"

// maxAttempts is the first attempt and every retry of the published
// schedule (delivery.NextAttempt).
const maxAttempts = 8

// Queue is the worker queue deliveries run on: they mostly wait on the
// receivers, so a worker runs many at once (DefaultConcurrency) without
// holding the default queue's slots.
const Queue = "webhooks"

// DefaultConcurrency is how many deliveries a worker process runs at once.
const DefaultConcurrency = 100

// DeliverArgs names what a delivery job delivers.
type DeliverArgs struct {
	SubscriptionID string `json:"subscription_id"`
	EventID        string `json:"event_id"`
	// Test: a synthetic event of the subscription's type (EventID is made
	// for it), marked "test": true.
	Test bool `json:"test,omitempty"`
	// ResourceID orders first attempts: one resource's events go to one
	// subscription in sequence order.
	ResourceID string `json:"resource_id,omitempty"`
}

// Kind implements river.JobArgs.
func (DeliverArgs) Kind() string { return DeliverKind }

// InsertOpts implements river.JobArgsWithInsertOpts.
func (DeliverArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: maxAttempts, Queue: Queue}
}

// Dispatcher inserts one delivery job per matching subscription for each
// recorded event, in the recording transaction (events.Dispatcher).
type Dispatcher struct {
	store *EntStore
	jobs  *worker.Inserter
	wall  clock.Clock
}

// NewDispatcher returns a Dispatcher.
func NewDispatcher(store *EntStore, jobs *worker.Inserter, wall clock.Clock) *Dispatcher {
	if wall == nil {
		wall = clock.System{}
	}
	return &Dispatcher{store: store, jobs: jobs, wall: wall}
}

// Dispatch implements events.Dispatcher. An event addressed to an app goes
// to that app's subscriptions alone, without the grant check (a revocation
// is sent after the grant ended); any other event to every app holding the
// seller's grant of the type's scope.
func (d *Dispatcher) Dispatch(ctx context.Context, es []events.Event) error {
	type key struct{ seller, typ, app string }
	matches := map[key][]*Subscription{}
	var params []river.InsertManyParams
	for _, e := range es {
		k := key{e.SellerID, e.Type, e.AppID}
		subs, seen := matches[k]
		if !seen {
			t, ok := events.ParseType(e.Type)
			if !ok {
				return fmt.Errorf("webhooks: event type %q is not in the catalogue", e.Type)
			}
			var err error
			if e.AppID != "" {
				subs, err = d.store.AppMatching(ctx, e.AppID, e.Type)
			} else {
				subs, err = d.store.Matching(ctx, e.SellerID, e.Type, events.ReadScope(t), d.wall.Now())
			}
			if err != nil {
				return err
			}
			matches[k] = subs
		}
		for _, sub := range subs {
			params = append(params, river.InsertManyParams{Args: DeliverArgs{SubscriptionID: sub.ID, EventID: e.ID, ResourceID: e.ResourceID}})
		}
	}
	return d.jobs.InsertTx(ctx, params...)
}

// Deliverer is the delivery job: it signs the event, sends it, logs the
// attempt and keeps the subscription's health.
type Deliverer struct {
	river.WorkerDefaults[DeliverArgs]
	svc    *Service
	store  *EntStore
	events *events.EntStore
	// live delivers https only; sandbox subscriptions may use http.
	live, sandbox *delivery.Client
	wall          clock.Clock
	metrics       *Metrics
	rngMu         sync.Mutex
	rng           *rand.Rand
}

// NewDeliverer returns the delivery job over the service (secrets, the
// callback policy of live and sandbox subscriptions) and the stores.
func NewDeliverer(svc *Service, store *EntStore, evs *events.EntStore, wall clock.Clock) *Deliverer {
	if wall == nil {
		wall = clock.System{}
	}
	return &Deliverer{svc: svc, store: store, events: evs,
		live: delivery.New(svc.callbackPolicy(false)), sandbox: delivery.New(svc.callbackPolicy(true)), wall: wall,
		rng: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))}
}

// Timeout implements river.Worker: the exchange has 10 s; the rest is the
// log and the health update.
func (*Deliverer) Timeout(*river.Job[DeliverArgs]) time.Duration { return 30 * time.Second }

// NextRetry implements river.Worker: the published schedule.
func (d *Deliverer) NextRetry(job *river.Job[DeliverArgs]) time.Time {
	d.rngMu.Lock()
	wait, _ := delivery.NextAttempt(job.Attempt, d.rng)
	d.rngMu.Unlock()
	return d.wall.Now().Add(wait)
}

// Work delivers the event once.
func (d *Deliverer) Work(ctx context.Context, job *river.Job[DeliverArgs]) error {
	sub, err := d.store.ByID(ctx, job.Args.SubscriptionID)
	if errors.Is(err, ErrNotFound) {
		return nil // deleted since: nothing to deliver
	}
	if err != nil {
		return err
	}
	if !sub.Active {
		return nil // paused or disabled: a replay re-sends what it missed
	}
	// River's count: a snooze gives its attempt back, so 1 is the first
	// attempt this job sends.
	if job.Attempt == 1 && job.Args.ResourceID != "" {
		// A resource's events reach a subscription in sequence order: an
		// earlier event of it whose first attempt has not gone out yet goes
		// first. Jobs of one resource are inserted in its change order (the
		// change holds the resource's row), so an earlier job is an earlier
		// sequence.
		waiting, err := d.store.EarlierFirstAttemptPending(ctx, job.ID, sub.ID, job.Args.ResourceID)
		if err != nil {
			return err
		}
		if waiting {
			return river.JobSnooze(time.Second)
		}
	}
	now := d.wall.Now()
	var ev events.Event
	if job.Args.Test {
		ev = events.Event{ID: job.Args.EventID, Type: sub.EventType, CreatedAt: now, Data: []byte("{}")}
	} else if ev, err = d.events.ByID(ctx, job.Args.EventID); errors.Is(err, events.ErrNotFound) {
		return nil // past retention
	} else if err != nil {
		return err
	}
	if ev.AppID != "" && ev.AppID != sub.AppID {
		// Addressed to another app: never this subscription's to send.
		return river.JobCancel(fmt.Errorf("webhooks: event %s is addressed to another app", ev.ID))
	}
	msg := events.ToProto(ev)
	if job.Args.Test {
		msg.Test = proto.Bool(true)
	}
	body, err := wirejson.Marshal(msg)
	if err != nil {
		return err
	}
	secrets, err := d.svc.Secrets(sub, now)
	if err != nil {
		return err
	}
	client := d.live
	if sub.Sandbox {
		client = d.sandbox
	}
	res := client.Deliver(ctx, delivery.Request{URL: sub.URL, ID: ev.ID, Timestamp: now, Body: body, Secrets: secrets})
	a := Attempt{ID: ids.NewAt("dlv", now), SubscriptionID: sub.ID, AppID: sub.AppID, EventID: ev.ID, EventType: ev.Type,
		Number: int64(job.Attempt), Test: job.Args.Test, Succeeded: res.Err == nil, Duration: res.Duration, ResponseBody: res.Body, At: now}
	if res.Status != 0 {
		st := int64(res.Status)
		a.ResponseStatus = &st
	}
	if res.Err != nil {
		a.Error = truncate(res.Err.Error(), 500)
		if job.Attempt < maxAttempts && !res.Gone {
			next := d.NextRetry(job)
			a.NextAttemptAt = &next
		}
	}
	d.metrics.attempt(res.Status, res.Gone)
	failingSince, err := d.store.RecordAttempt(ctx, a, sub.ConsecutiveFailures > 0 || sub.FailingSince != nil)
	if err != nil {
		return err
	}
	switch {
	case res.Err == nil:
		return nil
	case res.Gone:
		if err := d.store.Disable(ctx, sub.ID, "the receiver answered 410 Gone", now); err != nil {
			return err
		}
		d.metrics.disable("gone")
		return river.JobCancel(res.Err)
	case failingSince != nil && delivery.ShouldDisable(*failingSince, now):
		if err := d.store.Disable(ctx, sub.ID, "every delivery failed for 3 days", now); err != nil {
			return err
		}
		d.metrics.disable("failing")
		return river.JobCancel(res.Err)
	}
	return res.Err
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// WithMetrics counts the attempts and disablings on m.
func (d *Deliverer) WithMetrics(m *Metrics) *Deliverer {
	d.metrics = m
	return d
}

// WithRootCAs makes both clients trust pool's certificates instead of the
// system's (tests with a local HTTPS receiver).
func (d *Deliverer) WithRootCAs(pool *x509.CertPool) *Deliverer {
	d.live, d.sandbox = d.live.WithRootCAs(pool), d.sandbox.WithRootCAs(pool)
	return d
}
