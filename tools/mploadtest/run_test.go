package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/sdk/signing"
)

const testSecret = "s3cret-for-tests-only"

func testClient(t *testing.T, base string) *sdk.Client {
	t.Helper()
	c, err := sdk.New(sdk.Config{BaseURL: base, ClientID: "test_client", ClientSecret: testSecret})
	if err != nil {
		t.Fatal(err)
	}
	return c.WithSeller("slr_1", "token-of-seller-one")
}

// verifyingServer answers 200 to a request whose signature verifies and
// whose nonce is new, and 401 or 409 otherwise, as the gateway would.
type verifyingServer struct {
	mu     sync.Mutex
	nonces map[string]bool
	paths  map[string]int
	status func(path string) int
}

func newVerifyingServer() *verifyingServer {
	return &verifyingServer{nonces: map[string]bool{}, paths: map[string]int{}}
}

func (v *verifyingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
	}
	req := signing.FromHTTP(r, body)
	key := signing.NewKey([]byte(testSecret))
	matched, err := signing.VerifyRequest(&req, r.Header.Get(signing.HeaderSignature), key)
	if err != nil || matched == nil || r.Header.Get(signing.HeaderSellerID) != "slr_1" {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	v.mu.Lock()
	reused := v.nonces[req.Nonce]
	v.nonces[req.Nonce] = true
	v.paths[r.URL.Path]++
	v.mu.Unlock()
	if reused {
		w.WriteHeader(http.StatusConflict)
		return
	}
	if v.status != nil {
		if s := v.status(r.URL.Path); s != http.StatusOK {
			w.WriteHeader(s)
			return
		}
	}
	_, _ = io.WriteString(w, `{"success":true,"data":{}}`)
}

func TestSignedTargeterSignsEveryRequestAfresh(t *testing.T) {
	ids := []string{"ord_a", "ord_b", "ord with space"}
	tr := signedTargeter(testClient(t, "http://127.0.0.1:1"), defaultPath, ids)
	srv := newVerifyingServer()
	for i := range 9 {
		var tgt vegeta.Target
		if err := tr(&tgt); err != nil {
			t.Fatal(err)
		}
		req, err := tgt.Request()
		if err != nil {
			t.Fatal(err)
		}
		wantPath := "/open/v1/orders/" + strings.ReplaceAll(ids[i%3], " ", "%20")
		if req.URL.EscapedPath() != wantPath {
			t.Fatalf("request %d: path %s, want %s", i, req.URL.EscapedPath(), wantPath)
		}
		// What the server sees is the request line as sent.
		req.RequestURI = req.URL.RequestURI()
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("request %d: HTTP %d (signature or nonce refused)", i, rec.Code)
		}
	}
	if len(srv.nonces) != 9 {
		t.Fatalf("%d distinct nonces for 9 requests", len(srv.nonces))
	}
}

func TestBoundedPacerStopsAtTheBound(t *testing.T) {
	p := boundedPacer{Pacer: vegeta.ConstantPacer{}, max: 3}
	for hits := uint64(0); hits < 3; hits++ {
		if _, stop := p.Pace(0, hits); stop {
			t.Fatalf("stopped at %d", hits)
		}
	}
	if _, stop := p.Pace(0, 3); !stop {
		t.Fatal("did not stop at the bound")
	}
}

func TestAttackAtRateAndAtMax(t *testing.T) {
	srv := newVerifyingServer()
	ts := httptest.NewServer(srv)
	defer ts.Close()
	client := testClient(t, ts.URL)
	ids := []string{"ord_1", "ord_2"}

	s, err := attack(context.Background(), runConfig{target: ts.URL, rate: 200, duration: 500 * time.Millisecond, timeout: 5 * time.Second}, client, ids, "rate")
	if err != nil {
		t.Fatal(err)
	}
	if s.Requests < 80 || s.Requests > 101 || s.Successes != s.Requests || s.Check(nil) != nil {
		t.Fatalf("rate run: %+v %v", s, s.Check(nil))
	}
	if srv.paths["/open/v1/orders/ord_1"] == 0 || srv.paths["/open/v1/orders/ord_2"] == 0 {
		t.Fatalf("ids not cycled: %v", srv.paths)
	}

	s, err = attack(context.Background(), runConfig{target: ts.URL, max: true, workers: 4, duration: 5 * time.Second, maxRequests: 50, timeout: 5 * time.Second}, client, ids, "max")
	if err != nil {
		t.Fatal(err)
	}
	if s.Requests != 50 || s.Successes != 50 {
		t.Fatalf("max run bounded at 50 requests: %d sent, %d ok", s.Requests, s.Successes)
	}
}

func TestAttackReportsUnexpectedAnswers(t *testing.T) {
	srv := newVerifyingServer()
	srv.status = func(path string) int {
		if strings.HasSuffix(path, "ord_2") {
			return http.StatusTooManyRequests
		}
		return http.StatusOK
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	s, err := attack(context.Background(), runConfig{target: ts.URL, rate: 100, duration: 200 * time.Millisecond, timeout: 5 * time.Second}, testClient(t, ts.URL), []string{"ord_1", "ord_2"}, "mixed")
	if err != nil {
		t.Fatal(err)
	}
	if s.StatusCodes["429"] == 0 || s.StatusCodes["200"] == 0 {
		t.Fatalf("codes %v", s.StatusCodes)
	}
	if err := s.Check(nil); err == nil || !strings.Contains(err.Error(), "429") {
		t.Fatalf("Check: %v", err)
	}
	if err := s.Check(map[int]bool{429: true}); err != nil {
		t.Fatalf("Check with 429 allowed: %v", err)
	}
}

func TestAttackStopsWhenCancelled(t *testing.T) {
	ts := httptest.NewServer(newVerifyingServer())
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := attack(ctx, runConfig{target: ts.URL, rate: 50, duration: time.Minute, timeout: 5 * time.Second}, testClient(t, ts.URL), []string{"ord_1"}, "cancel")
	if err == nil || time.Since(start) > 10*time.Second {
		t.Fatalf("err %v after %s", err, time.Since(start))
	}
}

func TestRunConfigValidation(t *testing.T) {
	parse := func(args ...string) error {
		var c runConfig
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		c.register(fs)
		if err := fs.Parse(args); err != nil {
			return err
		}
		return c.validate()
	}
	ok := [][]string{
		{"--target", "http://127.0.0.1:8080", "--rate", "1000", "--duration", "15s"},
		{"--target", "http://127.0.0.1:8080", "--max", "--workers", "16"},
		{"--target", "http://[::1]:8080", "--max", "--allow-status", "429,503"},
	}
	for _, args := range ok {
		if err := parse(args...); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
	bad := [][]string{
		{"--rate", "10"},
		{"--target", "http://10.0.0.5:8080", "--rate", "10"},
		{"--target", "http://localhost:8080", "--rate", "10"},
		{"--target", "https://127.0.0.1:8443", "--rate", "10"},
		{"--target", "http://127.0.0.1", "--rate", "10"},
		{"--target", "http://127.0.0.1:8080/open/v1", "--rate", "10"},
		{"--target", "http://127.0.0.1:8080"},
		{"--target", "http://127.0.0.1:8080", "--rate", "10", "--duration", "11m"},
		{"--target", "http://127.0.0.1:8080", "--max", "--workers", "100000"},
		{"--target", "http://127.0.0.1:8080", "--max", "--ids-from", "http://192.168.1.1:80"},
		{"--target", "http://127.0.0.1:8080", "--max", "--allow-status", "abc"},
	}
	for _, args := range bad {
		if err := parse(args...); err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
}

func TestRequestBound(t *testing.T) {
	for _, c := range []struct {
		cfg  runConfig
		want uint64
	}{
		{runConfig{rate: 1000, duration: 15 * time.Second}, 15000},
		{runConfig{rate: 1000, duration: 1500 * time.Millisecond}, 2000},
		{runConfig{max: true, duration: time.Second}, defaultMaxRequests},
		{runConfig{max: true, maxRequests: 7}, 7},
	} {
		if got := c.cfg.requestBound(); got != c.want {
			t.Errorf("%+v: %d, want %d", c.cfg, got, c.want)
		}
	}
}

func TestLoadCredentialsToleratesEmptyBaseURL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "creds.json")
	creds := sdk.Credentials{Apps: map[string]sdk.AppCredentials{"full": {ClientID: "test_x", ClientSecret: "y"}},
		Sellers: []sdk.SellerCredentials{{SellerID: "slr_1", Tokens: map[string]sdk.TokenPair{"full": {AccessToken: "tok"}}}}}
	b, _ := json.Marshal(creds)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := loadCredentials(path, "http://127.0.0.1:9")
	if err != nil || c.BaseURL != "http://127.0.0.1:9" {
		t.Fatalf("%v %+v", err, c)
	}
	if _, err := c.Client("full", 0); err != nil {
		t.Fatal(err)
	}
}

func TestListOrderIDsFollowsCursor(t *testing.T) {
	var calls int
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		if r.URL.Query().Get("cursor") == "" {
			_, _ = io.WriteString(w, `{"success":true,"data":[{"id":"ord_1"},{"id":"ord_2"}],"meta":{"page":1,"limit":100,"total":3,"next_cursor":"c1"}}`)
			return
		}
		_, _ = io.WriteString(w, `{"success":true,"data":[{"id":"ord_3"}],"meta":{"page":2,"limit":100,"total":3}}`)
	}))
	defer ts.Close()
	ids, err := listOrderIDs(context.Background(), testClient(t, ts.URL))
	if err != nil || strings.Join(ids, ",") != "ord_1,ord_2,ord_3" || calls != 2 {
		t.Fatalf("%v %v %d", ids, err, calls)
	}
}

func TestSummaryFigures(t *testing.T) {
	s := newSummary("t")
	t0 := time.Unix(1000, 0)
	for i := range 100 {
		code := uint16(200)
		if i == 99 {
			code = 500
		}
		s.Add(&vegeta.Result{Code: code, Timestamp: t0.Add(time.Duration(i) * 10 * time.Millisecond), Latency: time.Duration(i+1) * time.Millisecond, BytesIn: 10})
	}
	s.Add(&vegeta.Result{Code: 0, Error: "connection refused", Timestamp: t0, Latency: time.Millisecond})
	s.Close()
	if s.Requests != 101 || s.Successes != 99 || s.StatusCodes["500"] != 1 || s.StatusCodes["0"] != 1 || s.Errors["connection refused"] != 1 {
		t.Fatalf("%+v", s)
	}
	if s.Latency.P50 != 50*time.Millisecond || s.Latency.P99 != 99*time.Millisecond || s.Latency.Max != 100*time.Millisecond {
		t.Fatalf("latency %+v", s.Latency)
	}
	// Sent over 990 ms, last answer 100 ms after the last send.
	if s.Duration != 990*time.Millisecond || s.Wait != 100*time.Millisecond {
		t.Fatalf("duration %s wait %s", s.Duration, s.Wait)
	}
	if want := 99 / 1.09; s.Throughput < want-0.01 || s.Throughput > want+0.01 {
		t.Fatalf("throughput %f, want %f", s.Throughput, want)
	}
	var out bytes.Buffer
	s.Write(&out)
	for _, want := range []string{"p99 99.00ms", "200:99 500:1", "connection refused x1", "98.02%"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if err := s.Check(map[int]bool{500: true}); err == nil || !strings.Contains(err.Error(), "0 x1") {
		t.Fatalf("a request without an answer must fail the run: %v", err)
	}
}

func TestPercentile(t *testing.T) {
	v := []time.Duration{1, 2, 3, 4}
	for q, want := range map[float64]time.Duration{0: 1, 0.25: 1, 0.5: 2, 0.75: 3, 0.99: 4, 1: 4} {
		if got := percentile(v, q); got != want {
			t.Errorf("q %v: %d, want %d", q, got, want)
		}
	}
	if percentile(nil, 0.5) != 0 {
		t.Error("empty")
	}
}
