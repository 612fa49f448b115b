// Package testenv starts the platform in-process for tests: core over an
// in-memory gRPC listener, wired by the same assembly as production, and the
// gateway behind an httptest server, on a freshly seeded sandbox.
package testenv

import (
	"context"
	"net"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"gocloud.dev/blob"
	"google.golang.org/grpc"
	"google.golang.org/grpc/test/bufconn"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/gateway/iplimit"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/core"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/faultnet"
	"github.com/mallplatform/partnerapi/internal/grpcmetrics"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/platform"
	"github.com/mallplatform/partnerapi/internal/telemetry"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/developer/mail"
	"github.com/mallplatform/partnerapi/services/sandbox/sandboxseed"
	"github.com/mallplatform/partnerapi/services/uploads"
	"github.com/mallplatform/partnerapi/services/webhooks/callback"
)

// Options tune an environment.
type Options struct {
	// Postgres runs on a fresh PostgreSQL database instead of SQLite.
	Postgres bool
	// BusinessClock gives core a business clock of its own (Env.Business),
	// starting at the same moment as Env.Clock, so a test can move one
	// without the other.
	BusinessClock bool
	// DatabaseProxy runs on PostgreSQL through a proxy the test can cut or
	// freeze (Env.DBProxy).
	DatabaseProxy bool
	// Admission replaces the in-memory nonce and rate store.
	Admission admission.Store
	// Limits replaces the platform's rate ceilings.
	Limits admission.Limits
	// Environment of the gateway (default sandbox).
	Environment string
	// RequestTimeout replaces the gateway's deadline on calls to core.
	RequestTimeout time.Duration
	// Mutate adjusts the gateway's config before it is built.
	Mutate func(*gateway.Config)
	// Unlimited lifts every rate limit (per address, app and account), for
	// benchmarks that send more than a partner may.
	Unlimited bool
	// WebhookAllow is core's MP_WEBHOOK_ALLOW_CIDRS (a receiver on loopback).
	WebhookAllow []netip.Prefix
	// Tracing traces both tiers and, with Postgres, the database's
	// statements.
	Tracing *telemetry.Tracing
	// CoreLogger is core's logger (default: none).
	CoreLogger *zap.Logger
	// Metrics receives core's RPC metrics and the standard gRPC server and
	// client metrics of the link, wired as the roles wire them.
	Metrics prometheus.Registerer
	// SecretRotationOverlap is core's MP_SECRET_ROTATION_OVERLAP (0: the
	// default).
	SecretRotationOverlap time.Duration
	// Uploads stores uploaded images (nil: uploads are not configured);
	// the gateway serves its files, as the dev role's does, and core gives
	// them urls on the gateway's address.
	Uploads *blob.Bucket
	// ConsoleMail receives the developer console's messages (nil: none
	// are sent).
	ConsoleMail mail.Sender
}

// Env is a running platform.
type Env struct {
	// SecretKey is core's MP_SECRET_KEY (what a worker beside it opens
	// webhook secrets with).
	SecretKey string
	BaseURL   string
	Creds     *sdk.Credentials
	// Clock is security time for both tiers and, unless
	// Options.BusinessClock, business time too.
	Clock *clock.Manual
	// Business is core's business time with Options.BusinessClock.
	Business *clock.Manual
	DB       *db.DB
	// DBProxy stands between core and PostgreSQL with Options.DatabaseProxy.
	DBProxy *faultnet.Proxy
	Auth    *auth.Service
	Conn    *grpc.ClientConn
	// GatewayToken is the gateway's credential on core (DialCore with it
	// calls core as the gateway does).
	GatewayToken string
	// dial reaches core's in-memory listener.
	dial func(context.Context) (net.Conn, error)
	// gateway is the first gateway's configuration, which AnotherGateway
	// starts more replicas with.
	gateway gateway.Config
}

// secretKey is every environment's MP_SECRET_KEY (32 bytes, base64). It
// is fixed because listing cursors carry a tag under a key derived from it,
// and golden bodies pin a cursor byte for byte.
const secretKey = "dGVzdGVudjogZml4ZWQga2V5LCBnb2xkZW5zIG9ubHk="

// Start builds and seeds a platform; everything stops with the test.
func Start(t testing.TB, opts Options) *Env {
	t.Helper()
	ctx := context.Background()
	var d *db.DB
	var proxy *faultnet.Proxy
	switch {
	case opts.DatabaseProxy:
		d, proxy = dbtest.PostgresThroughProxy(t)
	case opts.Postgres:
		d = dbtest.Postgres(t, func(c *db.Config) { c.QueryTracer = opts.Tracing.QueryTracer() })
	default:
		d = dbtest.SQLite(t)
	}
	// Webhook delivery jobs are inserted with the changes that make them,
	// into River's tables, as on a migrated deployment.
	if err := db.MigrateRiver(ctx, d); err != nil {
		t.Fatalf("testenv: River's schema: %v", err)
	}
	clk := clock.NewManual(time.Now())
	token := ids.Token(24)
	var business *clock.Manual
	ccfg := platform.CoreConfig{DB: d, GatewayToken: token, SecretKey: secretKey, Clock: clk, Tracing: opts.Tracing, Logger: opts.CoreLogger,
		Callbacks:             callback.Policy{Resolver: exampleResolver{}, Allow: opts.WebhookAllow},
		SecretRotationOverlap: opts.SecretRotationOverlap, ConsoleMail: opts.ConsoleMail,
		// Seeding hashes a password per test shop, and every console
		// sign-up one more: at the production cost each is a fifth of a
		// second, most of a second under the race detector.
		PasswordCost: auth.TestPasswordCost,
		ConsoleURL:   "https://console.example/console/"}
	dialOpts := opts.Tracing.DialOptions()
	if opts.Metrics != nil {
		ccfg.Metrics = core.NewMetrics(opts.Metrics)
		ccfg.ServerOptions = grpcmetrics.ServerOptions(opts.Metrics)
		dialOpts = append(dialOpts, grpcmetrics.DialOptions(opts.Metrics)...)
	}
	if opts.BusinessClock {
		business = clock.NewManual(clk.Now())
		ccfg.Business = business
	}
	// The gateway's listener first: uploaded files' urls are on its address.
	srv := httptest.NewUnstartedServer(nil)
	if opts.Uploads != nil {
		files, err := uploads.FilesURL("http://" + srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		ccfg.Uploads = uploads.Config{Bucket: opts.Uploads, PublicURL: files}
	}
	c, err := platform.NewCore(ccfg)
	if err != nil {
		t.Fatal(err)
	}
	creds, err := sandboxseed.Seed(ctx, sandboxseed.Deps{DB: d, Auth: c.Auth, Clock: clk, Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	lis := bufconn.Listen(1 << 20)
	go func() { _ = c.Server.Serve(lis) }()
	conn, err := platform.DialCore("passthrough:///core", token, append(dialOpts, grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
		return lis.DialContext(ctx)
	}))...)
	if err != nil {
		t.Fatal(err)
	}
	store := opts.Admission
	if store == nil {
		// Requests are signed on the test's clock: the store's memory
		// begins on it too.
		store = admission.NewMemory(admission.MemoryConfig{Epoch: clk.Now()})
	}
	env := opts.Environment
	if env == "" {
		env = gateway.EnvSandbox
	}
	cfg := gateway.Config{Environment: env, Core: conn, GatewayToken: token, Admission: store, Limits: opts.Limits, Clock: clk, RequestTimeout: opts.RequestTimeout, Tracing: opts.Tracing,
		Uploads: opts.Uploads}
	if opts.Unlimited {
		cfg.Limits = admission.Limits{AppPerMinute: 1 << 40, AccountPerMinute: 1 << 40, SandboxPerMinute: 1 << 40}
		cfg.IPLimit = iplimit.Config{RatePerMinute: 1 << 30, Burst: 1 << 20}
		cfg.ConsolePerMinute = 1 << 30
	}
	if opts.Mutate != nil {
		opts.Mutate(&cfg)
	}
	gw, err := gateway.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = gw
	srv.Start()
	creds.BaseURL = srv.URL
	t.Cleanup(func() {
		srv.Close()
		gw.Close()
		_ = conn.Close()
		c.Server.GRPC.Stop()
		_ = store.Close()
	})
	return &Env{SecretKey: secretKey, BaseURL: srv.URL, Creds: creds, Clock: clk, Business: business, DB: d, DBProxy: proxy, Auth: c.Auth, Conn: conn, GatewayToken: token, dial: lis.DialContext, gateway: cfg}
}

// AnotherGateway starts one more gateway replica over the same core, with a
// connection of its own (dialOpts added to it, e.g. an interceptor that
// counts calls) and a credential cache of its own, sharing the admission
// store as replicas share Redis; it returns the replica's base URL.
func (e *Env) AnotherGateway(t testing.TB, dialOpts ...grpc.DialOption) string {
	t.Helper()
	cfg := e.gateway
	cfg.Core = e.DialCore(t, e.GatewayToken, dialOpts...)
	gw, err := gateway.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gw)
	t.Cleanup(func() {
		srv.Close()
		gw.Close()
	})
	return srv.URL
}

// Client returns an SDK client for a seeded app ("full", "limited", "live"),
// acting for seller index seller (or for no seller when seller < 0).
func (e *Env) Client(t testing.TB, app string, seller int) *sdk.Client {
	t.Helper()
	cfg, err := e.Creds.Config(app)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Now = e.Clock.Now
	c, err := sdk.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if seller >= 0 {
		s := e.Creds.Sellers[seller]
		tok, ok := s.Tokens[app]
		if !ok {
			t.Fatalf("seller %d has no token for app %s", seller, app)
		}
		c = c.WithSeller(s.SellerID, tok.AccessToken)
	}
	return c
}

// exampleResolver answers every name under .example (RFC 2606) with a public
// address and no other: callback URLs of tests and examples resolve without
// a network, and others are refused as unresolvable.
type exampleResolver struct{}

func (exampleResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if strings.HasSuffix(host, ".example") {
		return []netip.Addr{netip.MustParseAddr("93.184.215.14")}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}
