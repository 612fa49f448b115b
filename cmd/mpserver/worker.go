package main

import (
	"context"
	"errors"
	"io"
	"net"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/platform"
	"github.com/mallplatform/partnerapi/internal/serviceset"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/services/webhooks"
	"github.com/mallplatform/partnerapi/services/webhooks/callback"
)

type workerFlags struct {
	metricsAddr, databaseURL string
	secretKey, webhookAllow  string
	concurrency, maxConns    int
	webhookConcurrency       int
	drainGrace, rescueAfter  time.Duration
	log                      logFlags
}

func (w *workerFlags) register(f *flagSet) {
	f.str(&w.metricsAddr, "metrics-addr", "MP_METRICS_ADDR", ":9092", "address of the internal /metrics, /healthz and /readyz listener")
	f.secretURL(&w.databaseURL, "database-url", "MP_DATABASE_URL", "PostgreSQL URL")
	f.integer(&w.concurrency, "concurrency", "MP_WORKER_CONCURRENCY", worker.DefaultConcurrency, "jobs run at once by this process")
	f.dur(&w.drainGrace, "drain-grace", "MP_WORKER_DRAIN_GRACE", worker.DefaultDrainGrace, "on shutdown, how long running jobs may take to finish before they are cancelled")
	f.dur(&w.rescueAfter, "rescue-after", "MP_WORKER_RESCUE_AFTER", worker.DefaultRescueAfter, "how long a job may run before it counts as its dead worker's and runs again (above every job's timeout)")
	f.integer(&w.maxConns, "db-max-conns", "MP_DB_MAX_CONNS", 0, "PostgreSQL pool size (0: pgx default)")
	f.secret(&w.secretKey, "secret-key", "MP_SECRET_KEY", "core's base64 32-byte key: opens the webhook signing secrets")
	f.integer(&w.webhookConcurrency, "webhook-concurrency", "MP_WEBHOOK_CONCURRENCY", webhooks.DefaultConcurrency, "webhook deliveries run at once by this process (a queue of their own)")
	f.str(&w.webhookAllow, "webhook-allow-cidrs", "MP_WEBHOOK_ALLOW_CIDRS", "", "comma-separated CIDRs webhook deliveries may reach although not public (as core)")
	w.log.register(f)
}

// runWorker runs the durable background jobs on PostgreSQL. It needs the
// database and core's secret key (webhook deliveries are signed with secrets
// sealed by it), no gateway token.
func runWorker(ctx context.Context, args []string, stderr io.Writer) error {
	var wf workerFlags
	fs := newFlagSet("worker", stderr)
	wf.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	log, err := wf.log.logger()
	if err != nil {
		return err
	}
	defer func() { _ = log.Sync() }()
	d, err := db.Open(ctx, db.Config{Driver: db.DriverPostgres, DSN: wf.databaseURL, MaxOpenConns: wf.maxConns})
	if err != nil {
		return err
	}
	defer d.Close()
	allow, err := callback.ParseAllowCIDRs(wf.webhookAllow)
	if err != nil {
		return err
	}
	if wf.secretKey == "" {
		return errors.New("the worker needs MP_SECRET_KEY (core's) to sign webhook deliveries")
	}
	reg := platform.NewRegistry()
	// The parts core builds, with the worker's settings: the jobs record
	// events and queue their deliveries as core's services do.
	parts, err := platform.NewParts(platform.PartsConfig{DB: d, SecretKey: wf.secretKey, Logger: log,
		Callbacks: callback.Policy{Allow: allow},
		Worker:    serviceset.WorkerSettings{WebhookConcurrency: wf.webhookConcurrency, Metrics: reg}})
	if err != nil {
		return err
	}
	jobs, err := platform.WorkerJobs(parts)
	if err != nil {
		return err
	}
	reg.MustRegister(db.PoolCollector(d.Pool), db.BatchCollector(d))
	w, err := worker.New(worker.Config{
		DB: d, Jobs: jobs, Concurrency: wf.concurrency, DrainGrace: wf.drainGrace, RescueAfter: wf.rescueAfter,
		Logger: log.Named("worker"), Metrics: worker.NewMetrics(reg),
	})
	if err != nil {
		return err
	}
	return serveWorker(ctx, log, w, wf.metricsAddr, reg)
}

// serveWorker runs w until ctx ends and drains it, with the internal port up
// throughout so the probes see readiness fail during the drain.
func serveWorker(ctx context.Context, log *zap.Logger, w *worker.Worker, metricsAddr string, reg *prometheus.Registry) error {
	internal, stopInternal := context.WithCancel(context.Background())
	defer stopInternal()
	errc := make(chan error, 1)
	if metricsAddr != "" {
		mlis, err := net.Listen("tcp", metricsAddr)
		if err != nil {
			return err
		}
		log.Info("internal port listening", zap.String("addr", mlis.Addr().String()))
		go func() {
			errc <- platform.ServeUntilDone(internal, platform.NewHTTPServer(platform.MetricsHandler(reg, w.Ready)), mlis, 5*time.Second)
		}()
	} else {
		errc <- nil
	}
	err := w.Run(ctx)
	stopInternal()
	if merr := <-errc; err == nil {
		err = merr
	}
	return err
}
