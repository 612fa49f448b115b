package platform

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/serviceset"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/catalog"
	"github.com/mallplatform/partnerapi/services/developer"
	"github.com/mallplatform/partnerapi/services/developer/mail"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/returns"
	"github.com/mallplatform/partnerapi/services/returns/cancellation"
	"github.com/mallplatform/partnerapi/services/sandbox/faults"
	"github.com/mallplatform/partnerapi/services/sandbox/sandboxseed"
	"github.com/mallplatform/partnerapi/services/sandbox/shopclock"
	"github.com/mallplatform/partnerapi/services/sellers"
	"github.com/mallplatform/partnerapi/services/shipping"
	"github.com/mallplatform/partnerapi/services/shipping/carrier/simulated"
	"github.com/mallplatform/partnerapi/services/shipping/channels"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
	"github.com/mallplatform/partnerapi/services/uploads"
	"github.com/mallplatform/partnerapi/services/webhooks"
	"github.com/mallplatform/partnerapi/services/webhooks/callback"
)

// PartsConfig configures the parts every domain is built from.
type PartsConfig struct {
	DB *db.DB
	// SecretKey is the base64 AES-256 key app and webhook secrets are
	// sealed with; listing cursors are signed with a key derived from it.
	SecretKey string
	// SecretRotationOverlap is how long a partner's rotated-out secret keeps
	// verifying (0: auth.DefaultRotationOverlap).
	SecretRotationOverlap time.Duration
	// PasswordCost is the cost of new seller and console developer password
	// hashes (zero: the production cost).
	PasswordCost auth.PasswordCost
	// Clock is security time (default the wall clock).
	Clock clock.Clock
	// Business is business time (default: each sandbox test shop's own
	// clock, the wall clock for every other seller).
	Business clock.Business
	Logger   *zap.Logger
	// Callbacks is the webhook callback URL policy, at subscription and at
	// delivery.
	Callbacks callback.Policy
	// OTPSender delivers sellers' one-time codes (nil: only test shops'
	// fixed sandbox codes work).
	OTPSender auth.OTPSender
	// Uploads is where product images are stored (no bucket: uploads
	// answer 503 UPLOAD_NOT_CONFIGURED).
	Uploads uploads.Config
	// CalendarPoll is how often a replica checks the shipping calendar's
	// version for operators' edits (0: shipping.DefaultPollInterval).
	CalendarPoll time.Duration
	// Worker tunes the domains' jobs in a process that runs them.
	Worker serviceset.WorkerSettings
	// ConsoleMail sends the developer console's links (nil: none are sent;
	// a partner cannot verify an address).
	ConsoleMail mail.Sender
	// ConsoleURL is the console pages' absolute address, ending in "/",
	// that e-mailed links point at (default DefaultConsoleURL).
	ConsoleURL string
	// ConsoleLimits are the apps each developer account may have (zero
	// fields: developer.DefaultSandboxApps, developer.DefaultLiveApps).
	ConsoleLimits developer.Limits
}

// DefaultConsoleURL is the console's address when none is configured: the
// gateway's default listener.
const DefaultConsoleURL = "http://127.0.0.1:8080/console/"

// NewParts builds the parts once for the process: the event recorder (with
// the webhook dispatcher, so every recorded event gets its deliveries in the
// recording transaction), the webhooks service, the auth service and flow,
// the business clock, the cursor key and the uploads. Core, the worker and
// dev's single process hand the same parts to every domain.
func NewParts(cfg PartsConfig) (serviceset.Parts, error) {
	if cfg.DB == nil {
		return serviceset.Parts{}, errors.New("platform: a database is required")
	}
	if cfg.SecretKey == "" {
		return serviceset.Parts{}, errors.New("platform: the secret encryption key is required")
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	if cfg.Business == nil {
		// Each test shop's clock, persisted on the shop; the wall clock
		// for every other seller.
		shops, err := shopclock.New(shopclock.Config{Wall: cfg.Clock, Store: shopclock.NewEntStore(cfg.DB.Ent), Logger: cfg.Logger})
		if err != nil {
			return serviceset.Parts{}, err
		}
		cfg.Business = shops
	}
	sealer, err := auth.NewSealer(cfg.SecretKey)
	if err != nil {
		return serviceset.Parts{}, err
	}
	authSvc, err := auth.NewService(auth.Config{Store: auth.NewEntStore(cfg.DB.Ent), Sealer: sealer, Clock: cfg.Clock, RotationOverlap: cfg.SecretRotationOverlap,
		PasswordCost: cfg.PasswordCost})
	if err != nil {
		return serviceset.Parts{}, err
	}
	cursors, err := cursorsFromSecret(cfg.SecretKey)
	if err != nil {
		return serviceset.Parts{}, err
	}
	// Every recorded event gets its webhook delivery jobs in the recording
	// transaction; redeliveries, replays and tests queue theirs the same way.
	jobs, err := worker.NewInserter(cfg.DB)
	if err != nil {
		return serviceset.Parts{}, err
	}
	hooks, err := webhooks.NewService(webhooks.Config{Store: webhooks.NewEntStore(cfg.DB), Sealer: sealer,
		Callbacks: cfg.Callbacks, Clock: cfg.Clock, Jobs: jobs})
	if err != nil {
		return serviceset.Parts{}, err
	}
	recorder := events.NewRecorder(events.NewEntStore(cfg.DB), cfg.Clock).
		WithDispatcher(webhooks.NewDispatcher(webhooks.NewEntStore(cfg.DB), jobs, cfg.Clock))
	flow, err := auth.NewFlow(auth.FlowConfig{Store: auth.NewFlowEntStore(cfg.DB.Ent), Sealer: sealer,
		Events: auth.RecordedGrantEvents{Recorder: recorder}, Sender: cfg.OTPSender, Tokens: authSvc, Clock: cfg.Clock})
	if err != nil {
		return serviceset.Parts{}, err
	}
	if cfg.Uploads.Logger == nil {
		cfg.Uploads.Logger = cfg.Logger
	}
	images, err := uploads.NewService(cfg.Uploads)
	if err != nil {
		return serviceset.Parts{}, err
	}
	shops := sellers.NewService(sellers.Config{Store: sellers.NewEntStore(cfg.DB), Business: cfg.Business})
	products := catalog.NewService(catalog.Config{Store: catalog.NewEntStore(cfg.DB), Business: cfg.Business,
		Cursors: cursors, Events: recorder, Holds: orders.NewEntStore(cfg.DB), ImagePrefix: images.ImagePrefix()})
	orderSvc := orders.NewService(orders.Config{Store: orders.NewEntStore(cfg.DB), Business: cfg.Business,
		Cursors: cursors, Stock: products, Events: recorder})
	// The platform's own logistics network, simulated until its adapter
	// lands; a courier's adapter is a package beside simulated.
	// Its sandbox fault queue is a table: core's replicas share it.
	courier := simulated.New(simulated.Options{Faults: faults.NewStore(cfg.DB).Carrier()})
	shippingSvc := shipping.NewService(shipping.Config{Store: shipping.NewEntStore(cfg.DB),
		Channels: channels.NewEntStore(cfg.DB), Sellers: shops, PollInterval: cfg.CalendarPoll,
		Orders: orderSvc, OrderBooking: orderSvc, Events: recorder,
		Shipments: shipments.NewEntStore(cfg.DB), Carrier: courier, CarrierName: simulated.Name,
		Business: cfg.Business})
	// Cancellations void bookings through shipping; orders declares the
	// interface, so neither package imports the other's internals.
	orderSvc.UseBookings(shippingSvc.OrderBookings())
	// Buyers' cancellation requests cancel orders through the orders
	// service, and the order reads show them; orders declares the read
	// port, so it never imports the cancellations domain.
	cancellations, err := cancellation.NewService(cancellation.Config{Store: cancellation.NewEntStore(cfg.DB), Orders: orderSvc,
		Events: recorder, Business: cfg.Business, Cursors: cursors,
		InTx: func(ctx context.Context, fn func(ctx context.Context) error) error {
			return db.InTx(ctx, cfg.DB.Ent, fn)
		}})
	if err != nil {
		return serviceset.Parts{}, err
	}
	orderSvc.UseCancellationRequests(cancellations.OrderRequests())
	// Returns refund through the ledger and move orders through the orders
	// service's Refund step; their sandbox faults share the carrier's table.
	returnSvc, err := returns.New(returns.Config{Store: returns.NewEntStore(cfg.DB), Ledger: returns.NewEntLedger(cfg.DB),
		InTx: func(ctx context.Context, fn func(ctx context.Context) error) error {
			return db.InTx(ctx, cfg.DB.Ent, fn)
		},
		Business: cfg.Business, Cursors: cursors, Events: recorder, Orders: orderSvc, Faults: faults.NewStore(cfg.DB)})
	if err != nil {
		return serviceset.Parts{}, err
	}
	if cfg.ConsoleURL == "" {
		cfg.ConsoleURL = DefaultConsoleURL
	}
	console, err := developer.NewService(developer.Config{Store: developer.NewEntStore(cfg.DB), Clock: cfg.Clock,
		Business: cfg.Business, Mail: cfg.ConsoleMail, ConsoleURL: cfg.ConsoleURL, Logger: cfg.Logger.Named("developer"), Apps: authSvc,
		Limits: cfg.ConsoleLimits, ShopMaker: testShopMaker(cfg.DB, authSvc, cfg.Clock), PasswordCost: cfg.PasswordCost})
	if err != nil {
		return serviceset.Parts{}, err
	}
	return serviceset.Parts{DB: cfg.DB, Logger: cfg.Logger, Clock: cfg.Clock, Auth: authSvc, Business: cfg.Business,
		Cursors: cursors, Events: recorder, Webhooks: hooks, Flow: flow, Uploads: images, Worker: cfg.Worker,
		Sellers: shops, Catalog: products, Orders: orderSvc, Shipping: shippingSvc,
		Cancellations: cancellations, Returns: returnSvc, Developer: console}, nil
}

// testShopMaker makes the console's test shops with the sandbox seed's own
// steps, each with generated data of its own.
func testShopMaker(d *db.DB, authSvc *auth.Service, clk clock.Clock) developer.ShopMaker {
	return developer.ShopMakerFunc(func(ctx context.Context, in developer.ShopRequest) (developer.MadeShop, error) {
		shop, err := sandboxseed.NewTestShop(ctx, sandboxseed.Deps{DB: d, Auth: authSvc, Clock: clk, Seed: rand.Uint64()},
			sandboxseed.ShopSpec{Name: in.OwnerName, ShopName: in.ShopName, Username: in.Username, Mobile: in.Destination})
		if err != nil {
			return developer.MadeShop{}, err
		}
		return developer.MadeShop{SellerID: shop.SellerID, Username: shop.Login.Username, Password: shop.Login.Password,
			OTP: shop.Login.OTP}, nil
	})
}

// WorkerJobs is every domain's jobs over parts, for the worker role and
// dev's worker alike.
func WorkerJobs(parts serviceset.Parts) (*worker.Jobs, error) {
	return serviceset.Jobs(parts, serviceset.Domains())
}
