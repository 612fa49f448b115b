package main

import (
	"context"
	"errors"
	"net"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/internal/platform"
)

// gatewayShutdownGrace is how long in-flight partner requests may take to
// finish once the drain is over: above the 10 s core deadline plus the
// credential lookup.
const gatewayShutdownGrace = 20 * time.Second

// serveGateway runs the partner listener and the internal one until ctx
// ends, then drains for drainDelay and stops.
//
// The partner port serves the gateway alone: every request, whatever its
// path, goes through its pipeline (request id, address limiter, the one
// error writer), and nothing else answers there (no redirect to a cleaned
// path, no health endpoint). /metrics, /healthz and /readyz are on the
// internal port, which the orchestrator probes; readiness fails from the
// moment the drain begins, and the internal port stays up until the
// partner port has stopped so the probes see it.
func serveGateway(ctx context.Context, log *zap.Logger, gw *gateway.Gateway, httpAddr, metricsAddr string, reg *prometheus.Registry, drainDelay time.Duration) error {
	lis, err := net.Listen("tcp", httpAddr)
	if err != nil {
		return err
	}
	return serveGatewayOn(ctx, log, gw, lis, metricsAddr, reg, drainDelay)
}

// serveGatewayOn is serveGateway on a listener of the partner port.
func serveGatewayOn(ctx context.Context, log *zap.Logger, gw *gateway.Gateway, lis net.Listener, metricsAddr string, reg *prometheus.Registry, drainDelay time.Duration) error {
	var drain platform.Drain
	internal, stopInternal := context.WithCancel(context.Background())
	defer stopInternal()
	errc := make(chan error, 1)
	if metricsAddr != "" {
		mlis, err := net.Listen("tcp", metricsAddr)
		if err != nil {
			lis.Close()
			return err
		}
		msrv := platform.NewHTTPServer(platform.MetricsHandler(reg, drain.Ready(gw.Ready)))
		log.Info("internal port listening", zap.String("addr", mlis.Addr().String()))
		go func() { errc <- platform.ServeUntilDone(internal, msrv, mlis, 5*time.Second) }()
	} else {
		errc <- nil
	}
	go func() {
		<-ctx.Done()
		log.Info("stopping: readiness fails and answers close their connections", zap.Duration("drain", drainDelay))
	}()
	log.Info("gateway listening", zap.String("addr", lis.Addr().String()))
	err := platform.ServeDraining(ctx, platform.NewHTTPServer(drain.Handler(gw)), lis, &drain, drainDelay, gatewayShutdownGrace)
	stopInternal()
	if merr := <-errc; err == nil {
		err = merr
	}
	return err
}

// newAdmissionStore is Redis when a URL or an address is given, else
// memory (one replica only).
func newAdmissionStore(redisURL, redisAddr string, metrics *admission.RedisMetrics) (admission.Store, error) {
	switch {
	case redisURL != "" && redisAddr != "":
		return nil, errors.New("give Redis as --redis-url or --redis-addr, not both")
	case redisURL != "":
		return admission.NewRedis(admission.RedisConfig{URL: redisURL, Metrics: metrics})
	case redisAddr != "":
		return admission.NewRedis(admission.RedisConfig{Addr: redisAddr, Metrics: metrics})
	}
	return admission.NewMemory(admission.MemoryConfig{}), nil
}
