package main

import (
	"errors"
	"net/netip"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/idempotency"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/internal/worker/retention"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/auth/expiring"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/webhooks"
	"github.com/mallplatform/partnerapi/services/webhooks/callback"
)

// jobSettings is what the jobs need beside the database.
type jobSettings struct {
	// SecretKey opens the webhook signing secrets (MP_SECRET_KEY, as core).
	SecretKey string
	// WebhookAllow is MP_WEBHOOK_ALLOW_CIDRS, as core.
	WebhookAllow []netip.Prefix
	// WebhookConcurrency is how many deliveries run at once (0: the
	// default).
	WebhookConcurrency int
	// Metrics receives the delivery metrics.
	Metrics prometheus.Registerer
	// SandboxReviewDelay, when positive, approves test shops' proposed
	// products that old on their business clock (MP_SANDBOX_REVIEW_DELAY,
	// dev only).
	SandboxReviewDelay time.Duration
}

// workerJobs is every job kind the platform runs, for the worker role and
// the dev role alike.
func workerJobs(d *db.DB, log *zap.Logger, s jobSettings) (*worker.Jobs, error) {
	if s.SecretKey == "" {
		return nil, errors.New("the worker needs MP_SECRET_KEY (core's) to sign webhook deliveries")
	}
	jobs := worker.NewJobs()
	err := retention.Register(jobs, clock.System{}, log.Named(retention.Kind),
		retention.Target{Name: "idempotency_keys", Keep: idempotency.Retention, Every: 10 * time.Minute,
			Purger: idempotency.NewEntStore(d.Ent)},
		retention.Target{Name: "events", Keep: events.Retention, Every: time.Hour, Purger: events.NewEntStore(d)},
		retention.Target{Name: "webhook_deliveries", Keep: webhooks.DeliveryLogRetention, Every: time.Hour,
			Purger: webhooks.NewEntStore(d).DeliveryLog()},
		retention.Target{Name: "consent_flow", Keep: auth.FlowRetention, Every: time.Hour, Purger: auth.NewFlowEntStore(d.Ent)},
	)
	if err != nil {
		return nil, err
	}
	sealer, err := auth.NewSealer(s.SecretKey)
	if err != nil {
		return nil, err
	}
	store := webhooks.NewEntStore(d)
	svc, err := webhooks.NewService(webhooks.Config{Store: store, Sealer: sealer, Callbacks: callback.Policy{Allow: s.WebhookAllow}})
	if err != nil {
		return nil, err
	}
	if err := worker.Add[webhooks.DeliverArgs](jobs, webhooks.NewDeliverer(svc, store, events.NewEntStore(d), nil).WithMetrics(webhooks.NewMetrics(s.Metrics))); err != nil {
		return nil, err
	}
	// Events the worker records get their webhook deliveries in the
	// recording transaction, as core's do.
	inserter, err := worker.NewInserter(d)
	if err != nil {
		return nil, err
	}
	recorder := events.NewRecorder(events.NewEntStore(d), nil).WithDispatcher(webhooks.NewDispatcher(store, inserter, nil))
	if err := expiring.Register(jobs, expiring.NewEntStore(d), recorder, nil, log.Named(expiring.Kind)); err != nil {
		return nil, err
	}
	if s.SandboxReviewDelay > 0 {
		if err := registerAutoReview(jobs, d, recorder, log, s.SandboxReviewDelay); err != nil {
			return nil, err
		}
	}
	if s.WebhookConcurrency == 0 {
		s.WebhookConcurrency = webhooks.DefaultConcurrency
	}
	if err := jobs.AddQueue(webhooks.Queue, s.WebhookConcurrency); err != nil {
		return nil, err
	}
	return jobs, nil
}
