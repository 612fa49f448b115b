package main

import (
	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/idempotency"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/internal/worker/idempotencypurge"
)

// workerJobs is every job kind the platform runs, for the worker role and
// the dev role alike. Webhook deliveries will join here.
func workerJobs(d *db.DB, log *zap.Logger) (*worker.Jobs, error) {
	jobs := worker.NewJobs()
	if err := idempotencypurge.Register(jobs, idempotency.NewEntStore(d.Ent), clock.System{}, log.Named("idempotency.purge")); err != nil {
		return nil, err
	}
	return jobs, nil
}
