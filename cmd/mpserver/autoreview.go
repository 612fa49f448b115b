package main

import (
	"time"

	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/services/catalog"
	"github.com/mallplatform/partnerapi/services/catalog/autoreview"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/sandbox/shopclock"
)

// registerAutoReview adds the sandbox's automatic review: the catalog
// service it approves through records its events with the worker's
// recorder (webhook deliveries in the same transaction), and reads each
// test shop's business clock as core does.
func registerAutoReview(jobs *worker.Jobs, d *db.DB, recorder *events.Recorder, log *zap.Logger, delay time.Duration) error {
	shops, err := shopclock.New(shopclock.Config{Wall: clock.System{}, Store: shopclock.NewEntStore(d.Ent), Logger: log})
	if err != nil {
		return err
	}
	store := catalog.NewEntStore(d)
	svc := catalog.NewService(catalog.Config{Store: store, Business: shops, Events: recorder, Holds: orders.NewEntStore(d)})
	return autoreview.Register(jobs, autoreview.Config{Delay: delay, Candidates: store, Approver: svc, Business: shops,
		Logger: log.Named(autoreview.Kind)})
}
