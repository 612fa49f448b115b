package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/core"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/grpcmetrics"
	"github.com/mallplatform/partnerapi/internal/platform"
	"github.com/mallplatform/partnerapi/internal/tlsfiles"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/developer"
	"github.com/mallplatform/partnerapi/services/developer/mail"
	"github.com/mallplatform/partnerapi/services/webhooks/callback"
)

type coreFlags struct {
	grpcAddr, metricsAddr, databaseURL, gatewayToken, secretKey string
	tlsCert, tlsKey, clientCA, gatewayCertName                  string
	webhookAllow                                                string
	otpRelayURL, otpRelaySecret                                 string
	mailRelayURL, mailRelaySecret, consoleURL                   string
	consoleSandboxApps, consoleLiveApps, consoleTestShops       int
	uploads                                                     uploadFlags
	maxConns                                                    int
	rotationOverlap                                             time.Duration
	log                                                         logFlags
}

func (c *coreFlags) register(f *flagSet) {
	f.str(&c.grpcAddr, "grpc-addr", "MP_GRPC_ADDR", ":9090", "address of the internal gRPC listener")
	f.str(&c.metricsAddr, "metrics-addr", "MP_METRICS_ADDR", ":9091", "address of the internal /metrics, /healthz and /readyz listener")
	f.secretURL(&c.databaseURL, "database-url", "MP_DATABASE_URL", "PostgreSQL URL")
	f.secret(&c.gatewayToken, "gateway-token", "MP_GATEWAY_TOKEN", "the gateway's bearer credential (at least 16 characters); internal callers get their own with admin create-internal-caller")
	f.str(&c.tlsCert, "grpc-tls-cert", "MP_GRPC_TLS_CERT", "", "PEM certificate of the gRPC listener (with the key: TLS; empty: plaintext)")
	f.str(&c.tlsKey, "grpc-tls-key", "MP_GRPC_TLS_KEY", "", "PEM private key of the gRPC listener")
	f.str(&c.clientCA, "grpc-client-ca", "MP_GRPC_CLIENT_CA", "", "PEM CA bundle: every caller must present a client certificate it signed (mutual TLS)")
	f.str(&c.gatewayCertName, "grpc-gateway-cert-name", "MP_GRPC_GATEWAY_CERT_NAME", "", "with mutual TLS: the gateway token counts only from a client certificate with this DNS name or common name")
	f.secret(&c.secretKey, "secret-key", "MP_SECRET_KEY", "base64 32-byte key that seals app secrets at rest")
	f.dur(&c.rotationOverlap, "secret-rotation-overlap", "MP_SECRET_ROTATION_OVERLAP", auth.DefaultRotationOverlap, "how long an app's previous secret keeps verifying after the partner rotates it (at most 168h)")
	f.integer(&c.maxConns, "db-max-conns", "MP_DB_MAX_CONNS", 0, "PostgreSQL pool size (0: pgx default)")
	f.str(&c.otpRelayURL, "otp-relay-url", "MP_OTP_RELAY_URL", "", "the messaging relay sellers' one-time codes are POSTed to (empty: only test shops' fixed sandbox codes work)")
	f.secret(&c.otpRelaySecret, "otp-relay-secret", "MP_OTP_RELAY_SECRET", "the secret (32+ characters) the one-time code relay's requests are signed with")
	f.str(&c.mailRelayURL, "mail-relay-url", "MP_MAIL_RELAY_URL", "", "the mail relay the developer console's links are POSTed to (empty: none are sent)")
	f.secret(&c.mailRelaySecret, "mail-relay-secret", "MP_MAIL_RELAY_SECRET", "the secret (32+ characters) the mail relay's requests are signed with")
	f.str(&c.consoleURL, "console-url", "MP_CONSOLE_URL", platform.DefaultConsoleURL, "the developer console pages' public address, ending in /, that e-mailed links point at")
	f.integer(&c.consoleSandboxApps, "console-sandbox-apps", "MP_CONSOLE_SANDBOX_APPS", developer.DefaultSandboxApps, "sandbox apps a developer account may create from the console")
	f.integer(&c.consoleLiveApps, "console-live-apps", "MP_CONSOLE_LIVE_APPS", developer.DefaultLiveApps, "live apps a developer account may create from the console")
	f.integer(&c.consoleTestShops, "console-test-shops", "MP_CONSOLE_TEST_SHOPS", developer.DefaultTestShops, "sandbox test shops a developer account may create from the console")
	f.str(&c.webhookAllow, "webhook-allow-cidrs", "MP_WEBHOOK_ALLOW_CIDRS", "", "comma-separated CIDRs webhook callback URLs may resolve to although not public (on-premises receivers)")
	c.uploads.register(f, "uploads answer 503 UPLOAD_NOT_CONFIGURED")
	c.log.register(f)
}

func runCore(ctx context.Context, args []string, stderr io.Writer) error {
	var cf coreFlags
	fs := newFlagSet("core", stderr)
	cf.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	var otp auth.OTPSender
	if cf.otpRelayURL != "" {
		relay, err := auth.NewRelaySender(cf.otpRelayURL, cf.otpRelaySecret)
		if err != nil {
			return err
		}
		otp = relay
	}
	var consoleMail mail.Sender
	if cf.mailRelayURL != "" {
		relay, err := mail.NewRelay(cf.mailRelayURL, cf.mailRelaySecret, clock.System{})
		if err != nil {
			return err
		}
		consoleMail = relay
	}
	if err := checkRotationOverlap(cf.rotationOverlap); err != nil {
		return err
	}
	if err := refuseRetiredToken(); err != nil {
		return err
	}
	serverTLS, err := tlsfiles.Server(cf.tlsCert, cf.tlsKey, cf.clientCA)
	if err != nil {
		return err
	}
	log, err := cf.log.logger()
	if err != nil {
		return err
	}
	defer func() { _ = log.Sync() }()
	if serverTLS == nil {
		log.Warn("the gRPC port serves plaintext: set MP_GRPC_TLS_CERT and MP_GRPC_TLS_KEY unless a mesh encrypts the link")
	}
	tracing, stopTracing, err := startTracing(ctx, log, "mpserver-core")
	if err != nil {
		return err
	}
	defer stopTracing()
	d, err := db.Open(ctx, db.Config{Driver: db.DriverPostgres, DSN: cf.databaseURL, MaxOpenConns: cf.maxConns, QueryTracer: tracing.QueryTracer()})
	if err != nil {
		return err
	}
	defer d.Close()
	current, latest, err := db.MigrationStatus(ctx, d.SQL)
	if err != nil {
		return err
	}
	if current < latest {
		log.Warn("database schema is behind; run the migrate role", zap.Int64("current", current), zap.Int64("latest", latest))
	}
	allow, err := callback.ParseAllowCIDRs(cf.webhookAllow)
	if err != nil {
		return err
	}
	bucket, err := cf.uploads.open(ctx)
	if err != nil {
		return err
	}
	if bucket != nil {
		defer bucket.Close()
	}
	reg := platform.NewRegistry()
	reg.MustRegister(db.PoolCollector(d.Pool), db.BatchCollector(d))
	c, err := platform.NewCore(platform.CoreConfig{
		DB: d, GatewayToken: cf.gatewayToken, TLS: serverTLS, GatewayCertName: cf.gatewayCertName, SecretKey: cf.secretKey, SecretRotationOverlap: cf.rotationOverlap, OTPSender: otp, ConsoleMail: consoleMail, ConsoleURL: cf.consoleURL,
		ConsoleLimits: developer.Limits{SandboxApps: cf.consoleSandboxApps, LiveApps: cf.consoleLiveApps,
			TestShops: cf.consoleTestShops}, Logger: log, Metrics: core.NewMetrics(reg),
		Tracing: tracing, ServerOptions: grpcmetrics.ServerOptions(reg), Callbacks: callback.Policy{Allow: allow},
		Uploads: cf.uploads.config(bucket),
	})
	if err != nil {
		return err
	}
	return serveCore(ctx, log, c.Server, cf.grpcAddr, cf.metricsAddr, platform.MetricsHandler(reg, platform.DatabaseReady(d)))
}

// checkRotationOverlap refuses an overlap the auth service would not take,
// and zero, which it would read as the default rather than as no overlap.
func checkRotationOverlap(d time.Duration) error {
	if d <= 0 || d > auth.MaxRotationGrace {
		return fmt.Errorf("MP_SECRET_ROTATION_OVERLAP must be more than 0 and at most %s, got %s", auth.MaxRotationGrace, d)
	}
	return nil
}

// refuseRetiredToken stops a tier configured the old way. MP_INTERNAL_TOKEN
// was one token shared by the gateway and internal teams; reading it as the
// gateway's would hand the gateway's rights to everyone who held it.
func refuseRetiredToken() error {
	if _, set := os.LookupEnv("MP_INTERNAL_TOKEN"); set {
		return errors.New("MP_INTERNAL_TOKEN is no longer read: it was shared with internal teams. Unset it, give core and gateway a fresh MP_GATEWAY_TOKEN, and issue internal callers their own tokens (mpserver admin create-internal-caller)")
	}
	return nil
}

// serveCore serves gRPC (and the internal HTTP port) until ctx ends, then
// drains: health turns NOT_SERVING, in-flight calls finish, new ones fail.
func serveCore(ctx context.Context, log *zap.Logger, srv *core.Server, grpcAddr, metricsAddr string, metrics http.Handler) error {
	lis, err := net.Listen("tcp", grpcAddr)
	if err != nil {
		return err
	}
	errc := make(chan error, 2)
	go func() { errc <- srv.Serve(lis) }()
	if metricsAddr != "" {
		mlis, err := net.Listen("tcp", metricsAddr)
		if err != nil {
			srv.GRPC.Stop()
			return err
		}
		go func() { errc <- platform.ServeUntilDone(ctx, platform.NewHTTPServer(metrics), mlis, 5*time.Second) }()
	}
	log.Info("core listening", zap.String("addr", lis.Addr().String()))
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv.Shutdown(sctx)
	return nil
}
