// Package telemetry switches OpenTelemetry tracing on from the standard
// OTEL_* environment variables and hands each tier the instrumentation it
// needs: otelhttp on the gateway's partner port, otelgrpc stats handlers on
// both ends of the gateway → core link, otelpgx on core's PostgreSQL pool.
//
// Tracing is off unless an OTLP endpoint is configured (see FromEnv). Off,
// a *Tracing is nil and every method hands back nothing to install: no
// handler wraps a request, no stats handler sees an RPC, no tracer sees a
// statement. The only trace calls left on the request path are
// trace.SpanFromContext lookups that find no span.
package telemetry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/exaring/otelpgx"
	"github.com/jackc/pgx/v5"
	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
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

// New is tracing to tp (tests pass an SDK provider with an in-memory
// recorder). Shutdown leaves tp to its owner.
func New(tp trace.TracerProvider) *Tracing {
	return &Tracing{tp: tp, shutdown: func(context.Context) error { return nil }}
}

// FromEnv turns tracing on when the environment configures an OTLP
// endpoint: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT
// is the switch. OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none keep
// it off whatever else is set. Everything else is the exporters' and the
// SDK's own reading of the standard variables: the protocol
// (OTEL_EXPORTER_OTLP[_TRACES]_PROTOCOL: http/protobuf, the default, or
// grpc), headers, certificates, timeout and compression, the sampler
// (OTEL_TRACES_SAMPLER[_ARG]), the batch processor (OTEL_BSP_*), and the
// resource (OTEL_SERVICE_NAME, default service; OTEL_RESOURCE_ATTRIBUTES).
// It returns nil, and no error, when tracing stays off.
func FromEnv(ctx context.Context, service string) (*Tracing, error) {
	if strings.EqualFold(os.Getenv("OTEL_SDK_DISABLED"), "true") {
		return nil, nil
	}
	switch exp := strings.TrimSpace(os.Getenv("OTEL_TRACES_EXPORTER")); exp {
	case "none":
		return nil, nil
	case "", "otlp":
	default:
		return nil, fmt.Errorf("telemetry: OTEL_TRACES_EXPORTER=%q: only otlp (or none) is supported", exp)
	}
	if os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") == "" && os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == "" {
		return nil, nil
	}
	protocol := os.Getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
	if protocol == "" {
		protocol = os.Getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	var (
		exp sdktrace.SpanExporter
		err error
	)
	switch protocol {
	case "", "http/protobuf":
		exp, err = otlptracehttp.New(ctx)
	case "grpc":
		exp, err = otlptracegrpc.New(ctx)
	default:
		return nil, fmt.Errorf("telemetry: OTLP protocol %q: use http/protobuf or grpc", protocol)
	}
	if err != nil {
		// The exporters' errors name the endpoint, never the headers.
		return nil, fmt.Errorf("telemetry: OTLP trace exporter: %w", err)
	}
	// The environment's resource (OTEL_SERVICE_NAME,
	// OTEL_RESOURCE_ATTRIBUTES) overrides the role's default name.
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(attribute.String("service.name", service)))
	if err == nil {
		var env *resource.Resource
		if env, err = resource.New(ctx, resource.WithFromEnv()); err == nil {
			res, err = resource.Merge(res, env)
		}
	}
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		_ = exp.Shutdown(ctx)
		return nil, fmt.Errorf("telemetry: resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	return &Tracing{tp: tp, shutdown: tp.Shutdown}, nil
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
		otelpgx.WithTrimSQLInSpanName(),
	)
}

// Recording returns the span of ctx when one is recording. Callers build
// attributes only then: with tracing off this is a context lookup, and
// nothing is allocated.
func Recording(ctx context.Context) (trace.Span, bool) {
	span := trace.SpanFromContext(ctx)
	return span, span.IsRecording()
}
