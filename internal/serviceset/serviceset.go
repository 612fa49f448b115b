// Package serviceset lists the platform's services once: how each is built
// and registered on core's gRPC server, and the routes it has on the
// gateway's partner port. Core (internal/platform) and the gateway both
// read this list, so a service added here is served by both and can be
// forgotten by neither.
package serviceset

import (
	"context"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"

	authv1 "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	payoutsv1 "github.com/mallplatform/partnerapi/gen/mp/payouts/v1"
	sandboxv1 "github.com/mallplatform/partnerapi/gen/mp/sandbox/v1"
	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
	uploadsv1 "github.com/mallplatform/partnerapi/gen/mp/uploads/v1"
	webhooksv1 "github.com/mallplatform/partnerapi/gen/mp/webhooks/v1"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/core"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/pagination"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/catalog"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/payouts"
	"github.com/mallplatform/partnerapi/services/sandbox"
	"github.com/mallplatform/partnerapi/services/shipping"
	"github.com/mallplatform/partnerapi/services/uploads"
	"github.com/mallplatform/partnerapi/services/webhooks"
)

// Parts are what services are built from on core.
type Parts struct {
	DB *db.DB
	// Auth is built first: core's interceptors verify seller tokens and
	// internal callers through it.
	Auth *auth.Service
	// Business is business time (deadlines, SLA flags, record timestamps).
	Business clock.Business
	// Cursors sign listing cursors with the key every replica shares.
	Cursors *pagination.Cursors
	// Events records state changes in the changes' transactions.
	Events *events.Recorder
	// Webhooks manages subscriptions (built with the secret key's sealer).
	Webhooks *webhooks.Service
	// Flow is the seller authorization flow.
	Flow *auth.Flow
	// Uploads stores product images; the catalog accepts its url prefix
	// in a product's images.
	Uploads *uploads.Service
	// Shipping holds the calendar in memory: the partner routes and the
	// operators' calendar edits share it, so a replica serves its own
	// edits at once.
	Shipping *shipping.Service
}

// orders is the orders service over p: the orders routes and the sandbox's
// order tools use the same one.
func (p Parts) orders() *orders.Service {
	return orders.NewService(orders.Config{Store: orders.NewEntStore(p.DB), Business: p.Business,
		Cursors: p.Cursors, Stock: p.catalog(), Events: p.Events})
}

// catalog is the catalog service over p: the catalog and inventory routes,
// the stock moves of orders, the internal review service and the sandbox's
// review tool use the same one.
func (p Parts) catalog() *catalog.Service {
	return catalog.NewService(catalog.Config{Store: catalog.NewEntStore(p.DB), Business: p.Business,
		Cursors: p.Cursors, Events: p.Events, Holds: orders.NewEntStore(p.DB), ImagePrefix: p.Uploads.ImagePrefix()})
}

// Service is one service of the platform.
type Service struct {
	// Name is the domain, for errors and logs.
	Name string
	// Core builds the service over parts and registers it on core.
	Core func(p Parts) core.Registrar
	// Gateway registers the service's routes on the partner port, calling
	// core over conn; nil for an internal service, which has none.
	Gateway func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error
}

// All is every service, in the order they register.
func All() []Service {
	return []Service{
		{
			// AuthService (usage) on the partner port; CredentialService,
			// registered beside it on core, is the gateway's own.
			Name: "auth",
			Core: func(p Parts) core.Registrar { return auth.NewServer(p.Auth).Register },
			Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
				return authv1.RegisterAuthServiceHandlerClient(ctx, mux, authv1.NewAuthServiceClient(conn))
			},
		},
		{
			// The seller authorization flow: the gateway's alone on core.
			Name: "authorization",
			Core: func(p Parts) core.Registrar { return auth.NewFlowServer(p.Flow).Register },
			Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
				return authv1.RegisterAuthorizationServiceHandlerClient(ctx, mux, authv1.NewAuthorizationServiceClient(conn))
			},
		},
		{
			Name: "catalog",
			Core: func(p Parts) core.Registrar {
				return catalog.NewServer(p.catalog()).Register
			},
			Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
				return catalogv1.RegisterCatalogServiceHandlerClient(ctx, mux, catalogv1.NewCatalogServiceClient(conn))
			},
		},
		{
			// Stock and price changes (the spec's Inventory group), over
			// the catalog's service.
			Name: "inventory",
			Core: func(p Parts) core.Registrar {
				return catalog.NewInventoryServer(p.catalog()).Register
			},
			Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
				return catalogv1.RegisterInventoryServiceHandlerClient(ctx, mux, catalogv1.NewInventoryServiceClient(conn))
			},
		},
		{
			// The trust and safety team's review steps: internal, no
			// routes on the partner port.
			Name: "review",
			Core: func(p Parts) core.Registrar { return catalog.NewReviewServer(p.catalog()).Register },
		},
		{
			Name: "orders",
			Core: func(p Parts) core.Registrar {
				return orders.NewServer(p.orders()).Register
			},
			Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
				return ordersv1.RegisterOrdersServiceHandlerClient(ctx, mux, ordersv1.NewOrdersServiceClient(conn))
			},
		},
		{
			Name: "events",
			Core: func(p Parts) core.Registrar {
				return events.NewServer(events.NewService(events.NewEntStore(p.DB), p.Cursors)).Register
			},
			Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
				return eventsv1.RegisterEventsServiceHandlerClient(ctx, mux, eventsv1.NewEventsServiceClient(conn))
			},
		},
		{
			Name: "webhooks",
			Core: func(p Parts) core.Registrar { return webhooks.NewServer(p.Webhooks).Register },
			Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
				return webhooksv1.RegisterWebhooksServiceHandlerClient(ctx, mux, webhooksv1.NewWebhooksServiceClient(conn))
			},
		},
		{
			Name: "sandbox",
			Core: func(p Parts) core.Registrar {
				return sandbox.NewServer(sandbox.Config{Business: p.Business, Orders: p.orders(), Catalog: catalog.NewEntStore(p.DB),
					Products: p.catalog()}).Register
			},
			Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
				return sandboxv1.RegisterSandboxServiceHandlerClient(ctx, mux, sandboxv1.NewSandboxServiceClient(conn))
			},
		},
		{
			Name: "uploads",
			Core: func(p Parts) core.Registrar { return uploads.NewServer(p.Uploads).Register },
			Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
				return uploadsv1.RegisterUploadServiceHandlerClient(ctx, mux, uploadsv1.NewUploadServiceClient(conn))
			},
		},
		{
			Name: "shipping",
			Core: func(p Parts) core.Registrar { return shipping.NewServer(p.Shipping).Register },
			Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
				return shippingv1.RegisterShippingServiceHandlerClient(ctx, mux, shippingv1.NewShippingServiceClient(conn))
			},
		},
		{
			// The operators' calendar edits: internal, no routes on the
			// partner port.
			Name: "calendar-admin",
			Core: func(p Parts) core.Registrar { return shipping.NewAdminServer(p.Shipping).Register },
		},
		{
			Name: "payouts",
			Core: func(Parts) core.Registrar { return (&payouts.Server{}).Register },
			Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
				return payoutsv1.RegisterPayoutsServiceHandlerClient(ctx, mux, payoutsv1.NewPayoutsServiceClient(conn))
			},
		},
	}
}
