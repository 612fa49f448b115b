// Package core assembles the gRPC server of the core tier: the interceptor
// chain, health, reflection and the platform's services. Tests dial the same
// server over an in-memory listener, so they exercise exactly what runs in
// production.
package core

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"errors"
	"net"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"

	"github.com/mallplatform/partnerapi/internal/grpccodec"
	"github.com/mallplatform/partnerapi/internal/idempotency"
	"github.com/mallplatform/partnerapi/internal/policy"
	"github.com/mallplatform/partnerapi/internal/telemetry"
	"github.com/mallplatform/partnerapi/internal/validation"
)

// SellerTokenVerifier checks that a seller access token was issued to the
// app for the seller and is neither expired nor revoked, and returns the
// scopes the seller granted.
type SellerTokenVerifier interface {
	VerifySellerToken(ctx context.Context, appID, sellerID, accessToken string) (granted []string, err error)
}

// Registrar registers one domain service on the server.
type Registrar func(s grpc.ServiceRegistrar)

// Config configures the core tier's gRPC server.
type Config struct {
	// GatewayToken is the gateway's bearer credential. It is the one
	// credential that may send a partner principal in metadata and call
	// the gateway-only services (app secrets).
	GatewayToken string
	// InternalCallers resolves internal callers' tokens (nil: none are
	// accepted).
	InternalCallers InternalCallerVerifier
	// TLS, when set, is the listener's TLS configuration (tlsfiles.Server);
	// nil serves plaintext.
	TLS *tls.Config
	// GatewayCertName, when set, is the name the gateway's verified client
	// certificate must carry for the gateway token to count: a stolen token
	// is useless without the gateway's key. It needs TLS with client
	// certificates required.
	GatewayCertName string
	Logger          *zap.Logger
	// Services registers the domain services.
	Services []Registrar
	// Sellers verifies seller tokens for methods whose policy requires one.
	Sellers SellerTokenVerifier
	// MaxRecvBytes bounds inbound messages (the gateway's body caps are lower).
	MaxRecvBytes int
	Metrics      *Metrics
	// StreamWorkers is the number of long-lived goroutines that serve calls
	// (default DefaultStreamWorkers). A call that finds every worker busy
	// runs on a goroutine of its own, whose stack grows from its minimum
	// through every frame of the chain and the store: size the pool to the
	// calls a replica has in flight at once, most of them waiting on
	// PostgreSQL.
	StreamWorkers int
	// CallTimeout bounds every call (default DefaultCallTimeout): a caller
	// that sets no deadline, or a later one, gets this one, so no call
	// holds a database connection without limit.
	CallTimeout time.Duration
	// Ready reports whether the tier can serve (its database answers, its
	// schema is migrated). While it fails, gRPC health answers NOT_SERVING.
	// Nil: always ready.
	Ready func(context.Context) error
	// ReadyInterval is how often Ready runs (default DefaultReadyInterval).
	ReadyInterval time.Duration
	// Unavailable tells the errors that mean a dependency (the database)
	// could not be reached: they answer SERVICE_UNAVAILABLE, to be retried,
	// instead of INTERNAL_ERROR.
	Unavailable func(error) bool
	// Idempotency runs the methods whose policy declares an idempotency
	// mode once per key (nil: the key is ignored).
	Idempotency *idempotency.Guard
	// Tracing puts every RPC in a server span, child of the caller's
	// (nil: off).
	Tracing *telemetry.Tracing
	// ServerOptions are added before the server's own (the standard gRPC
	// server metrics, whose interceptors then run outermost).
	ServerOptions []grpc.ServerOption
}

// DefaultCallTimeout matches the gateway's deadline for a partner request.
const DefaultCallTimeout = 10 * time.Second

// DefaultStreamWorkers covers the calls in flight on a replica at its
// saturation point with a few database connections per core.
const DefaultStreamWorkers = 64

// Validate reports configuration mistakes.
func (c *Config) Validate() error {
	var errs []error
	if len(c.GatewayToken) < 16 {
		errs = append(errs, errors.New("core: the gateway token must be at least 16 characters"))
	}
	if c.GatewayCertName != "" && (c.TLS == nil || c.TLS.ClientAuth != tls.RequireAndVerifyClientCert) {
		errs = append(errs, errors.New("core: a gateway certificate name needs TLS with client certificates required"))
	}
	if c.Sellers == nil {
		errs = append(errs, errors.New("core: a seller token verifier is required"))
	}
	if len(c.Services) == 0 {
		errs = append(errs, errors.New("core: no services to serve"))
	}
	return errors.Join(errs...)
}

// Server is the core tier's gRPC server.
type Server struct {
	GRPC   *grpc.Server
	Health *health.Server
	log    *zap.Logger

	ready         func(context.Context) error
	readyInterval time.Duration
	// watch ends the readiness watcher on Shutdown.
	watch     context.Context
	stopWatch context.CancelFunc
}

// New builds the server with its interceptor chain.
func New(cfg Config) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	if cfg.MaxRecvBytes == 0 {
		cfg.MaxRecvBytes = policy.MaxMessageBytes
	}
	if cfg.StreamWorkers <= 0 {
		cfg.StreamWorkers = DefaultStreamWorkers
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = DefaultCallTimeout
	}
	table, err := policy.Load()
	if err != nil {
		return nil, err
	}
	// The process's one validator: bulk writes validate their items with
	// it too (validation.Validator).
	validator := validation.Validator()
	acc := newAccess(table)
	ids := &identity{
		gatewayDigest:   sha256.Sum256([]byte(cfg.GatewayToken)),
		gatewayCertName: cfg.GatewayCertName,
		internal:        cfg.InternalCallers,
		access:          acc,
	}
	chain := &interceptors{
		log:         cfg.Logger,
		id:          ids,
		table:       table,
		sellers:     cfg.Sellers,
		validator:   validator,
		metrics:     cfg.Metrics,
		timeout:     cfg.CallTimeout,
		unavailable: cfg.Unavailable,
		idempotency: cfg.Idempotency,
	}
	own := []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(chainUnary(chain.unary())),
		grpc.ChainStreamInterceptor(chain.stream()...),
		// The call record, made where the transport holds the received
		// metadata (tapCall).
		grpc.InTapHandle(tapCall),
		grpc.MaxRecvMsgSize(cfg.MaxRecvBytes),
		grpc.ForceServerCodecV2(grpccodec.New()),
		// A pool of stream workers instead of a goroutine per call saves
		// growing a fresh stack for every call.
		grpc.NumStreamWorkers(uint32(cfg.StreamWorkers)),
		// Fixed flow-control windows turn off bandwidth-estimation pings.
		grpc.InitialWindowSize(1 << 20),
		grpc.InitialConnWindowSize(4 << 20),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: 10 * time.Second, PermitWithoutStream: true}),
	}
	// cfg.ServerOptions come first: interceptors they add run outside
	// core's chain and see every call's final code.
	opts := append(append([]grpc.ServerOption{}, cfg.ServerOptions...), own...)
	if cfg.TLS != nil {
		opts = append(opts, grpc.Creds(credentials.NewTLS(cfg.TLS)))
	}
	opts = append(opts, cfg.Tracing.ServerOptions()...)
	gs := grpc.NewServer(opts...)
	for _, register := range cfg.Services {
		register(gs)
	}
	hs := health.NewServer()
	healthpb.RegisterHealthServer(gs, hs)
	acc.registerReflection(gs)
	if cfg.ReadyInterval <= 0 {
		cfg.ReadyInterval = DefaultReadyInterval
	}
	srv := &Server{GRPC: gs, Health: hs, log: cfg.Logger, ready: cfg.Ready, readyInterval: cfg.ReadyInterval}
	srv.watch, srv.stopWatch = context.WithCancel(context.Background())
	// With a readiness check, health starts NOT_SERVING and follows it.
	srv.setServing(cfg.Ready == nil)
	return srv, nil
}

// Serve serves on lis until Shutdown.
func (s *Server) Serve(lis net.Listener) error {
	if s.ready != nil {
		go s.watchReadiness(s.watch)
	}
	return s.GRPC.Serve(lis)
}

// Shutdown reports NOT_SERVING (so load balancers drain), then stops
// gracefully, forcing the stop when ctx ends first.
func (s *Server) Shutdown(ctx context.Context) {
	s.stopWatch()
	s.Health.Shutdown()
	done := make(chan struct{})
	go func() {
		s.GRPC.GracefulStop()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		s.GRPC.Stop()
	}
}
