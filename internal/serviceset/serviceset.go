// Package serviceset declares the platform's domains once: each domain's
// gRPC services on core and their routes on the gateway's partner port, its
// worker jobs, its tables under retention and the event types it records.
// Core, the worker, dev (all of them in one process) and the gateway build
// from this one list (Domains), so a domain added here is served, run and
// purged by every tier and can be forgotten by none. Adding a domain is its
// folder under services/ and one entry in domains.go.
package serviceset

import (
	"context"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"google.golang.org/grpc"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/core"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/pagination"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/internal/worker/retention"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/catalog"
	"github.com/mallplatform/partnerapi/services/developer"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/returns"
	"github.com/mallplatform/partnerapi/services/returns/cancellation"
	"github.com/mallplatform/partnerapi/services/sellers"
	"github.com/mallplatform/partnerapi/services/shipping"
	"github.com/mallplatform/partnerapi/services/uploads"
	"github.com/mallplatform/partnerapi/services/webhooks"
)

// Parts are what domains are built from: built once per process
// (platform.NewParts) and handed to every domain, so one process has one
// event recorder, one webhooks service, one business clock.
type Parts struct {
	DB     *db.DB
	Logger *zap.Logger
	// Clock is security time (expiry, caches, retention ages).
	Clock clock.Clock
	// Auth is built first: core's interceptors verify seller tokens and
	// internal callers through it.
	Auth *auth.Service
	// Business is business time (deadlines, SLA flags, record timestamps).
	Business clock.Business
	// Cursors sign listing cursors with the key every replica shares.
	Cursors *pagination.Cursors
	// Events records state changes in the changes' transactions, with
	// their webhook deliveries queued in the same transaction.
	Events *events.Recorder
	// Webhooks manages subscriptions (built with the secret key's sealer)
	// and signs deliveries.
	Webhooks *webhooks.Service
	// Flow is the seller authorization flow.
	Flow *auth.Flow
	// Uploads stores product images; the catalog accepts its url prefix
	// in a product's images.
	Uploads *uploads.Service
	// Sellers is the shops' profiles and pickup addresses: the sellers
	// route and, in process, the domains that need a shop's pickup address.
	Sellers *sellers.Service
	// Catalog is the catalog service: the catalog and inventory routes,
	// the stock moves of orders, the internal review service, the
	// sandbox's review tool and its automatic review use the same one.
	Catalog *catalog.Service
	// Orders is the orders service: the orders routes, the sandbox's order
	// tools and the named steps other domains move an order through
	// (shipping books, ships and delivers) use the same one.
	Orders *orders.Service
	// Shipping holds the calendar in memory: the partner routes and the
	// operators' calendar edits share it, so a replica serves its own
	// edits at once.
	Shipping *shipping.Service
	// Cancellations is buyers' cancellation requests: their routes, the
	// sandbox's buyer, the order reads (through orders.UseCancellationRequests)
	// and the deadline job share it.
	Cancellations *cancellation.Service
	// Returns is buyers' returns: the seller routes, the sandbox's buyer
	// and platform moves, the platform's decisions and the deadline sweep
	// share it.
	Returns *returns.Service
	// Developer is the developer console's core.
	Developer *developer.Service
	// Worker tunes the jobs of the worker role (and of dev's worker); core
	// does not read it.
	Worker WorkerSettings
}

// WorkerSettings are the worker role's settings of domains' jobs.
type WorkerSettings struct {
	// WebhookConcurrency is how many deliveries run at once in the process
	// (0: webhooks.DefaultConcurrency).
	WebhookConcurrency int
	// Metrics receives the jobs' metrics (nil: not exported).
	Metrics prometheus.Registerer
	// SandboxReviewDelay, when positive, approves test shops' proposed
	// products that old on their business clock (MP_SANDBOX_REVIEW_DELAY,
	// dev only).
	SandboxReviewDelay time.Duration
}

// Domain is one domain of the platform, declared once.
type Domain struct {
	// Name names the domain in errors and logs.
	Name string
	// Services are its gRPC services, in the order they register on core.
	Services []Service
	// Jobs registers its worker jobs (nil: none).
	Jobs func(p Parts, jobs *worker.Jobs) error
	// Retention is its tables purged by the worker's retention job (nil:
	// none).
	Retention func(p Parts) []retention.Target
	// Events are the event types it records. Each declares its readers on
	// its enum value ((mp.options.v1.event)), and every type of the
	// catalogue belongs to exactly one domain (Check).
	Events []events.Type
}

// Service is one gRPC service of a domain.
type Service struct {
	// Name names the service in errors and logs.
	Name string
	// Core builds the service over parts and registers it on core.
	Core func(p Parts) core.Registrar
	// Gateway registers the service's routes on the partner port, calling
	// core over conn; nil for an internal service, which has none.
	Gateway func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error
}

// All is every service of every domain, in the order they register: the
// gateway's routes.
func All() []Service {
	var out []Service
	for _, d := range Domains() {
		out = append(out, d.Services...)
	}
	return out
}
