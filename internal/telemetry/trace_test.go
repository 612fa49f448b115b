package telemetry_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mallplatform/partnerapi/internal/telemetry"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

// A partner's traceparent: the gateway links it but does not adopt it.
const partnerTraceID = "4bf92f3577b34da6a3ce929d0e0e4736"

// endSignal holds a value once a span has ended since it was last read.
// Registered after the recorder, it fires once the recorder has the span,
// so a test waiting for one looks again when something ended, not on a timer.
type endSignal chan struct{}

func (e endSignal) OnStart(context.Context, sdktrace.ReadWriteSpan) {}

func (e endSignal) OnEnd(sdktrace.ReadOnlySpan) {
	select {
	case e <- struct{}{}:
	default:
	}
}

func (e endSignal) Shutdown(context.Context) error   { return nil }
func (e endSignal) ForceFlush(context.Context) error { return nil }

// One signed request is one trace: the gateway's server span, its gRPC
// client span, core's server span under it, and the PostgreSQL statements
// core ran, under core's span; the request id the partner sees is an
// attribute of both tiers' spans.
func TestOneTraceSpansGatewayCoreAndDatabase(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	ends := make(endSignal, 1)
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec), sdktrace.WithSpanProcessor(ends))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	env := testenv.Start(t, testenv.Options{Postgres: true, Tracing: telemetry.New(tp, nil)})
	client := env.Client(t, "full", 0)

	req, err := client.NewRequest(context.Background(), sdk.Request{Method: "GET", Path: "/open/v1/orders?limit=2", ExtraHeaders: http.Header{
		"Traceparent": {"00-" + partnerTraceID + "-00f067aa0ba902b7-01"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	rid := resp.Header.Get("X-Request-Id")

	// The gateway's span ends after the answer is written, and core's
	// when gRPC has finished the call on core's side, which may come after
	// the gateway has answered: wait for both, looking again each time a
	// span ends.
	var gw sdktrace.ReadOnlySpan
	coreEnded := func() bool {
		for _, s := range rec.Ended() {
			if s.SpanKind() == trace.SpanKindServer && s.Name() == "mp.orders.v1.OrdersService/ListOrders" &&
				s.SpanContext().TraceID() == gw.SpanContext().TraceID() {
				return true
			}
		}
		return false
	}
	timeout := time.After(10 * time.Second)
	for {
		for _, s := range rec.Ended() {
			if s.SpanKind() == trace.SpanKindServer && attr(s, telemetry.AttrRequestID) == rid && strings.Contains(s.InstrumentationScope().Name, "otelhttp") {
				gw = s
			}
		}
		if gw != nil && coreEnded() {
			break
		}
		select {
		case <-ends:
		case <-timeout:
			if gw == nil {
				t.Fatalf("no gateway span with request id %s among %d spans", rid, len(rec.Ended()))
			}
			t.Fatalf("no core span in the gateway's trace %s among %d spans", gw.SpanContext().TraceID(), len(rec.Ended()))
		}
	}
	if gw.Name() != "GET /open/v1/orders" || attr(gw, "http.route") != "/open/v1/orders" {
		t.Errorf("gateway span %q, route %q", gw.Name(), attr(gw, "http.route"))
	}
	if got, want := attr(gw, telemetry.AttrClientID), env.Creds.Apps["full"].ClientID; got != want {
		t.Errorf("gateway span client id %q, want %q", got, want)
	}
	if gw.Parent().IsValid() || gw.SpanContext().TraceID().String() == partnerTraceID {
		t.Errorf("the partner's traceparent became the parent: trace %s parent %v", gw.SpanContext().TraceID(), gw.Parent())
	}
	if links := gw.Links(); len(links) != 1 || links[0].SpanContext.TraceID().String() != partnerTraceID {
		t.Errorf("the partner's trace is not linked: %v", links)
	}

	traceID := gw.SpanContext().TraceID()
	var inTrace []sdktrace.ReadOnlySpan
	byID := map[trace.SpanID]sdktrace.ReadOnlySpan{}
	for _, s := range rec.Ended() {
		if s.SpanContext().TraceID() == traceID {
			inTrace = append(inTrace, s)
			byID[s.SpanContext().SpanID()] = s
		}
	}
	// under reports whether s descends from ancestor within the trace.
	under := func(s, ancestor sdktrace.ReadOnlySpan) bool {
		for p, ok := byID[s.Parent().SpanID()]; ok; p, ok = byID[p.Parent().SpanID()] {
			if p.SpanContext().SpanID() == ancestor.SpanContext().SpanID() {
				return true
			}
		}
		return false
	}
	var coreSpan sdktrace.ReadOnlySpan
	for _, s := range inTrace {
		if s.SpanKind() == trace.SpanKindServer && s.Name() == "mp.orders.v1.OrdersService/ListOrders" {
			coreSpan = s
		}
	}
	if coreSpan == nil {
		t.Fatalf("no core span in the gateway's trace: %v", names(inTrace))
	}
	if parent := byID[coreSpan.Parent().SpanID()]; parent == nil || parent.SpanKind() != trace.SpanKindClient || byID[parent.Parent().SpanID()] != gw {
		t.Errorf("core's span is not under the gateway's gRPC client span: %v", names(inTrace))
	}
	if got := attr(coreSpan, telemetry.AttrRequestID); got != rid {
		t.Errorf("core span request id %q, want %q", got, rid)
	}
	var statements []string
	for _, s := range inTrace {
		if q := attr(s, "db.query.text"); q != "" && under(s, coreSpan) {
			statements = append(statements, q)
		}
	}
	found := false
	for _, q := range statements {
		if strings.Contains(q, "orders") {
			found = true
		}
	}
	if !found {
		t.Errorf("no statement on the orders table under core's span; statements: %q; spans: %v", statements, names(inTrace))
	}
	for _, s := range inTrace {
		for _, kv := range s.Attributes() {
			if kv.Key == "pgx.query.parameters" {
				t.Errorf("span %q records statement arguments", s.Name())
			}
		}
	}
}

func attr(s sdktrace.ReadOnlySpan, key attribute.Key) string {
	for _, kv := range s.Attributes() {
		if kv.Key == key {
			return kv.Value.String()
		}
	}
	return ""
}

func names(spans []sdktrace.ReadOnlySpan) []string {
	out := make([]string, 0, len(spans))
	for _, s := range spans {
		out = append(out, s.SpanKind().String()+" "+s.Name())
	}
	return out
}
