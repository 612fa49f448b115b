package gateway_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/test/bufconn"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/gateway/admission"
	credentialsv1 "github.com/mallplatform/partnerapi/gen/mp/credentials/v1"
	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	"github.com/mallplatform/partnerapi/internal/faultnet"
	"github.com/mallplatform/partnerapi/internal/platform"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

const faultToken = "fault-test-gateway-token"

// heldCore answers credential lookups only once release is closed (or the
// call's context ends), and serves one order and the health service.
type heldCore struct {
	credentialsv1.UnimplementedCredentialServiceServer
	ordersv1.UnimplementedOrdersServiceServer
	secret  string
	called  chan struct{}
	release chan struct{}
}

func (c *heldCore) GetAppCredentials(ctx context.Context, _ *credentialsv1.GetAppCredentialsRequest) (*credentialsv1.GetAppCredentialsResponse, error) {
	c.called <- struct{}{}
	select {
	case <-c.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &credentialsv1.GetAppCredentialsResponse{Data: &credentialsv1.AppCredentials{
		AppId: "app_1", ClientId: "test_held", AccountId: "acc_1", Environment: "sandbox", Active: true,
		Scopes: []string{"orders:read"}, Secrets: []*credentialsv1.AppSecret{{Secret: []byte(c.secret)}},
	}}, nil
}

func (c *heldCore) GetOrder(context.Context, *ordersv1.GetOrderRequest) (*ordersv1.OrderResponse, error) {
	return &ordersv1.OrderResponse{Data: &ordersv1.Order{Id: "ord_1", SellerId: "slr_1"}}, nil
}

// serveCore serves register's services and health over memory and returns
// a connection to them.
func serveCore(t *testing.T, register func(*grpc.Server)) (*grpc.ClientConn, *health.Server) {
	t.Helper()
	gs := grpc.NewServer()
	register(gs)
	hs := health.NewServer()
	healthpb.RegisterHealthServer(gs, hs)
	lis := bufconn.Listen(1 << 20)
	go func() { _ = gs.Serve(lis) }()
	t.Cleanup(gs.Stop)
	conn, err := platform.DialCore("passthrough:///core", faultToken, grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
		return lis.DialContext(ctx)
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn, hs
}

// frozenCore is a connection to a core that accepts and never answers.
func frozenCore(t *testing.T) *grpc.ClientConn {
	t.Helper()
	conn, err := platform.DialCore(faultnet.Frozen(t), faultToken)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

func newGateway(t *testing.T, cfg gateway.Config) *gateway.Gateway {
	t.Helper()
	cfg.Environment, cfg.GatewayToken = gateway.EnvSandbox, faultToken
	if cfg.Admission == nil {
		cfg.Admission = admission.NewMemory(admission.MemoryConfig{})
	}
	t.Cleanup(func() { _ = cfg.Admission.Close() })
	gw, err := gateway.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return gw
}

func signedClient(t *testing.T, baseURL, clientID, secret string) *sdk.Client {
	t.Helper()
	c, err := sdk.New(sdk.Config{BaseURL: baseURL, ClientID: clientID, ClientSecret: secret})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// timedSend sends one signed request and returns the answer and how long it
// took.
func timedSend(t *testing.T, c *sdk.Client, req sdk.Request) (*sdk.Response, time.Duration) {
	t.Helper()
	start := time.Now()
	r, err := c.DoSigned(context.Background(), req)
	if err != nil {
		t.Error(err)
		return nil, time.Since(start)
	}
	return r, time.Since(start)
}

// With core frozen, a cold app's requests (credentials not cached) answer
// 503 SERVICE_UNAVAILABLE once the credential lookup's own deadline (2 s by
// default) passes, all of them together: they share the one lookup, which
// no longer waits without a deadline (about 40 s before).
func TestFrozenCoreColdAppAnswersWithinTheLookupDeadline(t *testing.T) {
	gw := newGateway(t, gateway.Config{Core: frozenCore(t)})
	srv := httptest.NewServer(gw)
	defer srv.Close()
	c := signedClient(t, srv.URL, "test_cold", "cold-app-secret")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			r, took := timedSend(t, c, sdk.Request{Method: "GET", Path: "/open/v1/usage"})
			if r == nil {
				return
			}
			expectError(t, r, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
			if r.Header.Get("Retry-After") == "" {
				t.Error("503 without Retry-After")
			}
			// The default lookup deadline is 2 s; allow for a loaded machine.
			if took > 4*time.Second {
				t.Errorf("answered after %v", took)
			}
			t.Logf("frozen core, cold app: 503 after %v", took.Round(10*time.Millisecond))
		})
	}
	wg.Wait()
}

// The lookup that requests of one app share does not end with the request
// that started it: that client hanging up leaves the others' lookup running.
func TestCredentialLookupOutlivesTheRequestThatStartedIt(t *testing.T) {
	core := &heldCore{secret: "held-app-secret-held-app", called: make(chan struct{}, 4), release: make(chan struct{})}
	conn, _ := serveCore(t, func(s *grpc.Server) {
		credentialsv1.RegisterCredentialServiceServer(s, core)
		ordersv1.RegisterOrdersServiceServer(s, core)
	})
	gw := newGateway(t, gateway.Config{Core: conn})
	waiting, stopped := make(chan struct{}, 4), make(chan struct{}, 4)
	gateway.OnCredentialWait(gw, func(string) func(error) {
		waiting <- struct{}{}
		return func(error) { stopped <- struct{}{} }
	})
	srv := httptest.NewServer(gw)
	defer srv.Close()
	c := signedClient(t, srv.URL, "test_held", core.secret).WithSeller("slr_1", "mpat_heldheldheldheld")
	order := sdk.Request{Method: "GET", Path: "/open/v1/orders/ord_1"}

	firstCtx, hangUp := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		_, err := c.DoSigned(firstCtx, order)
		first <- err
	}()
	<-core.called // the first request's lookup is in core
	<-waiting     // and the first request waits on it
	second := make(chan *sdk.Response, 1)
	go func() {
		r, _ := timedSend(t, c, order)
		second <- r
	}()
	<-waiting // the second request waits on the lookup the first started
	hangUp()
	if err := <-first; !errors.Is(err, context.Canceled) {
		t.Fatalf("first request: %v, want it cancelled", err)
	}
	// The gateway has seen the hang-up (the first request no longer waits):
	// whatever the hang-up does to the lookup is done before core answers.
	<-stopped
	close(core.release)
	r := <-second
	if r == nil {
		t.FailNow()
	}
	if r.Status != http.StatusOK {
		t.Fatalf("the request sharing the lookup: %d %s", r.Status, r.Body)
	}
	if n := len(core.called); n != 0 {
		t.Errorf("core was asked %d more times, want the one shared lookup", n)
	}
}

// With Redis frozen (accepting, never answering), a request answers 503
// SERVICE_UNAVAILABLE with Retry-After within the admission deadline (300
// ms by default), not after the ~11 s it took a dead connection to be
// noticed.
func TestFrozenRedisAnswers503Quickly(t *testing.T) {
	store, err := admission.NewRedis(admission.RedisConfig{URL: "redis://" + faultnet.Frozen(t)})
	if err != nil {
		t.Fatal(err)
	}
	env := testenv.Start(t, testenv.Options{Admission: store})
	full := env.Client(t, "full", -1)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			r, took := timedSend(t, full, sdk.Request{Method: "GET", Path: "/open/v1/usage"})
			if r == nil {
				return
			}
			expectError(t, r, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
			if r.Header.Get("Retry-After") == "" {
				t.Error("503 without Retry-After")
			}
			if took > time.Second {
				t.Errorf("answered after %v", took)
			}
			t.Logf("frozen Redis: 503 after %v", took.Round(time.Millisecond))
		})
	}
	wg.Wait()
}

// Ready is what /readyz on the internal port reports: the admission store
// and core answer, each within a second.
func TestReadyReflectsRedisAndCore(t *testing.T) {
	core, hs := serveCore(t, func(*grpc.Server) {})
	redisURL := "redis://" + redisAddrForTests()
	cases := []struct {
		name  string
		core  *grpc.ClientConn
		store func(t *testing.T) admission.Store
		ready bool
	}{
		{"memory store, core serving", core, nil, true},
		{"redis answering", core, func(t *testing.T) admission.Store { return redisAt(t, redisURL) }, true},
		{"redis frozen", core, func(t *testing.T) admission.Store { return redisAt(t, "redis://"+faultnet.Frozen(t)) }, false},
		{"redis refusing connections", core, func(t *testing.T) admission.Store { return redisAt(t, "redis://"+closedAddr(t)) }, false},
		{"core frozen", frozenCore(t), nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := gateway.Config{Core: tc.core}
			if tc.store != nil {
				cfg.Admission = tc.store(t)
			}
			gw := newGateway(t, cfg)
			start := time.Now()
			err := gw.Ready(context.Background())
			took := time.Since(start)
			if (err == nil) != tc.ready {
				t.Fatalf("Ready: %v, want ready %v", err, tc.ready)
			}
			if took > 2*time.Second {
				t.Fatalf("Ready took %v", took)
			}
			t.Logf("%s: %v after %v", tc.name, err, took.Round(time.Millisecond))
		})
	}
	t.Run("core not serving", func(t *testing.T) {
		gw := newGateway(t, gateway.Config{Core: core})
		hs.SetServingStatus("", healthpb.HealthCheckResponse_NOT_SERVING)
		defer hs.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
		if err := gw.Ready(context.Background()); err == nil || !strings.Contains(err.Error(), "NOT_SERVING") {
			t.Fatalf("Ready: %v", err)
		}
	})
}

// redisAt is a Redis store at url. On the machine's Redis it checks that
// Redis answers: without it the test is skipped, except in CI.
func redisAt(t *testing.T, url string) admission.Store {
	t.Helper()
	s, err := admission.NewRedis(admission.RedisConfig{URL: url, Prefix: "mp-test-ready:"})
	if err != nil {
		t.Fatal(err)
	}
	if url == "redis://"+redisAddrForTests() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := s.Ping(ctx); err != nil {
			_ = s.Close()
			skipWithoutRedis(t, err)
		}
	}
	return s
}

func redisAddrForTests() string {
	if a := os.Getenv("REDIS_ADDR"); a != "" {
		return a
	}
	return "127.0.0.1:6379"
}

func closedAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// skipWithoutRedis skips a test that needs the machine's Redis, except in CI
// where Redis is part of the contract.
func skipWithoutRedis(t *testing.T, err error) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("Redis is required in CI: %v", err)
	}
	t.Skipf("Redis not answering: %v", err)
}
