package otlpenv_test

import (
	"context"
	"testing"

	"github.com/mallplatform/partnerapi/internal/telemetry/otlpenv"
)

// Tracing is off unless an OTLP endpoint is configured; the standard
// switches turn it off again; an exporter the platform does not ship stops
// the role rather than tracing nowhere.
func TestFromEnvSwitch(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     map[string]string
		on      bool
		wantErr bool
	}{
		{name: "nothing set", env: nil},
		{name: "sampler alone", env: map[string]string{"OTEL_TRACES_SAMPLER": "always_on", "OTEL_SERVICE_NAME": "x"}},
		{name: "endpoint", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, on: true},
		{name: "traces endpoint over grpc", env: map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, on: true},
		{name: "sdk disabled", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SDK_DISABLED": "true"}},
		{name: "exporter none", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_TRACES_EXPORTER": "none"}},
		{name: "console exporter", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_TRACES_EXPORTER": "console"}, wantErr: true},
		{name: "http/json", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"}, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{"OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"} {
				t.Setenv(k, "")
			}
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			tr, err := otlpenv.FromEnv(context.Background(), "mpserver-test")
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if tr.Enabled() != tc.on {
				t.Fatalf("enabled = %v, want %v", tr.Enabled(), tc.on)
			}
			// Off, nothing is installed anywhere.
			if !tc.on && (tr.ServerOptions() != nil || tr.DialOptions() != nil || tr.QueryTracer() != nil) {
				t.Fatal("tracing off still installs instrumentation")
			}
			if err := tr.Shutdown(context.Background()); err != nil {
				t.Fatal(err)
			}
		})
	}
}
