package gateway_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/gateway/iplimit"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/sdk/signing"
)

// observed is a platform whose gateway records into reg and logs.
func observed(t *testing.T, opts testenv.Options) (*testenv.Env, *prometheus.Registry, *observer.ObservedLogs) {
	t.Helper()
	reg := prometheus.NewRegistry()
	core, logs := observer.New(zapcore.InfoLevel)
	opts.Mutate = func(c *gateway.Config) {
		c.Metrics = gateway.NewMetrics(reg)
		c.Logger = zap.New(core)
	}
	return testenv.Start(t, opts), reg, logs
}

// metricValue is the value of the counter (or a histogram's count) named
// name whose labels include want; 0 when there is none.
func metricValue(t *testing.T, reg *prometheus.Registry, name string, want map[string]string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	metrics:
		for _, m := range f.GetMetric() {
			have := map[string]string{}
			for _, lp := range m.GetLabel() {
				have[lp.GetName()] = lp.GetValue()
			}
			for k, v := range want {
				if have[k] != v {
					continue metrics
				}
			}
			if c := m.GetCounter(); c != nil {
				total += c.GetValue()
			}
			if h := m.GetHistogram(); h != nil {
				total += float64(h.GetSampleCount())
			}
		}
	}
	return total
}

// lastLine is the access log line of the request with id rid.
func lastLine(t *testing.T, logs *observer.ObservedLogs, rid string) map[string]any {
	t.Helper()
	for _, e := range logs.FilterMessage("request").All() {
		if f := e.ContextMap(); f["request_id"] == rid {
			return f
		}
	}
	t.Fatalf("no access line for request %s", rid)
	return nil
}

// Every request is counted by route, status and error code; the gateway's
// own refusals also by reason; the access line names the client id and the
// error code. Names and help pass Prometheus's lint.
func TestRequestsAndRejectionsAreCountedAndLogged(t *testing.T) {
	env, reg, logs := observed(t, testenv.Options{})
	full := env.Client(t, "full", 0)
	clientID := env.Creds.Apps["full"].ClientID

	ok := send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/orders", RawQuery: "limit=1"})
	if ok.Status != 200 {
		t.Fatalf("list: %d %s", ok.Status, ok.Body)
	}
	line := lastLine(t, logs, ok.Header.Get("X-Request-Id"))
	if line["client_id"] != clientID || line["error_code"] != "" || line["route"] != "/open/v1/orders" {
		t.Errorf("success line: %v", line)
	}
	if got := metricValue(t, reg, "mp_gateway_requests_total", map[string]string{"route": "/open/v1/orders", "method": "GET", "status": "200", "code": ""}); got != 1 {
		t.Errorf("requests_total for the success = %v", got)
	}

	// core's answer: its code is recorded, and it is no rejection.
	nf := send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/orders/ord_missing"})
	expectError(t, nf, 404, "NOT_FOUND")
	if line := lastLine(t, logs, nf.Header.Get("X-Request-Id")); line["error_code"] != "NOT_FOUND" || line["client_id"] != clientID {
		t.Errorf("core error line: %v", line)
	}
	if got := metricValue(t, reg, "mp_gateway_requests_total", map[string]string{"route": "/open/v1/orders/{id}", "status": "404", "code": "NOT_FOUND"}); got != 1 {
		t.Errorf("requests_total NOT_FOUND = %v", got)
	}

	// A bad signature: the line names the client id the request claimed.
	bad := send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/usage", ExtraHeaders: http.Header{signing.HeaderSignature: {strings.Repeat("0", 64)}}})
	expectError(t, bad, 401, "INVALID_SIGNATURE")
	if line := lastLine(t, logs, bad.Header.Get("X-Request-Id")); line["error_code"] != "INVALID_SIGNATURE" || line["client_id"] != clientID {
		t.Errorf("signature line: %v", line)
	}

	// A replay: the same signed request twice.
	req, err := full.NewRequest(ctx, sdk.Request{Method: "GET", Path: "/open/v1/usage"})
	if err != nil {
		t.Fatal(err)
	}
	replay := req.Clone(ctx)
	if r := do(t, req); r.Status != 200 {
		t.Fatalf("first: %d %s", r.Status, r.Body)
	}
	expectError(t, do(t, replay), 401, "NONCE_REUSED")

	big := bytes.Repeat([]byte("x"), 1<<20+1)
	expectError(t, send(t, full, sdk.Request{Method: "POST", Path: "/open/v1/products", Body: big}), 413, "PAYLOAD_TOO_LARGE")

	for reason, want := range map[string]float64{"signature": 1, "replay": 1, "body_size": 1, "rate_limit": 0, "timestamp": 0} {
		if got := metricValue(t, reg, "mp_gateway_rejections_total", map[string]string{"reason": reason}); got != want {
			t.Errorf("rejections_total{reason=%q} = %v, want %v", reason, got, want)
		}
	}
	if got := metricValue(t, reg, "mp_gateway_request_duration_seconds", nil); got != 6 {
		t.Errorf("request_duration_seconds counts %v requests, want 6", got)
	}
	if problems, err := testutil.GatherAndLint(reg); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}

// A rate-limit refusal is counted with the bucket that refused it.
func TestRateLimitRejectionsNameTheirBucket(t *testing.T) {
	t.Run("app", func(t *testing.T) {
		env, reg, _ := observed(t, testenv.Options{Limits: admission.Limits{AppPerMinute: 1, AccountPerMinute: 100, SandboxPerMinute: 100}})
		full := env.Client(t, "full", -1)
		send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/usage"})
		expectError(t, send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/usage"}), 429, "RATE_LIMITED")
		if got := metricValue(t, reg, "mp_gateway_rejections_total", map[string]string{"reason": "rate_limit", "bucket": "app"}); got != 1 {
			t.Errorf("app bucket rejections = %v", got)
		}
	})
	t.Run("ip", func(t *testing.T) {
		reg := prometheus.NewRegistry()
		env := testenv.Start(t, testenv.Options{Mutate: func(c *gateway.Config) {
			c.Metrics = gateway.NewMetrics(reg)
			c.IPLimit = iplimit.Config{RatePerMinute: 1, Burst: 1}
		}})
		full := env.Client(t, "full", -1)
		send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/usage"})
		expectError(t, send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/usage"}), 429, "RATE_LIMITED")
		if got := metricValue(t, reg, "mp_gateway_rejections_total", map[string]string{"reason": "rate_limit", "bucket": "ip"}); got != 1 {
			t.Errorf("ip bucket rejections = %v", got)
		}
	})
}
