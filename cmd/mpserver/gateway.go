package main

import (
	"context"
	"fmt"
	"io"
	"net/netip"
	"strings"
	"time"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/gateway/iplimit"
	"github.com/mallplatform/partnerapi/internal/grpcmetrics"
	"github.com/mallplatform/partnerapi/internal/platform"
	"github.com/mallplatform/partnerapi/internal/policy"
	"github.com/mallplatform/partnerapi/internal/tlsfiles"
)

type gatewayFlags struct {
	httpAddr, metricsAddr, coreAddr, gatewayToken, environment, redisAddr, trustedProxies string
	coreTLSCA, coreTLSCert, coreTLSKey, coreTLSServerName                                 string
	window                                                                                time.Duration
	ipRate, appRate, accountRate, sandboxRate, consoleRate                                int
	log                                                                                   logFlags
	// Redis by URL, and how long a stopping gateway drains.
	redisURL      string
	shutdownDelay time.Duration
	// The platform's public address (redirects, the consent cookie).
	publicURL string
}

func (g *gatewayFlags) register(f *flagSet) {
	f.str(&g.httpAddr, "http-addr", "MP_HTTP_ADDR", ":8080", "address of the partner-facing HTTP listener")
	f.str(&g.metricsAddr, "metrics-addr", "MP_METRICS_ADDR", ":8081", "address of the internal /metrics, /healthz and /readyz listener")
	f.str(&g.coreAddr, "core-addr", "MP_CORE_ADDR", "127.0.0.1:9090", "gRPC target of the core tier (e.g. dns:///core:9090)")
	f.secret(&g.gatewayToken, "gateway-token", "MP_GATEWAY_TOKEN", "the gateway's bearer credential on core's port (at least 16 characters)")
	f.str(&g.coreTLSCA, "core-tls-ca", "MP_CORE_TLS_CA", "", "PEM CA bundle verifying core's certificate (set: TLS to core; empty: plaintext)")
	f.str(&g.coreTLSCert, "core-tls-cert", "MP_CORE_TLS_CERT", "", "PEM client certificate presented to core (mutual TLS)")
	f.str(&g.coreTLSKey, "core-tls-key", "MP_CORE_TLS_KEY", "", "PEM private key of the client certificate")
	f.str(&g.coreTLSServerName, "core-tls-server-name", "MP_CORE_TLS_SERVER_NAME", "", "name checked in core's certificate (default: the host of --core-addr)")
	f.str(&g.environment, "environment", "MP_ENVIRONMENT", gateway.EnvSandbox, "credential kind this deployment accepts: sandbox or production")
	f.secretURL(&g.redisURL, "redis-url", "MP_REDIS_URL", "Redis for nonces and rate buckets shared by gateway replicas: redis://[user:password@]host[:port][/db], rediss:// for TLS (empty, and no --redis-addr: in memory, single replica only)")
	f.str(&g.redisAddr, "redis-addr", "MP_REDIS_ADDR", "", "shorthand for --redis-url redis://HOST:PORT (no password, no TLS)")
	f.dur(&g.shutdownDelay, "shutdown-delay", "MP_SHUTDOWN_DELAY", 5*time.Second, "on SIGTERM, how long to keep serving with readiness failed and every answer closing its connection, before stopping")
	f.str(&g.publicURL, "public-url", "MP_PUBLIC_URL", "", "the platform's public origin as partners and sellers' browsers reach it, e.g. https://api.mall.example: redirects to the consent page are absolute on it and the consent cookie is Secure when it is https (empty: each request's own scheme and Host)")
	f.str(&g.trustedProxies, "trusted-proxies", "MP_TRUSTED_PROXIES", "", "comma-separated CIDRs of load balancers whose X-Forwarded-For is trusted")
	f.dur(&g.window, "timestamp-window", "MP_TIMESTAMP_WINDOW", gateway.DefaultTimestampWindow, "freshness window of signed timestamps (30s to 300s)")
	f.integer(&g.ipRate, "ip-rate-per-minute", "MP_IP_RATE_PER_MINUTE", 0, "pre-authentication limit per source address (0: default 3000, burst 300)")
	f.integer(&g.appRate, "app-rate-per-minute", "MP_APP_RATE_PER_MINUTE", 0, "per-app ceiling unless the app has an override (0: default 600)")
	f.integer(&g.accountRate, "account-rate-per-minute", "MP_ACCOUNT_RATE_PER_MINUTE", 0, "per-developer-account ceiling unless the account has an override (0: default 1800)")
	f.integer(&g.sandboxRate, "sandbox-rate-per-minute", "MP_SANDBOX_RATE_PER_MINUTE", 0, "sandbox-route ceiling per app (0: default 60)")
	f.integer(&g.consoleRate, "console-rate-per-minute", "MP_CONSOLE_RATE_PER_MINUTE", 0, fmt.Sprintf("developer console calls per account (0: default %d)", policy.ConsolePerAccount))
	g.log.register(f)
}

func runGateway(ctx context.Context, args []string, stderr io.Writer) error {
	var gf gatewayFlags
	fs := newFlagSet("gateway", stderr)
	gf.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	log, err := gf.log.logger()
	if err != nil {
		return err
	}
	defer func() { _ = log.Sync() }()
	if err := refuseRetiredToken(); err != nil {
		return err
	}
	coreTLS, err := tlsfiles.Client(gf.coreTLSCA, gf.coreTLSCert, gf.coreTLSKey, gf.coreTLSServerName)
	if err != nil {
		return err
	}
	tracing, stopTracing, err := startTracing(ctx, log, "mpserver-gateway")
	if err != nil {
		return err
	}
	defer stopTracing()
	reg := platform.NewRegistry()
	dialOpts := append(grpcmetrics.DialOptions(reg), tracing.DialOptions()...)
	if coreTLS != nil {
		dialOpts = append(dialOpts, platform.CoreTLS(coreTLS))
	}
	conn, err := platform.DialCore(gf.coreAddr, gf.gatewayToken, dialOpts...)
	if err != nil {
		return err
	}
	defer conn.Close()
	store, err := newAdmissionStore(gf.redisURL, gf.redisAddr, admission.NewRedisMetrics(reg))
	if err != nil {
		return err
	}
	defer store.Close()
	proxies, err := parsePrefixes(gf.trustedProxies)
	if err != nil {
		return err
	}
	cfg := gateway.Config{
		Environment:     gf.environment,
		Core:            conn,
		GatewayToken:    gf.gatewayToken,
		TimestampWindow: gf.window,
		Admission:       store,
		TrustedProxies:  proxies,
		PublicURL:       gf.publicURL,
		Logger:          log,
		Metrics:         gateway.NewMetrics(reg),
		Tracing:         tracing,
	}
	gf.ceilings(&cfg)
	gw, err := gateway.New(cfg)
	if err != nil {
		return err
	}
	// Its follower of the maintenance switch stops before the
	// connection to core closes.
	defer gw.Close()
	return serveGateway(ctx, log, gw, gf.httpAddr, gf.metricsAddr, reg, gf.shutdownDelay)
}

// ceilings sets the rate limits the flags name on the gateway's config
// (zero: the gateway's defaults).
func (g *gatewayFlags) ceilings(c *gateway.Config) {
	c.IPLimit = iplimit.Config{RatePerMinute: g.ipRate}
	c.Limits = admission.Limits{AppPerMinute: int64(g.appRate), AccountPerMinute: int64(g.accountRate), SandboxPerMinute: int64(g.sandboxRate)}
	c.ConsolePerMinute = g.consoleRate
}

func parsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		p, err := netip.ParsePrefix(part)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: %w", part, err)
		}
		out = append(out, p)
	}
	return out, nil
}
