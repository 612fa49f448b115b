package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/test/bufconn"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/gateway/iplimit"
	"github.com/mallplatform/partnerapi/internal/loopback"
	"github.com/mallplatform/partnerapi/internal/platform"
)

// servedGateway is serveGatewayOn running for a test: a gateway over a core
// that only answers health checks (nothing here reaches a service).
type servedGateway struct {
	public, internal string
	stop             context.CancelFunc
	done             chan error
	health           *health.Server
}

func serveTestGateway(t *testing.T, drainDelay time.Duration) *servedGateway {
	t.Helper()
	gs := grpc.NewServer()
	hs := health.NewServer()
	healthpb.RegisterHealthServer(gs, hs)
	bl := bufconn.Listen(1 << 20)
	go func() { _ = gs.Serve(bl) }()
	t.Cleanup(gs.Stop)
	conn, err := platform.DialCore("passthrough:///core", "serve-test-gateway-token", grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
		return bl.DialContext(ctx)
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	store := admission.NewMemory(admission.MemoryConfig{})
	t.Cleanup(func() { _ = store.Close() })
	// One token a minute refills the address's bucket so slowly that each
	// answer's X-RateLimit-Remaining is below the last one's however slow
	// the machine: the charge is seen, never a refill between requests.
	gw, err := gateway.New(gateway.Config{Environment: gateway.EnvSandbox, Core: conn, GatewayToken: "serve-test-gateway-token", Admission: store,
		IPLimit: iplimit.Config{RatePerMinute: 1, Burst: 100}})
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	internal := freeLocalAddr(t)
	ctx, stop := context.WithCancel(context.Background())
	s := &servedGateway{public: lis.Addr().String(), internal: internal, stop: stop, done: make(chan error, 1), health: hs}
	go func() {
		s.done <- serveGatewayOn(ctx, zap.NewNop(), gw, lis, internal, platform.NewRegistry(), drainDelay)
	}()
	t.Cleanup(func() {
		stop()
		<-s.done
	})
	waitStatus(t, "http://"+internal+"/readyz", http.StatusOK)
	return s
}

func freeLocalAddr(t *testing.T) string {
	t.Helper()
	addr, err := loopback.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	return addr
}

func waitStatus(t *testing.T, url string, want int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == want {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never answered %d (last: %v %v)", url, want, resp, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// rawAnswer is an answer read off the wire.
type rawAnswer struct {
	StatusCode int
	Header     http.Header
}

// rawRequest sends the request line as written (no client normalising the
// path) and reads the answer.
func rawRequest(t *testing.T, addr, requestLine string) (rawAnswer, string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, requestLine+"\r\nHost: gateway.test\r\nConnection: close\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("%s: %v", requestLine, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return rawAnswer{resp.StatusCode, resp.Header}, string(b)
}

var notFoundBody = regexp.MustCompile(`^\{"success":false,"error":\{"code":"NOT_FOUND","message":"[^"]+"\},"requestId":"[A-Za-z0-9_.-]+"\}$`)

// Every answer of the partner port comes from the gateway's pipeline: paths
// that http.ServeMux would redirect (//, /./, /../, %2e%2e), the health and
// metrics paths of the internal port, "OPTIONS *" and CONNECT all get the
// 404 envelope with a request id and the address's rate headers, and each
// is charged to the address's limiter.
func TestPartnerPortAnswersEverythingThroughTheGateway(t *testing.T) {
	s := serveTestGateway(t, 0)
	lines := []string{
		"GET //open/v1/orders HTTP/1.1",
		"GET /open/v1//orders HTTP/1.1",
		"GET /open/v1/./orders HTTP/1.1",
		"GET /open/v1/../v1/orders HTTP/1.1",
		"GET /open/v1/orders/.. HTTP/1.1",
		"GET /open/v1/%2e%2e/v1/orders HTTP/1.1",
		"GET /open/v1/orders/%2E%2E HTTP/1.1",
		"GET /open/v1/orders/%2e HTTP/1.1",
		"POST /open/v1//products HTTP/1.1",
		"GET /readyz HTTP/1.1",
		"GET /healthz HTTP/1.1",
		"GET /metrics HTTP/1.1",
		"GET /debug/pprof/ HTTP/1.1",
		"OPTIONS * HTTP/1.1",
		"CONNECT gateway.test:443 HTTP/1.1",
	}
	remaining := -1
	for _, line := range lines {
		resp, body := rawRequest(t, s.public, line)
		if resp.StatusCode != http.StatusNotFound || !notFoundBody.MatchString(body) {
			t.Errorf("%s: %d %q", line, resp.StatusCode, body)
			continue
		}
		if resp.Header.Get("Content-Type") != "application/json" || resp.Header.Get("X-Request-Id") == "" || resp.Header.Get("X-RateLimit-Limit") == "" {
			t.Errorf("%s: headers %v", line, resp.Header)
		}
		r, err := strconv.Atoi(resp.Header.Get("X-RateLimit-Remaining"))
		if err != nil {
			t.Fatalf("%s: X-RateLimit-Remaining %q", line, resp.Header.Get("X-RateLimit-Remaining"))
		}
		if remaining >= 0 && r >= remaining {
			t.Errorf("%s: the address's remaining allowance went from %d to %d: not charged", line, remaining, r)
		}
		remaining = r
	}
	// The probes are on the internal port.
	for _, path := range []string{"/readyz", "/healthz", "/metrics"} {
		waitStatus(t, "http://"+s.internal+path, http.StatusOK)
	}
}

// Readiness follows core: NOT_SERVING takes the gateway out of rotation.
func TestReadinessFollowsCore(t *testing.T) {
	s := serveTestGateway(t, 0)
	s.health.SetServingStatus("", healthpb.HealthCheckResponse_NOT_SERVING)
	waitStatus(t, "http://"+s.internal+"/readyz", http.StatusServiceUnavailable)
	s.health.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	waitStatus(t, "http://"+s.internal+"/readyz", http.StatusOK)
}

// Told to stop, the gateway fails readiness at once and, for the drain
// delay, still answers partners, each answer closing its connection; then
// it stops.
func TestGatewayDrainsOnStop(t *testing.T) {
	s := serveTestGateway(t, 2*time.Second)
	client := &http.Client{Transport: &http.Transport{}}
	resp, err := client.Get("http://" + s.public + "/open/v1/none")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Close {
		t.Fatal("an answer closed its connection before the drain")
	}
	s.stop()
	waitStatus(t, "http://"+s.internal+"/readyz", http.StatusServiceUnavailable)
	resp, err = client.Get("http://" + s.public + "/open/v1/none")
	if err != nil {
		t.Fatalf("a request during the drain failed: %v", err)
	}
	resp.Body.Close()
	// resp.Close: the answer said "Connection: close".
	if resp.StatusCode != http.StatusNotFound || !resp.Close {
		t.Fatalf("during the drain: %d, close %v", resp.StatusCode, resp.Close)
	}
	if err := <-s.done; err != nil {
		t.Fatal(err)
	}
	s.done <- nil // for the cleanup
	if _, err := net.DialTimeout("tcp", s.public, time.Second); err == nil {
		t.Fatal("the partner port still accepts connections after the drain")
	}
}

// The Redis URL's password shows neither in the flag help (whose defaults
// come from the environment) nor in the error about a URL that is wrong.
func TestRedisURLPasswordStaysOut(t *testing.T) {
	const pw = "Pa55-word-7e3c1b"
	// The second password has an unescaped '/' after digits: net/url
	// reads "gateway:2024" as host and port and the rest as the path, so
	// url.URL.Redacted showed it whole.
	for _, env := range []string{"rediss://gateway:" + pw + "@redis.example.ph:6380/1", "rediss://gateway:2024/" + pw + "@redis.example.ph:6380/1"} {
		t.Setenv("MP_REDIS_URL", env)
		var help strings.Builder
		if err := run(context.Background(), []string{"gateway", "-h"}, io.Discard, &help); err == nil {
			t.Fatal("-h did not stop")
		}
		if strings.Contains(help.String(), pw[:8]) || !strings.Contains(help.String(), "redis.example.ph:6380") {
			t.Fatalf("help shows: %s", help.String())
		}
	}
	t.Setenv("MP_REDIS_URL", "")
	for _, bad := range []string{
		"redis://gateway:" + pw + "%zz@redis:6379",
		"redis://gateway:" + pw + "@redis:6379/db",
		"http://gateway:" + pw + "@redis:6379",
		// Quoted by the database number's error before.
		"redis://gateway:2024/" + pw + "@redis:6379",
		"redis://gateway:2024/" + pw + "@redis:6379/0?x",
	} {
		var stderr strings.Builder
		err := run(context.Background(), []string{"gateway", "--redis-url", bad, "--gateway-token", "serve-test-gateway-token"}, io.Discard, &stderr)
		if err == nil {
			t.Fatalf("%q accepted", strings.ReplaceAll(bad, pw, "PW"))
		}
		if !strings.Contains(err.Error(), "Redis URL") {
			t.Fatalf("not refused for its Redis URL: %v", err)
		}
		if strings.Contains(err.Error()+stderr.String(), pw[:8]) {
			t.Fatalf("the password shows: %v %s", err, stderr.String())
		}
	}
}

// A rediss:// URL with user, password and database is accepted (it failed
// with "too many colons" as an address); the store connects on first use.
func TestRedisURLAccepted(t *testing.T) {
	store, err := newAdmissionStore("rediss://gateway:secret@redis.example.ph:6380/2", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	store.Close()
	if _, err := newAdmissionStore("redis://a:6379", "a:6379", nil); err == nil {
		t.Fatal("both a URL and an address accepted")
	}
}
