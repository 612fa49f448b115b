package main

import (
	"context"
	"time"

	"go.opentelemetry.io/otel"
	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/internal/telemetry"
	"github.com/mallplatform/partnerapi/internal/telemetry/otlpenv"
)

// startTracing reads the standard OTEL_* variables for a role (off unless an
// OTLP endpoint is set; see telemetry.FromEnv). stop flushes the spans still
// buffered and is safe to call when tracing is off.
func startTracing(ctx context.Context, log *zap.Logger, service string) (tr *telemetry.Tracing, stop func(), err error) {
	tr, err = otlpenv.FromEnv(ctx, service)
	if err != nil {
		return nil, nil, err
	}
	if !tr.Enabled() {
		return nil, func() {}, nil
	}
	// Export failures are the SDK's to report: into the role's log rather
	// than the standard logger's unstructured lines.
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { log.Warn("tracing", zap.Error(err)) }))
	log.Info("tracing on: spans are exported over OTLP")
	return tr, func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := tr.Shutdown(sctx); err != nil {
			log.Warn("tracing: flushing spans on exit", zap.Error(err))
		}
	}, nil
}
