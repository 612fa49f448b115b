// Package platform assembles the tiers from their parts: the parts every
// domain is built from (once per process), the core server with every
// domain's services over one database, the worker's jobs, the connection
// from the gateway to core, and the HTTP servers' shared plumbing.
// cmd/mpserver and the end-to-end tests build the platform through it, so
// both run the same wiring.
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
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/developer"
	"github.com/mallplatform/partnerapi/services/developer/mail"
	"github.com/mallplatform/partnerapi/services/uploads"
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
	// PasswordCost is the cost of new seller and console developer password
	// hashes (zero: the production cost; auth.TestPasswordCost in test
	// environments).
	PasswordCost auth.PasswordCost
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
	// ConsoleMail and ConsoleURL are the developer console's mail and
	// address (PartsConfig).
	ConsoleMail mail.Sender
	ConsoleURL  string
	// ConsoleLimits are the apps each developer account may have.
	ConsoleLimits developer.Limits
	// Uploads is where product images are stored and the url prefix they
	// are served at (MP_UPLOAD_BUCKET, MP_UPLOAD_PUBLIC_URL); no bucket:
	// the upload route answers 503 UPLOAD_NOT_CONFIGURED.
	Uploads uploads.Config
	// CalendarPoll is how often a replica checks the shipping calendar's
	// version for operators' edits (0: shipping.DefaultPollInterval).
	CalendarPoll time.Duration
	// Parts, when set, are the parts the process already built
	// (NewParts): dev's core and worker share them. SecretKey,
	// SecretRotationOverlap, Clock, Business, Callbacks, OTPSender and
	// Uploads are then theirs and not read here.
	Parts *serviceset.Parts
}

// Validate reports missing parts.
func (c CoreConfig) Validate() error {
	if c.DB == nil {
		return errors.New("platform: a database is required")
	}
	if c.SecretKey == "" && c.Parts == nil {
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

// NewCore wires every domain over cfg.DB into core's gRPC server. It
// refuses to start on a gap in the domains' declarations (serviceset.Check),
// such as an event type that declares no read scope.
func NewCore(cfg CoreConfig) (*Core, error) {
	return newCore(cfg, serviceset.Domains())
}

func newCore(cfg CoreConfig, domains []serviceset.Domain) (*Core, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := serviceset.Check(domains); err != nil {
		return nil, err
	}
	parts := cfg.Parts
	if parts == nil {
		built, err := NewParts(cfg.partsConfig())
		if err != nil {
			return nil, err
		}
		parts = &built
	}
	guard, err := idempotency.New(idempotency.Config{Store: idempotency.NewEntStore(cfg.DB.Ent), Clock: parts.Clock})
	if err != nil {
		return nil, err
	}
	srv, err := core.New(core.Config{
		GatewayToken:    cfg.GatewayToken,
		InternalCallers: internalCallers(parts.Auth),
		TLS:             cfg.TLS,
		GatewayCertName: cfg.GatewayCertName,
		Logger:          cfg.Logger,
		Metrics:         cfg.Metrics,
		Sellers:         parts.Auth,
		Ready:           DatabaseReady(cfg.DB),
		Unavailable:     db.Unavailable,
		Services:        serviceset.Registrars(*parts, domains),
		Idempotency:     guard,
		Tracing:         cfg.Tracing,
		ServerOptions:   cfg.ServerOptions,
	})
	if err != nil {
		return nil, err
	}
	return &Core{Server: srv, Auth: parts.Auth, Idempotency: guard}, nil
}

// partsConfig is the parts' share of cfg.
func (c CoreConfig) partsConfig() PartsConfig {
	return PartsConfig{DB: c.DB, SecretKey: c.SecretKey, SecretRotationOverlap: c.SecretRotationOverlap, Clock: c.Clock,
		PasswordCost: c.PasswordCost, Business: c.Business, Logger: c.Logger, Callbacks: c.Callbacks, OTPSender: c.OTPSender, Uploads: c.Uploads,
		CalendarPoll: c.CalendarPoll, ConsoleMail: c.ConsoleMail, ConsoleURL: c.ConsoleURL,
		ConsoleLimits: c.ConsoleLimits}
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
