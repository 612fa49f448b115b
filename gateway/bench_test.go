package gateway_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/gateway/iplimit"
	credentialsv1 "github.com/mallplatform/partnerapi/gen/mp/credentials/v1"
	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	"github.com/mallplatform/partnerapi/internal/grpcmetrics"
	"github.com/mallplatform/partnerapi/internal/platform"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/telemetry"
	"github.com/mallplatform/partnerapi/sdk"
)

// stubCore answers instantly with canned data, so the benchmark measures the
// gateway's own work per request: HMAC verification, admission, policy,
// grpc-gateway, the gRPC client round trip over memory and the envelope.
type stubCore struct {
	credentialsv1.UnimplementedCredentialServiceServer
	ordersv1.UnimplementedOrdersServiceServer
	secret []byte
	order  *ordersv1.Order

	// record keeps the incoming metadata of GetOrder calls (off in the
	// benchmark, where copying it would count against the gateway).
	record bool
	mu     sync.Mutex
	lastMD metadata.MD
}

func (s *stubCore) GetAppCredentials(context.Context, *credentialsv1.GetAppCredentialsRequest) (*credentialsv1.GetAppCredentialsResponse, error) {
	return &credentialsv1.GetAppCredentialsResponse{Data: &credentialsv1.AppCredentials{
		AppId: "app_1", ClientId: "test_bench", AccountId: "acc_1", Environment: "sandbox", Active: true,
		Scopes: []string{"orders:read"}, Secrets: []*credentialsv1.AppSecret{{Secret: s.secret}},
	}}, nil
}

func (s *stubCore) GetOrder(ctx context.Context, _ *ordersv1.GetOrderRequest) (*ordersv1.OrderResponse, error) {
	if s.record {
		md, _ := metadata.FromIncomingContext(ctx)
		s.mu.Lock()
		s.lastMD = md
		s.mu.Unlock()
	}
	return &ordersv1.OrderResponse{Data: s.order}, nil
}

func (s *stubCore) lastMetadata() metadata.MD {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastMD
}

func benchOrder() *ordersv1.Order {
	ts := timestamppb.New(time.Date(2026, 11, 1, 2, 3, 4, 0, time.UTC))
	addr := &ordersv1.Address{Name: "Juan Dela Cruz", Line1: "12 Mabini St", City: "Quezon City", Province: "National Capital Region (NCR)", PostalCode: "1100", Country: "PH", Phone: "+639171234567"}
	o := &ordersv1.Order{Id: "ord_1", Status: ordersv1.OrderStatus_ORDER_STATUS_SHIPPED, SellerId: "slr_1", CustomerId: "cus_1", Currency: "PHP",
		Subtotal: 259800, Total: 269800, Shipping: 10000, PaymentStatus: "paid", FulfillmentStatus: "fulfilled", CreatedAt: ts, UpdatedAt: ts,
		ShippingAddress: addr, BillingAddress: addr}
	for i := 0; i < 2; i++ {
		o.Items = append(o.Items, &ordersv1.OrderItem{Id: "itm", OrderId: "ord_1", ProductId: "prd_1", Title: "Ceramic mug", Sku: "MUG-1", Quantity: 1, UnitPrice: 129900, TotalPrice: 129900})
	}
	return o
}

// stubGateway is a gateway in front of a stub core over an in-memory
// connection, with limits that never refuse, and a client signing as the
// stub's app for seller slr_1. dial adds options to the connection to core;
// mutate adjusts the gateway's config.
func stubGateway(tb testing.TB, dial []grpc.DialOption, mutate ...func(*gateway.Config)) (*gateway.Gateway, *sdk.Client, *stubCore) {
	tb.Helper()
	stub := &stubCore{secret: []byte("bench-secret-bench-secret"), order: benchOrder()}
	gs := grpc.NewServer()
	credentialsv1.RegisterCredentialServiceServer(gs, stub)
	ordersv1.RegisterOrdersServiceServer(gs, stub)
	lis := bufconn.Listen(1 << 20)
	go func() { _ = gs.Serve(lis) }()
	tb.Cleanup(gs.Stop)
	conn, err := platform.DialCore("passthrough:///core", "bench-internal-token", append(dial, grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
		return lis.DialContext(ctx)
	}))...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = conn.Close() })
	store := admission.NewMemory(admission.MemoryConfig{})
	tb.Cleanup(func() { _ = store.Close() })
	cfg := gateway.Config{Environment: gateway.EnvSandbox, Core: conn, GatewayToken: "bench-internal-token", Admission: store,
		Limits: admission.Limits{AppPerMinute: 1 << 40, AccountPerMinute: 1 << 40}, IPLimit: iplimit.Config{RatePerMinute: 1 << 30, Burst: 1 << 20}}
	for _, m := range mutate {
		m(&cfg)
	}
	gw, err := gateway.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	client, err := sdk.New(sdk.Config{BaseURL: "http://gateway.test", ClientID: "test_bench", ClientSecret: string(stub.secret)})
	if err != nil {
		tb.Fatal(err)
	}
	return gw, client.WithSeller("slr_1", "mpat_benchbenchbenchbench"), stub
}

// Core receives the metadata the gateway verified and nothing a client
// chose: not the client's Authorization (only the internal credential), no
// X-Forwarded-* of its own, no deadline from its Grpc-Timeout; and of the
// verified state only what the method reads.
func TestCoreReceivesOnlyVerifiedMetadata(t *testing.T) {
	gw, client, stub := stubGateway(t, nil)
	stub.record = true
	req, err := client.NewRequest(context.Background(), sdk.Request{Method: "GET", Path: "/open/v1/orders/ord_1", ExtraHeaders: http.Header{
		"Authorization":    {"Bearer partner-chosen"},
		"X-Forwarded-For":  {"203.0.113.9"},
		"X-Forwarded-Host": {"evil.example"},
		"Grpc-Timeout":     {"1n"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	req.RequestURI, req.RemoteAddr = "/open/v1/orders/ord_1", "192.0.2.1:1234"
	w := httptest.NewRecorder()
	gw.ServeHTTP(w, req)
	if w.Code != http.StatusOK {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	md := stub.lastMetadata()
	if got := md.Get("authorization"); len(got) != 1 || got[0] != "Bearer bench-internal-token" {
		t.Errorf("authorization reaching core: %q", got)
	}
	for _, key := range []string{"x-forwarded-for", "x-forwarded-host", "grpc-timeout"} {
		if v := md.Get(key); len(v) > 0 {
			t.Errorf("%s reached core: %q", key, v)
		}
	}
	if md.Get(principal.KeyApp) == nil || md.Get("x-mp-seller-id")[0] != "slr_1" {
		t.Errorf("the verified principal is missing: %v", md)
	}
	// The rate buckets' state goes only to a method that reports it (the
	// usage route, TestUsageAndRateLimits): it changes with every request.
	if p, ok := principal.FromMetadata(md); !ok || p.AppID != "app_1" || len(p.RateLimits) != 0 {
		t.Errorf("the order read's principal: %+v (decoded: %v)", p, ok)
	}
}

// BenchmarkGatewayOverheadGetOrder is the gateway's own work, without
// metrics and with tracing off.
func BenchmarkGatewayOverheadGetOrder(b *testing.B) {
	gw, client, _ := stubGateway(b, nil)
	benchGetOrder(b, gw, client)
}

// With the gateway role's metrics: the gateway's own, and the standard gRPC
// client metrics on the connection to core; tracing off.
func BenchmarkGatewayOverheadGetOrderWithMetrics(b *testing.B) {
	reg := prometheus.NewRegistry()
	gw, client, _ := stubGateway(b, grpcmetrics.DialOptions(reg), func(c *gateway.Config) { c.Metrics = gateway.NewMetrics(reg) })
	benchGetOrder(b, gw, client)
}

// With tracing on and every trace sampled out at the gateway (the SDK's
// provider, no exporter): what tracing costs the requests it does not keep.
func BenchmarkGatewayOverheadGetOrderTracingUnsampled(b *testing.B) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.NeverSample()))
	tr := telemetry.New(tp, nil)
	gw, client, _ := stubGateway(b, tr.DialOptions(), func(c *gateway.Config) { c.Tracing = tr })
	benchGetOrder(b, gw, client)
}

func benchGetOrder(b *testing.B, gw *gateway.Gateway, client *sdk.Client) {
	var err error
	// Requests are signed outside the timer; each carries a fresh nonce. The
	// first is served before the timer starts: it opens the connection to
	// core, whose handshake a short run would otherwise count.
	reqs := make([]*http.Request, 1+b.N)
	for i := range reqs {
		if reqs[i], err = client.NewRequest(context.Background(), sdk.Request{Method: "GET", Path: "/open/v1/orders/ord_1"}); err != nil {
			b.Fatal(err)
		}
		reqs[i].RequestURI = "/open/v1/orders/ord_1"
		reqs[i].RemoteAddr = "192.0.2.1:1234"
	}
	// One writer, emptied between requests: the response writer is the
	// HTTP server's (net/http makes one per request), not the gateway's work,
	// and httptest.ResponseRecorder copies the header map on WriteHeader.
	w := &benchWriter{header: http.Header{}}
	serve := func(r *http.Request) {
		w.reset()
		gw.ServeHTTP(w, r)
		if w.code != http.StatusOK {
			b.Fatalf("status %d: %s", w.code, w.body)
		}
	}
	serve(reqs[0])
	b.ReportAllocs()
	b.ResetTimer()
	for _, r := range reqs[1:] {
		serve(r)
	}
}

// benchWriter is a response writer that keeps the status and body of one
// answer at a time.
type benchWriter struct {
	header http.Header
	code   int
	body   []byte
}

func (w *benchWriter) Header() http.Header { return w.header }

func (w *benchWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

func (w *benchWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	w.body = append(w.body, b...)
	return len(b), nil
}

func (w *benchWriter) reset() {
	clear(w.header)
	w.code, w.body = 0, w.body[:0]
}
