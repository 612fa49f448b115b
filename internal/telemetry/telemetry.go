// Package telemetry hands each tier the tracing instrumentation it needs:
// otelhttp on the gateway's partner port, otelgrpc stats handlers on both
// ends of the gateway → core link, otelpgx on core's PostgreSQL pool. The
// exporter and its configuration from the OTEL_* variables live in
// otlpenv, which only the binary imports (see there why).
//
// Tracing is off unless an OTLP endpoint is configured. Off, a *Tracing
// is nil and every method hands back nothing to install: no
// handler wraps a request, no stats handler sees an RPC, no tracer sees a
// statement. The only trace calls left on the request path are
// trace.SpanFromContext lookups that find no span.
package telemetry

import (
	"context"
	"net/http"
	"strings"

	"github.com/exaring/otelpgx"
	"github.com/jackc/pgx/v5"
	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/stats"
)

// Span attributes the platform adds to the instrumentation's own.
const (
	// AttrRequestID is the request id the partner sees in X-Request-Id and
	// in every error body; the gateway and core logs carry the same.
	AttrRequestID = attribute.Key("mp.request_id")
	// AttrClientID is the verified app's client id (gateway spans).
	AttrClientID = attribute.Key("mp.client_id")
	// AttrErrorCode is the platform's error code of a failed request.
	AttrErrorCode = attribute.Key("mp.error_code")
)

// Tracing holds the tracer provider of a process whose tracing is on. A nil
// *Tracing is tracing off.
type Tracing struct {
	tp       trace.TracerProvider
	shutdown func(context.Context) error
}

// New is tracing to tp; shutdown (nil: nothing) flushes it on exit. The
// roles get theirs from otlpenv.FromEnv; tests pass an SDK provider with
// an in-memory recorder.
func New(tp trace.TracerProvider, shutdown func(context.Context) error) *Tracing {
	if shutdown == nil {
		shutdown = func(context.Context) error { return nil }
	}
	return &Tracing{tp: tp, shutdown: shutdown}
}

// Enabled reports whether tracing is on.
func (t *Tracing) Enabled() bool { return t != nil }

// Shutdown flushes the spans still buffered; call it once on exit.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	return t.shutdown(ctx)
}

// propagator is W3C trace context, and nothing from the process-wide
// globals: what crosses the link between the tiers is decided here.
var propagator = propagation.TraceContext{}

// HTTPHandler wraps the partner-facing handler h in a server span per
// request (h itself when off). The partner port is a public endpoint: a
// traceparent a partner sends is linked, not adopted as the parent, so no
// partner picks the platform's trace ids or sampling.
func (t *Tracing) HTTPHandler(h http.Handler, operation string) http.Handler {
	if t == nil {
		return h
	}
	return otelhttp.NewHandler(h, operation,
		otelhttp.WithTracerProvider(t.tp),
		otelhttp.WithMeterProvider(noop.NewMeterProvider()),
		otelhttp.WithPropagators(propagator),
		otelhttp.WithPublicEndpointFn(func(*http.Request) bool { return true }),
	)
}

// notHealth keeps health checks (probes every second or so) out of traces.
func notHealth(info *stats.RPCTagInfo) bool {
	return !strings.HasPrefix(info.FullMethodName, "/grpc.health.v1.")
}

func (t *Tracing) grpcOptions() []otelgrpc.Option {
	return []otelgrpc.Option{
		otelgrpc.WithTracerProvider(t.tp),
		// The platform's gRPC metrics are Prometheus's (grpcmetrics).
		otelgrpc.WithMeterProvider(noop.NewMeterProvider()),
		otelgrpc.WithPropagators(propagator),
		otelgrpc.WithFilter(notHealth),
	}
}

// ServerOptions are core's gRPC server options for tracing (none when off).
func (t *Tracing) ServerOptions() []grpc.ServerOption {
	if t == nil {
		return nil
	}
	return []grpc.ServerOption{grpc.StatsHandler(otelgrpc.NewServerHandler(t.grpcOptions()...))}
}

// DialOptions are the client options of a connection to core (none when
// off): each call is a client span, and its context travels to core.
func (t *Tracing) DialOptions() []grpc.DialOption {
	if t == nil {
		return nil
	}
	return []grpc.DialOption{grpc.WithStatsHandler(otelgrpc.NewClientHandler(t.grpcOptions()...))}
}

// QueryTracer traces each PostgreSQL statement (nil when off). Statements
// are recorded as text, never their arguments: those carry token hashes and
// partner data.
func (t *Tracing) QueryTracer() pgx.QueryTracer {
	if t == nil {
		return nil
	}
	return otelpgx.NewTracer(
		otelpgx.WithTracerProvider(t.tp),
		otelpgx.WithMeterProvider(noop.NewMeterProvider()),
	)
}

// Recording returns the span of ctx when one is recording. Callers build
// attributes only then: with tracing off this is a context lookup, and
// nothing is allocated.
func Recording(ctx context.Context) (trace.Span, bool) {
	span := trace.SpanFromContext(ctx)
	return span, span.IsRecording()
}
