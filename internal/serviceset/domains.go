package serviceset

import (
	"context"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"

	authv1 "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	cancellationsv1 "github.com/mallplatform/partnerapi/gen/mp/cancellations/v1"
	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	developerv1 "github.com/mallplatform/partnerapi/gen/mp/developer/v1"
	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	payoutsv1 "github.com/mallplatform/partnerapi/gen/mp/payouts/v1"
	returnsv1 "github.com/mallplatform/partnerapi/gen/mp/returns/v1"
	sandboxv1 "github.com/mallplatform/partnerapi/gen/mp/sandbox/v1"
	sellersv1 "github.com/mallplatform/partnerapi/gen/mp/sellers/v1"
	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
	uploadsv1 "github.com/mallplatform/partnerapi/gen/mp/uploads/v1"
	webhooksv1 "github.com/mallplatform/partnerapi/gen/mp/webhooks/v1"
	"github.com/mallplatform/partnerapi/internal/core"
	"github.com/mallplatform/partnerapi/internal/deadline"
	"github.com/mallplatform/partnerapi/internal/idempotency"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/internal/worker/retention"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/auth/expiring"
	"github.com/mallplatform/partnerapi/services/catalog"
	"github.com/mallplatform/partnerapi/services/catalog/autoreview"
	"github.com/mallplatform/partnerapi/services/developer"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/maintenance"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/payouts"
	"github.com/mallplatform/partnerapi/services/returns"
	"github.com/mallplatform/partnerapi/services/returns/cancellation"
	"github.com/mallplatform/partnerapi/services/sandbox"
	"github.com/mallplatform/partnerapi/services/sandbox/faults"
	"github.com/mallplatform/partnerapi/services/sellers"
	"github.com/mallplatform/partnerapi/services/shipping"
	"github.com/mallplatform/partnerapi/services/uploads"
	"github.com/mallplatform/partnerapi/services/webhooks"
)

// Domains is every domain of the platform, in the order their services
// register. A new domain is one entry here.
func Domains() []Domain {
	return []Domain{
		{
			// The developer console: gRPC on core for the gateway alone;
			// its /console/v1 routes arrive with the gateway's console path.
			Name: "developer",
			Services: []Service{{
				Name: "developer",
				Core: func(p Parts) core.Registrar { return developer.NewServer(p.Developer).Register },
				Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
					return developerv1.RegisterDeveloperServiceHandlerClient(ctx, mux, developerv1.NewDeveloperServiceClient(conn))
				},
			}},
			Retention: func(p Parts) []retention.Target {
				return []retention.Target{{Name: "console_sessions_and_links", Keep: developer.Retention, Every: time.Hour,
					Purger: developer.NewEntStore(p.DB)}}
			},
		},
		{
			Name: "auth",
			Services: []Service{
				{
					// AuthService (usage) on the partner port;
					// CredentialService, registered beside it on core,
					// is the gateway's own.
					Name: "auth",
					Core: func(p Parts) core.Registrar { return auth.NewServer(p.Auth).Register },
					Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
						return authv1.RegisterAuthServiceHandlerClient(ctx, mux, authv1.NewAuthServiceClient(conn))
					},
				},
				{
					// The seller authorization flow: the gateway's alone on
					// core.
					Name: "authorization",
					Core: func(p Parts) core.Registrar { return auth.NewFlowServer(p.Flow).Register },
					Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
						return authv1.RegisterAuthorizationServiceHandlerClient(ctx, mux, authv1.NewAuthorizationServiceClient(conn))
					},
				},
			},
			// The notice of a grant's end, 7 days ahead.
			Jobs: func(p Parts, jobs *worker.Jobs) error {
				return expiring.Register(jobs, expiring.NewEntStore(p.DB), p.Events, p.Clock, p.Logger.Named(expiring.Kind))
			},
			Retention: func(p Parts) []retention.Target {
				return []retention.Target{{Name: "consent_flow", Keep: auth.FlowRetention, Every: time.Hour,
					Purger: auth.NewFlowEntStore(p.DB.Ent)}}
			},
			Events: []events.Type{eventsv1.EventType_EVENT_TYPE_AUTHORIZATION_GRANTED,
				eventsv1.EventType_EVENT_TYPE_AUTHORIZATION_REVOKED, eventsv1.EventType_EVENT_TYPE_AUTHORIZATION_EXPIRING},
		},
		{
			Name: "catalog",
			Services: []Service{
				{
					Name: "catalog",
					Core: func(p Parts) core.Registrar { return catalog.NewServer(p.Catalog).Register },
					Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
						return catalogv1.RegisterCatalogServiceHandlerClient(ctx, mux, catalogv1.NewCatalogServiceClient(conn))
					},
				},
				{
					// Stock and price changes (the spec's Inventory group),
					// over the catalog's service.
					Name: "inventory",
					Core: func(p Parts) core.Registrar { return catalog.NewInventoryServer(p.Catalog).Register },
					Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
						return catalogv1.RegisterInventoryServiceHandlerClient(ctx, mux, catalogv1.NewInventoryServiceClient(conn))
					},
				},
				{
					// The trust and safety team's review steps: internal,
					// no routes on the partner port.
					Name: "review",
					Core: func(p Parts) core.Registrar { return catalog.NewReviewServer(p.Catalog).Register },
				},
			},
			// The sandbox's automatic review, when the process turns it on.
			Jobs: func(p Parts, jobs *worker.Jobs) error {
				if p.Worker.SandboxReviewDelay <= 0 {
					return nil
				}
				return autoreview.Register(jobs, autoreview.Config{Delay: p.Worker.SandboxReviewDelay,
					Candidates: catalog.NewEntStore(p.DB), Approver: p.Catalog, Business: p.Business,
					Logger: p.Logger.Named(autoreview.Kind)})
			},
			Events: []events.Type{eventsv1.EventType_EVENT_TYPE_PRODUCT_CREATED, eventsv1.EventType_EVENT_TYPE_PRODUCT_UPDATED,
				eventsv1.EventType_EVENT_TYPE_PRODUCT_STATUS_CHANGED, eventsv1.EventType_EVENT_TYPE_INVENTORY_UPDATED},
		},
		{
			Name: "orders",
			Services: []Service{{
				Name: "orders",
				Core: func(p Parts) core.Registrar { return orders.NewServer(p.Orders).Register },
				Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
					return ordersv1.RegisterOrdersServiceHandlerClient(ctx, mux, ordersv1.NewOrdersServiceClient(conn))
				},
			}},
			Events: []events.Type{eventsv1.EventType_EVENT_TYPE_ORDER_CREATED, eventsv1.EventType_EVENT_TYPE_ORDER_PAID,
				eventsv1.EventType_EVENT_TYPE_ORDER_READY_TO_SHIP, eventsv1.EventType_EVENT_TYPE_ORDER_SHIPPED,
				eventsv1.EventType_EVENT_TYPE_ORDER_DELIVERED, eventsv1.EventType_EVENT_TYPE_ORDER_CANCELLED,
				eventsv1.EventType_EVENT_TYPE_ORDER_RETURN_REFUND},
		},
		{
			// The outbox's feed; the outbox itself is Parts.Events.
			Name: "events",
			Services: []Service{{
				Name: "events",
				Core: func(p Parts) core.Registrar {
					return events.NewServer(events.NewService(events.NewEntStore(p.DB), p.Cursors)).Register
				},
				Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
					return eventsv1.RegisterEventsServiceHandlerClient(ctx, mux, eventsv1.NewEventsServiceClient(conn))
				},
			}},
			Retention: func(p Parts) []retention.Target {
				return []retention.Target{{Name: "events", Keep: events.Retention, Every: time.Hour, Purger: events.NewEntStore(p.DB)}}
			},
		},
		{
			Name: "webhooks",
			Services: []Service{{
				Name: "webhooks",
				Core: func(p Parts) core.Registrar { return webhooks.NewServer(p.Webhooks).Register },
				Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
					return webhooksv1.RegisterWebhooksServiceHandlerClient(ctx, mux, webhooksv1.NewWebhooksServiceClient(conn))
				},
			}},
			Jobs: webhookJobs,
			Retention: func(p Parts) []retention.Target {
				return []retention.Target{{Name: "webhook_deliveries", Keep: webhooks.DeliveryLogRetention, Every: time.Hour,
					Purger: webhooks.NewEntStore(p.DB).DeliveryLog()}}
			},
		},
		{
			// Shops' profiles and pickup addresses.
			Name: "sellers",
			Services: []Service{{
				Name: "sellers",
				Core: func(p Parts) core.Registrar { return sellers.NewServer(p.Sellers).Register },
				Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
					return sellersv1.RegisterSellersServiceHandlerClient(ctx, mux, sellersv1.NewSellersServiceClient(conn))
				},
			}},
		},
		{
			Name: "shipping",
			Services: []Service{
				{
					Name: "shipping",
					Core: func(p Parts) core.Registrar { return shipping.NewServer(p.Shipping).Register },
					Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
						return shippingv1.RegisterShippingServiceHandlerClient(ctx, mux, shippingv1.NewShippingServiceClient(conn))
					},
				},
				{
					// The shipping labels of booked orders.
					Name: "labels",
					Core: func(p Parts) core.Registrar { return shipping.NewLabelServer(p.Shipping).Register },
					Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
						return shippingv1.RegisterLabelServiceHandlerClient(ctx, mux, shippingv1.NewLabelServiceClient(conn))
					},
				},
				{
					// The operators' calendar edits: internal, no routes
					// on the partner port.
					Name: "calendar-admin",
					Core: func(p Parts) core.Registrar { return shipping.NewAdminServer(p.Shipping).Register },
				},
				{
					// Couriers' tracking updates (a courier adapter's
					// webhook): internal, no routes on the partner port.
					Name: "carrier-push",
					Core: func(p Parts) core.Registrar { return shipping.NewPushServer(tracker(p)).Register },
				},
			},
			Events: []events.Type{eventsv1.EventType_EVENT_TYPE_SHIPMENT_BOOKED,
				eventsv1.EventType_EVENT_TYPE_SHIPMENT_TRACKING_UPDATED, eventsv1.EventType_EVENT_TYPE_SHIPMENT_CANCELLED},
		},
		{
			// Buyers' returns of delivered orders, their deadlines and
			// disputes (services/returns).
			Name: "returns",
			Services: []Service{
				{
					Name: "returns",
					Core: func(p Parts) core.Registrar { return returns.NewServer(p.Returns).Register },
					Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
						return returnsv1.RegisterReturnsServiceHandlerClient(ctx, mux, returnsv1.NewReturnsServiceClient(conn))
					},
				},
				{
					// The sandbox's buyer and platform moves on test
					// returns.
					Name: "returns-sandbox",
					Core: func(p Parts) core.Registrar { return returns.NewSandboxServer(p.Returns).Register },
					Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
						return returnsv1.RegisterReturnsSandboxServiceHandlerClient(ctx, mux, returnsv1.NewReturnsSandboxServiceClient(conn))
					},
				},
				{
					// The platform's decision of disputes: internal, no
					// routes on the partner port.
					Name: "return-decisions",
					Core: func(p Parts) core.Registrar { return returns.NewDecisionServer(p.Returns).Register },
				},
			},
			// The deadline sweep: the automatic moves of returns nobody
			// reads.
			Jobs: func(p Parts, jobs *worker.Jobs) error {
				return returns.RegisterDeadlines(jobs, p.Returns.Subject(), deadline.JobConfig{Business: p.Business,
					Shops: deadline.NewEntShops(p.DB.Ent), Logger: p.Logger.Named(returns.DeadlineKind)})
			},
			Events: []events.Type{eventsv1.EventType_EVENT_TYPE_RETURN_REQUESTED, eventsv1.EventType_EVENT_TYPE_RETURN_APPROVED,
				eventsv1.EventType_EVENT_TYPE_RETURN_REJECTED, eventsv1.EventType_EVENT_TYPE_RETURN_BUYER_SHIPPED,
				eventsv1.EventType_EVENT_TYPE_RETURN_RECEIVED, eventsv1.EventType_EVENT_TYPE_RETURN_REFUNDED,
				eventsv1.EventType_EVENT_TYPE_RETURN_DISPUTED, eventsv1.EventType_EVENT_TYPE_RETURN_CLOSED,
				eventsv1.EventType_EVENT_TYPE_RETURN_CANCELLED},
		},
		{
			// Buyers' requests to cancel an order before it ships
			// (services/returns/cancellation).
			Name: "cancellations",
			Services: []Service{
				{
					Name: "cancellations",
					Core: func(p Parts) core.Registrar { return cancellation.NewServer(p.Cancellations).Register },
					Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
						return cancellationsv1.RegisterCancellationServiceHandlerClient(ctx, mux, cancellationsv1.NewCancellationServiceClient(conn))
					},
				},
				{
					// The buyer's side, for test shops (sandbox routes).
					Name: "cancellations-sandbox",
					Core: func(p Parts) core.Registrar { return cancellation.NewSandboxServer(p.Cancellations).Register },
					Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
						return cancellationsv1.RegisterCancellationSandboxServiceHandlerClient(ctx, mux,
							cancellationsv1.NewCancellationSandboxServiceClient(conn))
					},
				},
			},
			// The automatic approval of requests unanswered at respondBy.
			Jobs: func(p Parts, jobs *worker.Jobs) error {
				return cancellation.RegisterDeadlines(jobs, p.Cancellations.Subject(), deadline.JobConfig{Business: p.Business,
					Shops: deadline.NewEntShops(p.DB.Ent), Logger: p.Logger.Named(cancellation.DeadlineKind)})
			},
			Events: []events.Type{eventsv1.EventType_EVENT_TYPE_CANCELLATION_REQUESTED,
				eventsv1.EventType_EVENT_TYPE_CANCELLATION_APPROVED, eventsv1.EventType_EVENT_TYPE_CANCELLATION_REJECTED,
				eventsv1.EventType_EVENT_TYPE_CANCELLATION_AUTO_APPROVED},
		},
		{
			Name: "sandbox",
			Services: []Service{{
				Name: "sandbox",
				Core: func(p Parts) core.Registrar {
					return sandbox.NewServer(sandbox.Config{Business: p.Business, Orders: p.Orders, Catalog: catalog.NewEntStore(p.DB),
						Products: p.Catalog, Parcels: tracker(p),
						Faults: faults.NewStore(p.DB)}).Register
				},
				Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
					return sandboxv1.RegisterSandboxServiceHandlerClient(ctx, mux, sandboxv1.NewSandboxServiceClient(conn))
				},
			}},
		},
		{
			Name: "uploads",
			Services: []Service{{
				Name: "uploads",
				Core: func(p Parts) core.Registrar { return uploads.NewServer(p.Uploads).Register },
				Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
					return uploadsv1.RegisterUploadServiceHandlerClient(ctx, mux, uploadsv1.NewUploadServiceClient(conn))
				},
			}},
		},
		{
			Name: "payouts",
			Services: []Service{{
				Name: "payouts",
				Core: func(Parts) core.Registrar { return (&payouts.Server{}).Register },
				Gateway: func(ctx context.Context, mux *runtime.ServeMux, conn *grpc.ClientConn) error {
					return payoutsv1.RegisterPayoutsServiceHandlerClient(ctx, mux, payoutsv1.NewPayoutsServiceClient(conn))
				},
			}},
		},
		{
			// An environment's maintenance switch: the operators' admin
			// service and the gateway's read of it, both internal (no
			// routes on the partner port).
			Name: "maintenance",
			Services: []Service{
				{
					Name: "maintenance-admin",
					Core: func(p Parts) core.Registrar { return maintenance.NewAdminServer(maintenanceService(p)).Register },
				},
				{
					Name: "maintenance",
					Core: func(p Parts) core.Registrar { return maintenance.NewServer(maintenanceService(p)).Register },
				},
			},
		},
		{
			// The keys of idempotent writes (core's guard on every domain's
			// POSTs): no service of its own.
			Name: "idempotency",
			Retention: func(p Parts) []retention.Target {
				return []retention.Target{{Name: "idempotency_keys", Keep: idempotency.Retention, Every: 10 * time.Minute,
					Purger: idempotency.NewEntStore(p.DB.Ent)}}
			},
		},
	}
}

// maintenanceService is the maintenance switch over parts' database.
func maintenanceService(p Parts) *maintenance.Service {
	svc, err := maintenance.New(maintenance.Config{Store: maintenance.NewEntStore(p.DB), Clock: p.Clock})
	if err != nil {
		panic(err) // the store is set: Validate cannot fail
	}
	return svc
}
