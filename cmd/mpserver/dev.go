package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/core"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/grpcmetrics"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/platform"
	"github.com/mallplatform/partnerapi/internal/serviceset"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/developer/mail"
	"github.com/mallplatform/partnerapi/services/sandbox/sandboxseed"
	"github.com/mallplatform/partnerapi/services/shipping/channels"
	"github.com/mallplatform/partnerapi/services/webhooks/callback"
)

func runDev(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var dataDir, httpAddr, grpcAddr, credsPath, metricsAddr, webhookAllow string
	var logs logFlags
	var rotationOverlap, reviewDelay time.Duration
	var up uploadFlags
	fs := newFlagSet("dev", stderr)
	fs.str(&dataDir, "data-dir", "MP_DATA_DIR", "data", "directory of the SQLite file, the secret key and the sandbox credentials")
	fs.str(&httpAddr, "http-addr", "MP_HTTP_ADDR", "127.0.0.1:8080", "address of the partner-facing HTTP listener")
	fs.str(&grpcAddr, "grpc-addr", "MP_GRPC_ADDR", "127.0.0.1:9090", "address of the core gRPC listener")
	fs.str(&metricsAddr, "metrics-addr", "MP_METRICS_ADDR", "127.0.0.1:8081", "address of the internal /metrics, /healthz and /readyz listener (empty: none)")
	fs.str(&credsPath, "credentials-file", "MP_CREDENTIALS_FILE", "", "where the sandbox credentials are written (default DATA_DIR/sandbox-credentials.json)")
	fs.str(&webhookAllow, "webhook-allow-cidrs", "MP_WEBHOOK_ALLOW_CIDRS", "127.0.0.0/8,::1/128", "comma-separated CIDRs webhook callback URLs may resolve to although not public (dev: loopback, for receivers on this machine)")
	fs.dur(&rotationOverlap, "secret-rotation-overlap", "MP_SECRET_ROTATION_OVERLAP", auth.DefaultRotationOverlap, "how long an app's previous secret keeps verifying after the partner rotates it (at most 168h)")
	fs.dur(&reviewDelay, "sandbox-review-delay", "MP_SANDBOX_REVIEW_DELAY", 0, "approve test shops' proposed products once this old on their business clock, as if the platform's review had passed them (0: off; the sandbox review tool works either way)")
	up.register(fs, "DATA_DIR/uploads, served by this process's gateway at HTTP_ADDR/uploads/")
	logs.register(fs)
	if err := fs.Set("log-format", "console"); err != nil {
		return err
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := checkRotationOverlap(rotationOverlap); err != nil {
		return err
	}
	if reviewDelay < 0 {
		return fmt.Errorf("MP_SANDBOX_REVIEW_DELAY must be 0 (off) or positive, got %s", reviewDelay)
	}
	if credsPath == "" {
		credsPath = filepath.Join(dataDir, "sandbox-credentials.json")
	}
	log, err := logs.logger()
	if err != nil {
		return err
	}
	defer func() { _ = log.Sync() }()
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return err
	}
	allow, err := callback.ParseAllowCIDRs(webhookAllow)
	if err != nil {
		return err
	}
	secretKey, err := loadOrCreateKey(filepath.Join(dataDir, "secret.key"))
	if err != nil {
		return err
	}
	d, err := db.Open(ctx, db.Config{Driver: db.DriverSQLite, DSN: filepath.Join(dataDir, "dev.db")})
	if err != nil {
		return err
	}
	defer d.Close()
	if err := db.CreateSchema(ctx, d.Ent); err != nil {
		return err
	}
	// As the migrate role does for PostgreSQL: the built-in channels on an
	// empty table.
	if _, err := channels.SeedDefault(ctx, channels.NewEntStore(d)); err != nil {
		return err
	}
	// The job queue's tables are River's own, versioned by its migrator on
	// SQLite as on PostgreSQL.
	if err := db.MigrateRiver(ctx, d); err != nil {
		return err
	}

	// One process, but the tiers still talk over a real gRPC listener with
	// the gateway's credential, exactly as when deployed apart.
	gatewayToken := ids.Token(24)
	tracing, stopTracing, err := startTracing(ctx, log, "mpserver-dev")
	if err != nil {
		return err
	}
	defer stopTracing()
	reg := platform.NewRegistry()
	grpcLis, err := net.Listen("tcp", grpcAddr)
	if err != nil {
		return err
	}
	httpLis, err := net.Listen("tcp", httpAddr)
	if err != nil {
		grpcLis.Close()
		return err
	}

	// Uploads are stored in the data directory and served by this
	// process's gateway, at its own address.
	bucket, err := devUploads(ctx, &up, dataDir, "http://"+httpLis.Addr().String())
	if err != nil {
		grpcLis.Close()
		httpLis.Close()
		return err
	}
	defer bucket.Close()
	// Core and the worker share one set of parts: one event recorder, one
	// webhooks service, one business clock in the process.
	parts, err := platform.NewParts(platform.PartsConfig{
		DB: d, SecretKey: secretKey, SecretRotationOverlap: rotationOverlap, Clock: clock.System{}, Logger: log,
		Callbacks: callback.Policy{Allow: allow}, OTPSender: &consoleOTPSender{w: stderr}, Uploads: up.config(bucket),
		// Console links are printed and kept as .eml files beside the
		// sandbox credentials.
		ConsoleMail: &mail.Dir{Path: filepath.Join(filepath.Dir(credsPath), "mail"), Console: stderr, Clock: clock.System{}},
		ConsoleURL:  "http://" + httpLis.Addr().String() + "/console/",
		Worker:      serviceset.WorkerSettings{Metrics: reg, SandboxReviewDelay: reviewDelay},
	})
	if err != nil {
		grpcLis.Close()
		httpLis.Close()
		return err
	}
	c, err := platform.NewCore(platform.CoreConfig{
		DB: d, GatewayToken: gatewayToken, Parts: &parts, Logger: log.Named("core"), Metrics: core.NewMetrics(reg),
		Tracing: tracing, ServerOptions: grpcmetrics.ServerOptions(reg),
	})
	if err != nil {
		grpcLis.Close()
		httpLis.Close()
		return err
	}

	creds, err := ensureSandbox(ctx, c.Auth, d, credsPath, "http://"+httpLis.Addr().String(), grpcLis.Addr().String())
	if err != nil {
		grpcLis.Close()
		httpLis.Close()
		return err
	}

	go func() { _ = c.Server.Serve(grpcLis) }()
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c.Server.Shutdown(sctx)
	}()
	conn, err := platform.DialCore(grpcLis.Addr().String(), gatewayToken, append(grpcmetrics.DialOptions(reg), tracing.DialOptions()...)...)
	if err != nil {
		return err
	}
	defer conn.Close()
	store := admission.NewMemory(admission.MemoryConfig{})
	defer store.Close()
	gw, err := gateway.New(gateway.Config{
		Environment: gateway.EnvSandbox, Core: conn, GatewayToken: gatewayToken, Admission: store,
		Logger: log.Named("gateway"), Metrics: gateway.NewMetrics(reg), Tracing: tracing, Uploads: bucket,
	})
	if err != nil {
		return err
	}
	// Its follower of the maintenance switch stops before the
	// connection to core closes.
	defer gw.Close()
	// The worker runs in-process on the same SQLite file; it stops and
	// drains with the rest.
	jobs, err := platform.WorkerJobs(parts)
	if err != nil {
		return err
	}
	w, err := worker.New(worker.Config{DB: d, Jobs: jobs, Logger: log.Named("worker"), Metrics: worker.NewMetrics(reg)})
	if err != nil {
		return err
	}
	workerCtx, stopWorker := context.WithCancel(ctx)
	defer stopWorker()
	workerDone := make(chan error, 1)
	go func() { workerDone <- w.Run(workerCtx) }()
	printWelcome(stdout, creds, credsPath)
	log.Info("dev platform listening", zap.String("http", httpLis.Addr().String()), zap.String("grpc", grpcLis.Addr().String()))
	// As deployed: the partner port is the gateway's alone, health and
	// metrics are on the internal port. Nothing balances load here, so
	// there is no drain delay.
	err = serveGatewayOn(ctx, log.Named("gateway"), gw, httpLis, metricsAddr, reg, 0)
	stopWorker()
	if werr := <-workerDone; err == nil {
		err = werr
	}
	return err
}

// ensureSandbox seeds an empty database and writes its credential file; on a
// seeded one it refreshes the addresses in the existing file.
func ensureSandbox(ctx context.Context, authSvc *auth.Service, d *db.DB, path, baseURL, grpcAddr string) (*sdk.Credentials, error) {
	empty, err := authSvc.Empty(ctx)
	if err != nil {
		return nil, err
	}
	var creds *sdk.Credentials
	if empty {
		creds, err = sandboxseed.Seed(ctx, sandboxseed.Deps{DB: d, Auth: authSvc, Clock: clock.System{}, Seed: uint64(time.Now().UnixNano())})
		if err != nil {
			return nil, fmt.Errorf("seeding the sandbox: %w", err)
		}
	} else {
		creds, err = sdk.LoadCredentials(path)
		if err != nil {
			return nil, fmt.Errorf("the database in the data directory is already seeded but its credential file %s cannot be read (%w); remove the data directory to start afresh", path, err)
		}
	}
	creds.BaseURL, creds.GRPCAddress = baseURL, grpcAddr
	if err := creds.Save(path); err != nil {
		return nil, err
	}
	return creds, nil
}

func loadOrCreateKey(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		return strings.TrimSpace(string(b)), nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	key := auth.NewKey()
	return key, os.WriteFile(path, []byte(key+"\n"), 0o600)
}

func printWelcome(w io.Writer, creds *sdk.Credentials, path string) {
	full := creds.Apps["full"]
	seller := creds.Sellers[0]
	fmt.Fprintf(w, `
Partner API sandbox is running.
  REST  %s/open/v1   (signed with HMAC v3)
  gRPC  %s           (internal)
  credentials  %s   (apps: full, limited, live; %d sellers)

Try a signed call with the partner CLI:
  go run ./cmd/partnerctl --credentials %s GET '/open/v1/orders?status=SHIPPED&limit=5'

or by hand: app %s, seller %s
  go run ./cmd/partnerctl --credentials %s --print-curl GET /open/v1/categories

`, creds.BaseURL, creds.GRPCAddress, path, len(creds.Sellers), path, full.ClientID, seller.SellerID, path)
}
