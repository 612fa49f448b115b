// Package otlpenv builds the OTLP trace exporter from the standard OTEL_*
// environment variables. It is apart from telemetry, and imported by the
// binary alone, because the OTLP exporters register gRPC's gzip compressor
// when linked: every gRPC client in the process then advertises it in a
// grpc-accept-encoding header on each call. The gateway and core packages,
// their tests and benchmarks stay free of that; the mpserver binary carries
// it (docs/decisions.md, "Observability").
package otlpenv

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/mallplatform/partnerapi/internal/telemetry"
)

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
func FromEnv(ctx context.Context, service string) (*telemetry.Tracing, error) {
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
	return telemetry.New(tp, tp.Shutdown), nil
}
