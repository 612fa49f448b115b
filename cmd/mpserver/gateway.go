package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/gateway/iplimit"
	"github.com/mallplatform/partnerapi/internal/platform"
	"github.com/mallplatform/partnerapi/internal/tlsfiles"
)

type gatewayFlags struct {
	httpAddr, metricsAddr, coreAddr, gatewayToken, environment, redisAddr, trustedProxies string
	coreTLSCA, coreTLSCert, coreTLSKey, coreTLSServerName                                 string
	window                                                                                time.Duration
	ipRate, appRate, accountRate, sandboxRate                                             int
	log                                                                                   logFlags
}

func (g *gatewayFlags) register(f *flagSet) {
	f.str(&g.httpAddr, "http-addr", "MP_HTTP_ADDR", ":8080", "address of the partner-facing HTTP listener")
	f.str(&g.metricsAddr, "metrics-addr", "MP_METRICS_ADDR", ":8081", "address of the internal /metrics, /healthz and /readyz listener")
	f.str(&g.coreAddr, "core-addr", "MP_CORE_ADDR", "127.0.0.1:9090", "gRPC target of the core tier (e.g. dns:///core:9090)")
	f.str(&g.gatewayToken, "gateway-token", "MP_GATEWAY_TOKEN", "", "the gateway's bearer credential on core's port (at least 16 characters)")
	f.str(&g.coreTLSCA, "core-tls-ca", "MP_CORE_TLS_CA", "", "PEM CA bundle verifying core's certificate (set: TLS to core; empty: plaintext)")
	f.str(&g.coreTLSCert, "core-tls-cert", "MP_CORE_TLS_CERT", "", "PEM client certificate presented to core (mutual TLS)")
	f.str(&g.coreTLSKey, "core-tls-key", "MP_CORE_TLS_KEY", "", "PEM private key of the client certificate")
	f.str(&g.coreTLSServerName, "core-tls-server-name", "MP_CORE_TLS_SERVER_NAME", "", "name checked in core's certificate (default: the host of --core-addr)")
	f.str(&g.environment, "environment", "MP_ENVIRONMENT", gateway.EnvSandbox, "credential kind this deployment accepts: sandbox or production")
	f.str(&g.redisAddr, "redis-addr", "MP_REDIS_ADDR", "", "Redis for nonces and rate buckets shared by gateway replicas (empty: in memory, single replica only)")
	f.str(&g.trustedProxies, "trusted-proxies", "MP_TRUSTED_PROXIES", "", "comma-separated CIDRs of load balancers whose X-Forwarded-For is trusted")
	f.dur(&g.window, "timestamp-window", "MP_TIMESTAMP_WINDOW", gateway.DefaultTimestampWindow, "freshness window of signed timestamps (30s to 300s)")
	f.integer(&g.ipRate, "ip-rate-per-minute", "MP_IP_RATE_PER_MINUTE", 0, "pre-authentication limit per source address (0: default 3000, burst 300)")
	f.integer(&g.appRate, "app-rate-per-minute", "MP_APP_RATE_PER_MINUTE", 0, "per-app ceiling unless the app has an override (0: default 600)")
	f.integer(&g.accountRate, "account-rate-per-minute", "MP_ACCOUNT_RATE_PER_MINUTE", 0, "per-developer-account ceiling unless the account has an override (0: default 1800)")
	f.integer(&g.sandboxRate, "sandbox-rate-per-minute", "MP_SANDBOX_RATE_PER_MINUTE", 0, "sandbox-route ceiling per app (0: default 60)")
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
	var dialTLS []grpc.DialOption
	if coreTLS != nil {
		dialTLS = append(dialTLS, platform.CoreTLS(coreTLS))
	}
	conn, err := platform.DialCore(gf.coreAddr, gf.gatewayToken, dialTLS...)
	if err != nil {
		return err
	}
	defer conn.Close()
	store, err := newAdmissionStore(gf.redisAddr)
	if err != nil {
		return err
	}
	defer store.Close()
	proxies, err := parsePrefixes(gf.trustedProxies)
	if err != nil {
		return err
	}
	reg := platform.NewRegistry()
	gw, err := gateway.New(gateway.Config{
		Environment:     gf.environment,
		Core:            conn,
		GatewayToken:    gf.gatewayToken,
		TimestampWindow: gf.window,
		Admission:       store,
		TrustedProxies:  proxies,
		IPLimit:         iplimit.Config{RatePerMinute: gf.ipRate},
		Limits:          admission.Limits{AppPerMinute: int64(gf.appRate), AccountPerMinute: int64(gf.accountRate), SandboxPerMinute: int64(gf.sandboxRate)},
		Logger:          log,
		Metrics:         gateway.NewMetrics(reg),
	})
	if err != nil {
		return err
	}
	ready := func(ctx context.Context) error {
		_, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{})
		return err
	}
	return serveGateway(ctx, log, gw, gf.httpAddr, gf.metricsAddr, reg, ready)
}

// serveGateway runs the public and internal listeners until ctx ends.
func serveGateway(ctx context.Context, log *zap.Logger, gw *gateway.Gateway, httpAddr, metricsAddr string, reg *prometheus.Registry, ready func(context.Context) error) error {
	public := http.NewServeMux()
	platform.AddHealth(public, ready)
	public.Handle("/", gw)
	lis, err := net.Listen("tcp", httpAddr)
	if err != nil {
		return err
	}
	errc := make(chan error, 2)
	if metricsAddr != "" {
		mlis, err := net.Listen("tcp", metricsAddr)
		if err != nil {
			lis.Close()
			return err
		}
		msrv := platform.NewHTTPServer(platform.MetricsHandler(reg, ready))
		go func() { errc <- platform.ServeUntilDone(ctx, msrv, mlis, 5*time.Second) }()
	} else {
		errc <- nil
	}
	log.Info("gateway listening", zap.String("addr", lis.Addr().String()))
	err = platform.ServeUntilDone(ctx, platform.NewHTTPServer(public), lis, 20*time.Second)
	if merr := <-errc; err == nil {
		err = merr
	}
	return err
}

func newAdmissionStore(redisAddr string) (admission.Store, error) {
	if redisAddr == "" {
		return admission.NewMemory(admission.MemoryConfig{}), nil
	}
	return admission.NewRedis(admission.RedisConfig{Addr: redisAddr})
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
