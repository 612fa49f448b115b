// Package platform assembles the tiers from their parts: the core server with
// every service over one database, the connection from the gateway to core,
// and the HTTP servers' shared plumbing. cmd/mpserver and the end-to-end
// tests build the platform through it, so both run the same wiring.
package platform

import (
	"context"
	"crypto/tls"
	"errors"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/core"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/idempotency"
	"github.com/mallplatform/partnerapi/internal/serviceset"
	"github.com/mallplatform/partnerapi/internal/telemetry"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/sandbox/shopclock"
	"github.com/mallplatform/partnerapi/services/shipping"
	"github.com/mallplatform/partnerapi/services/uploads"
	"github.com/mallplatform/partnerapi/services/webhooks"
	"github.com/mallplatform/partnerapi/services/webhooks/callback"
)

// CoreConfig configures the core tier.
type CoreConfig struct {
	DB *db.DB
	// GatewayToken is the gateway's credential on core's port; internal
	// callers have tokens of their own (mpserver admin create-internal-caller).
	GatewayToken string
	// TLS is core's listener configuration (tlsfiles.Server); nil is
	// plaintext.
	TLS *tls.Config
	// GatewayCertName, with mutual TLS, is the name the gateway's client
	// certificate must carry for its token to count.
	GatewayCertName string
	// SecretKey is the base64 AES-256 key app secrets are sealed with.
	SecretKey string
	// SecretRotationOverlap is how long a partner's rotated-out secret keeps
	// verifying (MP_SECRET_ROTATION_OVERLAP; 0: auth.DefaultRotationOverlap).
	SecretRotationOverlap time.Duration
	// CalendarPoll is how often a replica checks the shipping calendar's
	// version for operators' edits (0: shipping.DefaultPollInterval).
	CalendarPoll time.Duration
	// Clock is security time: token and secret expiry, caches (default
	// the wall clock).
	Clock clock.Clock
	// Business is business time: deadlines, SLA flags, the timestamps of
	// domain records (default: each sandbox test shop's own clock, the
	// wall clock for every other seller).
	Business clock.Business
	Logger   *zap.Logger
	Metrics  *core.Metrics
	// Tracing puts every RPC in a span (nil: off); the database's query
	// tracer is set where it is opened (db.Config.QueryTracer).
	Tracing *telemetry.Tracing
	// ServerOptions are added to core's gRPC server (its standard RPC
	// metrics).
	ServerOptions []grpc.ServerOption
	// Callbacks is the webhook callback URL policy (MP_WEBHOOK_ALLOW_CIDRS,
	// and the resolver in tests); plain http follows each app's environment.
	Callbacks callback.Policy
	// OTPSender delivers sellers' one-time codes (nil: only test shops'
	// fixed sandbox codes work; other sign-ins answer 503).
	OTPSender auth.OTPSender
	// Uploads is where product images are stored and the url prefix they
	// are served at (MP_UPLOAD_BUCKET, MP_UPLOAD_PUBLIC_URL); no bucket:
	// the upload route answers 503 UPLOAD_NOT_CONFIGURED.
	Uploads uploads.Config
}

// Validate reports missing parts.
func (c CoreConfig) Validate() error {
	if c.DB == nil {
		return errors.New("platform: a database is required")
	}
	if c.SecretKey == "" {
		return errors.New("platform: the secret encryption key is required")
	}
	return nil
}

// Core is the assembled core tier.
type Core struct {
	Server *core.Server
	Auth   *auth.Service
	// Idempotency guards idempotent writes; the worker role purges its
	// keys (Idempotency.Purge).
	Idempotency *idempotency.Guard
}

// NewCore wires every service over cfg.DB into core's gRPC server.
func NewCore(cfg CoreConfig) (*Core, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	if cfg.Business == nil {
		// Each test shop's clock, persisted on the shop; the wall clock
		// for every other seller.
		shops, err := shopclock.New(shopclock.Config{Wall: cfg.Clock, Store: shopclock.NewEntStore(cfg.DB.Ent), Logger: cfg.Logger})
		if err != nil {
			return nil, err
		}
		cfg.Business = shops
	}
	sealer, err := auth.NewSealer(cfg.SecretKey)
	if err != nil {
		return nil, err
	}
	authSvc, err := auth.NewService(auth.Config{Store: auth.NewEntStore(cfg.DB.Ent), Sealer: sealer, Clock: cfg.Clock, RotationOverlap: cfg.SecretRotationOverlap})
	if err != nil {
		return nil, err
	}
	cursors, err := cursorsFromSecret(cfg.SecretKey)
	if err != nil {
		return nil, err
	}
	// Every recorded event gets its webhook delivery jobs in the recording
	// transaction; redeliveries, replays and tests queue theirs the same way.
	jobs, err := worker.NewInserter(cfg.DB)
	if err != nil {
		return nil, err
	}
	hooks, err := webhooks.NewService(webhooks.Config{Store: webhooks.NewEntStore(cfg.DB), Sealer: sealer,
		Callbacks: cfg.Callbacks, Clock: cfg.Clock, Jobs: jobs})
	if err != nil {
		return nil, err
	}
	recorder := events.NewRecorder(events.NewEntStore(cfg.DB), cfg.Clock).
		WithDispatcher(webhooks.NewDispatcher(webhooks.NewEntStore(cfg.DB), jobs, cfg.Clock))
	flow, err := auth.NewFlow(auth.FlowConfig{Store: auth.NewFlowEntStore(cfg.DB.Ent), Sealer: sealer,
		Events: auth.RecordedGrantEvents{Recorder: recorder}, Sender: cfg.OTPSender, Tokens: authSvc, Clock: cfg.Clock})
	if err != nil {
		return nil, err
	}
	if cfg.Uploads.Logger == nil {
		cfg.Uploads.Logger = cfg.Logger
	}
	images, err := uploads.NewService(cfg.Uploads)
	if err != nil {
		return nil, err
	}
	parts := serviceset.Parts{DB: cfg.DB, Auth: authSvc, Business: cfg.Business, Cursors: cursors,
		Events: recorder, Webhooks: hooks, Flow: flow, Uploads: images,
		Shipping: shipping.NewService(shipping.Config{Store: shipping.NewEntStore(cfg.DB), PollInterval: cfg.CalendarPoll})}
	guard, err := idempotency.New(idempotency.Config{Store: idempotency.NewEntStore(cfg.DB.Ent), Clock: cfg.Clock})
	if err != nil {
		return nil, err
	}
	var registrars []core.Registrar
	for _, svc := range serviceset.All() {
		registrars = append(registrars, svc.Core(parts))
	}
	srv, err := core.New(core.Config{
		GatewayToken:    cfg.GatewayToken,
		InternalCallers: internalCallers(authSvc),
		TLS:             cfg.TLS,
		GatewayCertName: cfg.GatewayCertName,
		Logger:          cfg.Logger,
		Metrics:         cfg.Metrics,
		Sellers:         authSvc,
		Ready:           DatabaseReady(cfg.DB),
		Unavailable:     db.Unavailable,
		Services:        registrars,
		Idempotency:     guard,
		Tracing:         cfg.Tracing,
		ServerOptions:   cfg.ServerOptions,
	})
	if err != nil {
		return nil, err
	}
	return &Core{Server: srv, Auth: authSvc, Idempotency: guard}, nil
}

// internalCallers lets core resolve internal callers' tokens through the
// auth service, which keeps them (hashed) and caches verified ones.
func internalCallers(svc *auth.Service) core.InternalCallerVerifier {
	return core.InternalCallerFunc(func(ctx context.Context, token string) (*core.InternalCaller, error) {
		c, err := svc.VerifyInternalCaller(ctx, token)
		if err != nil {
			return nil, err
		}
		return &core.InternalCaller{ID: c.ID, Name: c.Name, Services: c.Services}, nil
	})
}
