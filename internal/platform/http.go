package platform

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/pprof"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// NewHTTPServer returns an http.Server with the platform's timeouts: slow
// clients cannot hold connections open, and headers are bounded. "OPTIONS *"
// goes to h like every other request instead of net/http's built-in answer,
// so that on the partner port it gets the gateway's envelope too.
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:                      h,
		DisableGeneralOptionsHandler: true,
		ReadHeaderTimeout:            5 * time.Second,
		ReadTimeout:                  30 * time.Second,
		WriteTimeout:                 30 * time.Second,
		IdleTimeout:                  120 * time.Second,
		MaxHeaderBytes:               64 << 10,
	}
}

// ServeUntilDone serves srv on lis until ctx ends, then shuts down
// gracefully within grace: in-flight requests finish, new ones are refused.
func ServeUntilDone(ctx context.Context, srv *http.Server, lis net.Listener, grace time.Duration) error {
	return ServeDraining(ctx, srv, lis, nil, 0, grace)
}

// Drain is the state of a server that has been told to stop and is still
// serving: its readiness fails (the load balancer stops sending it new
// connections) and every answer closes its connection (a keep-alive client
// opens its next one elsewhere), so that when the server finally stops no
// client is caught sending on a connection as it is closed. The zero Drain
// is not draining.
type Drain struct {
	on atomic.Bool
	// after times the drain in ServeDraining (nil: time.After); a test
	// sets it to learn when the drain begins and to choose when it ends.
	after func(time.Duration) <-chan time.Time
}

// Begin starts draining; it cannot be undone.
func (d *Drain) Begin() { d.on.Store(true) }

// Draining reports whether Begin was called.
func (d *Drain) Draining() bool { return d.on.Load() }

// Handler wraps h: while draining, answers carry "Connection: close", which
// makes net/http close the connection once the answer is written.
func (d *Drain) Handler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if d.on.Load() {
			w.Header().Set("Connection", "close")
		}
		h.ServeHTTP(w, r)
	})
}

// Ready wraps a readiness check (nil: always ready) so that it fails while
// draining.
func (d *Drain) Ready(check func(context.Context) error) func(context.Context) error {
	return func(ctx context.Context) error {
		if d.on.Load() {
			return errDraining
		}
		if check == nil {
			return nil
		}
		return check(ctx)
	}
}

var errDraining = errors.New("draining: the server is stopping")

// ServeDraining serves srv on lis until ctx ends. Then, with a Drain, it
// begins draining and keeps serving for delay (srv's handler and readiness
// must be wrapped by d), and finally shuts down within grace: in-flight
// requests finish, new connections are refused.
func ServeDraining(ctx context.Context, srv *http.Server, lis net.Listener, d *Drain, delay, grace time.Duration) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(lis) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	if d != nil {
		d.Begin()
		after := d.after
		if after == nil {
			after = time.After
		}
		select {
		case <-after(delay):
		case err := <-errc:
			return err
		}
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	return err
}

// MetricsHandler serves the internal port: /metrics for reg, /healthz and
// /readyz, and the Go profiler under /debug/pprof/ for operators (the port
// is never exposed to partners).
func MetricsHandler(reg *prometheus.Registry, ready func(context.Context) error) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	AddHealth(mux, ready)
	return mux
}

// AddHealth adds /healthz (the process answers) and /readyz (its
// dependencies answer) to mux.
func AddHealth(mux *http.ServeMux, ready func(context.Context) error) {
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"ok"}`))
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if ready != nil {
			if err := ready(ctx); err != nil {
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = w.Write([]byte(`{"status":"unavailable"}`))
				return
			}
		}
		_, _ = w.Write([]byte(`{"status":"ready"}`))
	})
}

// NewRegistry returns a Prometheus registry with the Go and process collectors.
func NewRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}
