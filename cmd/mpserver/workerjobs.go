package main

import (
	"time"

	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/idempotency"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/internal/worker/retention"
	"github.com/mallplatform/partnerapi/services/events"
)

// workerJobs is every job kind the platform runs, for the worker role and
// the dev role alike. Webhook deliveries will join here.
func workerJobs(d *db.DB, log *zap.Logger) (*worker.Jobs, error) {
	jobs := worker.NewJobs()
	err := retention.Register(jobs, clock.System{}, log.Named(retention.Kind),
		retention.Target{Name: "idempotency_keys", Keep: idempotency.Retention, Every: 10 * time.Minute,
			Purger: idempotency.NewEntStore(d.Ent)},
		retention.Target{Name: "events", Keep: events.Retention, Every: time.Hour, Purger: events.NewEntStore(d)},
	)
	if err != nil {
		return nil, err
	}
	return jobs, nil
}
