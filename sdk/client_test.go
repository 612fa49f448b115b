package sdk

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/sdk/signing"
)

const (
	testClientID = "test_4f2a9c1d7e"
	testSecret   = "sk_test_5f1e0c7a9b3d4e2f8a6c"
)

var testNow = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// seen is what the test gateway received and concluded about one request.
type seen struct {
	method, requestURI string
	header             http.Header
	body               []byte
	signed             signing.Request
	verified           bool
	verifyErr          error
}

// gateway is an httptest server that verifies every request the way the
// real gateway does, with sdk/signing over the raw request line and
// body, and answers with a canned response.
type gateway struct {
	*httptest.Server
	mu     sync.Mutex
	seen   []seen
	status int
	body   string
	header http.Header
}

func newGateway(t *testing.T) *gateway {
	t.Helper()
	g := &gateway{status: 200, body: `{"success":true,"data":{"ok":true}}`}
	key := signing.NewKey([]byte(testSecret))
	g.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		sr := signing.FromHTTP(r, body)
		ok, err := key.VerifyRequest(&sr, r.Header.Get(signing.HeaderSignature))
		g.mu.Lock()
		g.seen = append(g.seen, seen{r.Method, r.RequestURI, r.Header.Clone(), body, sr, ok, err})
		status, respBody, hdr := g.status, g.body, g.header
		g.mu.Unlock()
		for k, v := range hdr {
			w.Header()[k] = v
		}
		w.WriteHeader(status)
		io.WriteString(w, respBody)
	}))
	t.Cleanup(g.Close)
	return g
}

func (g *gateway) last(t *testing.T) seen {
	t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.seen) == 0 {
		t.Fatal("gateway received nothing")
	}
	return g.seen[len(g.seen)-1]
}

func (g *gateway) respond(status int, body string, header http.Header) {
	g.mu.Lock()
	g.status, g.body, g.header = status, body, header
	g.mu.Unlock()
}

func newTestClient(t *testing.T, baseURL string) *Client {
	t.Helper()
	c, err := New(Config{BaseURL: baseURL, ClientID: testClientID, ClientSecret: testSecret, Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestDoSignsWhatItSends(t *testing.T) {
	g := newGateway(t)
	c := newTestClient(t, g.URL)
	ctx := context.Background()

	tests := []struct {
		name, method, pathAndQuery string
		body                       []byte
		wantURI                    string
	}{
		{"GET with query", "GET", "/open/v1/orders?status=SHIPPED&page=1&limit=20", nil, "/open/v1/orders?status=SHIPPED&page=1&limit=20"},
		{"GET without query", "GET", "/open/v1/categories", nil, "/open/v1/categories"},
		{"query needing canonicalization", "GET", "/open/v1/products?sort=Zeta&q=caf%c3%a9+x&sort=(alpha)&flag", nil, "/open/v1/products?sort=Zeta&q=caf%c3%a9+x&sort=(alpha)&flag"},
		{"escaped path", "GET", "/open/v1/products/a%2Fb", nil, "/open/v1/products/a%2Fb"},
		{"non-ASCII path is sent and signed escaped", "GET", "/open/v1/products/é", nil, "/open/v1/products/%C3%A9"},
		{"POST with body", "POST", "/open/v1/orders/bulk-cancel", []byte(`{"orderIds":["ord_1"]}`), "/open/v1/orders/bulk-cancel"},
		{"PUT with body and query", "PUT", "/open/v1/products/prd_1?dry_run=true", []byte("{\n  \"title\": \"<b>Shoes</b> & more\"\n}"), "/open/v1/products/prd_1?dry_run=true"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := c.Do(ctx, tc.method, tc.pathAndQuery, tc.body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Status != 200 || !resp.OK() {
				t.Fatalf("status %d", resp.Status)
			}
			s := g.last(t)
			if !s.verified || s.verifyErr != nil {
				t.Fatalf("gateway could not verify: %v (signed %+v)", s.verifyErr, s.signed)
			}
			if s.method != tc.method || s.requestURI != tc.wantURI {
				t.Fatalf("sent %s %s, want %s %s", s.method, s.requestURI, tc.method, tc.wantURI)
			}
			if string(s.body) != string(tc.body) {
				t.Fatalf("body sent %q, want %q", s.body, tc.body)
			}
			h := s.header
			if h.Get(signing.HeaderPartnerID) != testClientID || h.Get(signing.HeaderSignatureVersion) != "3" ||
				h.Get(signing.HeaderTimestamp) != "1735689600" || !signing.ValidNonce(h.Get(signing.HeaderNonce)) ||
				!signing.ValidSignatureFormat(h.Get(signing.HeaderSignature)) {
				t.Fatalf("signature headers %v", h)
			}
			if h.Get(signing.HeaderSellerID) != "" || h.Get(signing.HeaderAccessToken) != "" {
				t.Fatal("app-only call sent seller headers")
			}
			if wantCT := map[bool]string{true: "application/json", false: ""}[len(tc.body) > 0]; h.Get("Content-Type") != wantCT {
				t.Fatalf("Content-Type %q, want %q", h.Get("Content-Type"), wantCT)
			}
		})
	}
}

func TestFreshNoncePerRequest(t *testing.T) {
	g := newGateway(t)
	c := newTestClient(t, g.URL)
	for i := 0; i < 3; i++ {
		if _, err := c.Do(context.Background(), "GET", "/open/v1/usage", nil); err != nil {
			t.Fatal(err)
		}
	}
	nonces := map[string]bool{}
	for _, s := range g.seen {
		nonces[s.header.Get(signing.HeaderNonce)] = true
	}
	if len(nonces) != 3 {
		t.Fatalf("3 requests used %d distinct nonces", len(nonces))
	}
}

func TestWithSeller(t *testing.T) {
	g := newGateway(t)
	app := newTestClient(t, g.URL)
	shop := app.WithSeller("slr_01", "at_secret")
	req := Request{Method: "GET", Path: "/open/v1/orders", RawQuery: "page=1",
		Timestamp: "1735689600", Nonce: "0123456789abcdef0123456789abcdef"}

	if _, err := app.DoSigned(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	appOnly := g.last(t)
	if _, err := shop.DoSigned(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	withSeller := g.last(t)

	if withSeller.header.Get(signing.HeaderSellerID) != "slr_01" || withSeller.header.Get(signing.HeaderAccessToken) != "at_secret" {
		t.Fatalf("seller headers %v", withSeller.header)
	}
	if !withSeller.verified {
		t.Fatal("seller call did not verify")
	}
	// The seller headers are not signed: the signature equals the app-only one.
	if a, b := appOnly.header.Get(signing.HeaderSignature), withSeller.header.Get(signing.HeaderSignature); a != b {
		t.Fatalf("seller call signature %s differs from app-only %s", b, a)
	}
	// WithSeller returned a copy.
	if _, err := app.Do(context.Background(), "GET", "/open/v1/categories", nil); err != nil {
		t.Fatal(err)
	}
	if g.last(t).header.Get(signing.HeaderSellerID) != "" {
		t.Fatal("WithSeller changed the original client")
	}
}

func TestDoSignedOverrides(t *testing.T) {
	g := newGateway(t)
	c := newTestClient(t, g.URL)
	ctx := context.Background()

	stale := signing.FormatTimestamp(testNow.Add(-10 * time.Minute))
	nonce := strings.Repeat("ab", 20)
	if _, err := c.DoSigned(ctx, Request{Method: "GET", Path: "/open/v1/usage", Timestamp: stale, Nonce: nonce, Version: "2"}); err != nil {
		t.Fatal(err)
	}
	s := g.last(t)
	if s.header.Get(signing.HeaderTimestamp) != stale || s.header.Get(signing.HeaderNonce) != nonce || s.header.Get(signing.HeaderSignatureVersion) != "2" {
		t.Fatalf("overrides not sent: %v", s.header)
	}
	if !s.verified {
		t.Fatal("overridden timestamp and nonce must still be signed consistently")
	}

	// ExtraHeaders replace the computed signature; OmitHeaders drop headers.
	wrong := strings.Repeat("0", 64)
	if _, err := c.DoSigned(ctx, Request{Method: "GET", Path: "/open/v1/usage",
		ExtraHeaders: http.Header{signing.HeaderSignature: {wrong}, "Idempotency-Key": {"k1"}},
		OmitHeaders:  []string{signing.HeaderNonce, "user-agent"}}); err != nil {
		t.Fatal(err)
	}
	s = g.last(t)
	if got := s.header.Values(signing.HeaderSignature); len(got) != 1 || got[0] != wrong {
		t.Fatalf("signature header %q, want only the override", got)
	}
	if s.verified {
		t.Fatal("a wrong signature verified")
	}
	if _, present := s.header[signing.HeaderNonce]; present {
		t.Fatal("omitted nonce header was sent")
	}
	if s.header.Get("Idempotency-Key") != "k1" {
		t.Fatal("extra header not sent")
	}
	if strings.HasPrefix(s.header.Get("User-Agent"), userAgent) {
		t.Fatal("omitted User-Agent was sent")
	}
}

func TestNewRequestRejects(t *testing.T) {
	c := newTestClient(t, "http://127.0.0.1:1")
	for name, req := range map[string]Request{
		"no method":            {Path: "/open/v1/usage"},
		"relative path":        {Method: "GET", Path: "open/v1/usage"},
		"query twice":          {Method: "GET", Path: "/open/v1/orders?page=1", RawQuery: "page=2"},
		"space in query":       {Method: "GET", Path: "/open/v1/orders?q=a b"},
		"fragment":             {Method: "GET", Path: "/open/v1/orders#x"},
		"control in path":      {Method: "GET", Path: "/open/v1/\norders"},
		"invalid query escape": {Method: "GET", Path: "/open/v1/orders?q=100%"},
	} {
		if _, err := c.NewRequest(context.Background(), req); err == nil {
			t.Errorf("%s: NewRequest accepted %+v", name, req)
		}
	}
}

func TestBaseURLPrefixAndSlash(t *testing.T) {
	g := newGateway(t)
	c := newTestClient(t, g.URL+"/edge/")
	if _, err := c.Do(context.Background(), "GET", "/open/v1/usage", nil); err != nil {
		t.Fatal(err)
	}
	s := g.last(t)
	if s.requestURI != "/edge/open/v1/usage" || !s.verified {
		t.Fatalf("sent %s, verified %v", s.requestURI, s.verified)
	}
}

func TestDecode(t *testing.T) {
	g := newGateway(t)
	c := newTestClient(t, g.URL)
	ctx := context.Background()

	g.respond(200, `{"success":true,"data":[{"orderId":"ord_1"},{"orderId":"ord_2"}],"meta":{"page":2,"limit":2,"total":5}}`, nil)
	resp, err := c.Do(ctx, "GET", "/open/v1/orders?page=2&limit=2", nil)
	if err != nil {
		t.Fatal(err)
	}
	var orders []struct {
		OrderID string `json:"orderId"`
	}
	meta, err := resp.DecodeList(&orders)
	if err != nil || len(orders) != 2 || orders[1].OrderID != "ord_2" || meta != (Meta{Page: 2, Limit: 2, Total: 5}) {
		t.Fatalf("DecodeList = %+v, %+v, %v", orders, meta, err)
	}

	g.respond(404, `{"success":false,"error":{"code":"NOT_FOUND","message":"order not found"},"requestId":"req_123"}`, nil)
	resp, err = c.Do(ctx, "GET", "/open/v1/orders/ord_x", nil)
	if err != nil {
		t.Fatal(err)
	}
	err = resp.Decode(&orders)
	var ae *APIError
	if !errors.As(err, &ae) || *ae != (APIError{Status: 404, Code: "NOT_FOUND", Message: "order not found", RequestID: "req_123"}) {
		t.Fatalf("Decode error = %#v", err)
	}
	if ErrorCode(err) != "NOT_FOUND" || ErrorCode(errors.New("x")) != "" {
		t.Fatal("ErrorCode")
	}
	if !strings.Contains(err.Error(), "404 NOT_FOUND") || !strings.Contains(err.Error(), "req_123") {
		t.Fatalf("error text %q", err)
	}

	// The request id falls back to the response header.
	g.respond(401, `{"success":false,"error":{"code":"INVALID_SIGNATURE","message":"bad"}}`, http.Header{"X-Request-Id": {"req_h"}})
	resp, _ = c.Do(ctx, "GET", "/open/v1/usage", nil)
	if err := resp.Decode(nil); !errors.As(err, &ae) || ae.Code != "INVALID_SIGNATURE" || ae.RequestID != "req_h" || ae.Status != 401 {
		t.Fatalf("Decode error = %#v", err)
	}

	// Not an envelope: an error page from a proxy, or a broken success.
	g.respond(502, "<html>Bad Gateway</html>", nil)
	resp, _ = c.Do(ctx, "GET", "/open/v1/usage", nil)
	if err := resp.Decode(nil); !errors.As(err, &ae) || ae.Status != 502 || ae.Code != "" || !strings.Contains(ae.Message, "Bad Gateway") {
		t.Fatalf("Decode of a non-JSON 502 = %#v", err)
	}
	g.respond(200, `{"data":1}`, nil)
	resp, _ = c.Do(ctx, "GET", "/open/v1/usage", nil)
	if err := resp.Decode(nil); err == nil || errors.As(err, &ae) {
		t.Fatalf("Decode of a 200 without success = %#v", err)
	}
}

func TestCall(t *testing.T) {
	g := newGateway(t)
	c := newTestClient(t, g.URL).WithSeller("slr_01", "at_1")
	g.respond(201, `{"success":true,"data":{"id":"wh_1","eventType":"order.created"}}`, nil)

	in := map[string]string{"eventType": "order.created", "url": "https://partner.example/hook?a=1&b=2"}
	var out struct {
		ID        string `json:"id"`
		EventType string `json:"eventType"`
	}
	resp, err := c.Call(context.Background(), "POST", "/open/v1/webhooks", in, &out)
	if err != nil || resp.Status != 201 || out.ID != "wh_1" {
		t.Fatalf("Call = %+v, %+v, %v", resp, out, err)
	}
	s := g.last(t)
	if !s.verified || string(s.body) != `{"eventType":"order.created","url":"https://partner.example/hook?a=1&b=2"}` {
		t.Fatalf("sent body %s (verified %v)", s.body, s.verified)
	}

	g.respond(403, `{"success":false,"error":{"code":"FORBIDDEN","message":"scope"},"requestId":"r"}`, nil)
	if _, err := c.Call(context.Background(), "GET", "/open/v1/webhooks", nil, &out); ErrorCode(err) != "FORBIDDEN" {
		t.Fatalf("Call error %v", err)
	}
	if s := g.last(t); len(s.body) != 0 || s.header.Get("Content-Type") != "" {
		t.Fatalf("nil input sent a body %q", s.body)
	}
}

func TestConfigValidate(t *testing.T) {
	ok := Config{BaseURL: "http://127.0.0.1:8080", ClientID: "test_1", ClientSecret: "s"}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, mutate := range map[string]func(*Config){
		"empty base":      func(c *Config) { c.BaseURL = "" },
		"relative base":   func(c *Config) { c.BaseURL = "127.0.0.1:8080" },
		"ftp base":        func(c *Config) { c.BaseURL = "ftp://h" },
		"base with query": func(c *Config) { c.BaseURL = "http://h/?x=1" },
		"base with user":  func(c *Config) { c.BaseURL = "http://u:p@h" },
		"no client id":    func(c *Config) { c.ClientID = "" },
		"no secret":       func(c *Config) { c.ClientSecret = "" },
	} {
		c := ok
		mutate(&c)
		if err := c.Validate(); err == nil {
			t.Errorf("%s: Validate accepted %+v", name, c)
		}
		if _, err := New(c); err == nil {
			t.Errorf("%s: New accepted %+v", name, c)
		}
	}
}

func TestRedirectIsReturned(t *testing.T) {
	g := newGateway(t)
	c := newTestClient(t, g.URL)
	g.respond(302, "", http.Header{"Location": {"/consent?session=s1"}})
	resp, err := c.Do(context.Background(), "GET", "/open/v1/auth/authorize?client_id=test_1&state=x", nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 302 || resp.Header.Get("Location") != "/consent?session=s1" || len(g.seen) != 1 {
		t.Fatalf("status %d, location %q, %d requests", resp.Status, resp.Header.Get("Location"), len(g.seen))
	}
}

func TestTransportError(t *testing.T) {
	g := newGateway(t)
	c := newTestClient(t, g.URL)
	g.Close()
	if _, err := c.Do(context.Background(), "GET", "/open/v1/usage", nil); err == nil {
		t.Fatal("Do against a closed server returned no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Do(ctx, "GET", "/open/v1/usage", nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: %v", err)
	}
}

func TestJSONMarshalKeepsHTML(t *testing.T) {
	b, err := jsonMarshal(map[string]string{"t": "<b>&</b>"})
	if err != nil || string(b) != `{"t":"<b>&</b>"}` {
		t.Fatalf("jsonMarshal = %s, %v", b, err)
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		t.Fatal("not JSON")
	}
}

// With Gzip the body travels compressed, and the signature covers the
// compressed bytes as sent.
func TestGzipSignsCompressedBytes(t *testing.T) {
	g := newGateway(t)
	c := newTestClient(t, g.URL)
	body := []byte(`{"products":[{"title":"Acme Phone X 128GB"}]}`)
	resp, err := c.DoSigned(context.Background(), Request{Method: "POST", Path: "/open/v1/products/bulk", Body: body, Gzip: true})
	if err != nil || resp.Status != 200 {
		t.Fatalf("%v %v", resp, err)
	}
	s := g.last(t)
	if !s.verified || s.verifyErr != nil {
		t.Fatalf("gateway could not verify the compressed body: %v", s.verifyErr)
	}
	if s.header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding %q", s.header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(s.body))
	if err != nil {
		t.Fatalf("body sent is not gzip: %v", err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(plain, body) {
		t.Fatalf("inflated %q, %v", plain, err)
	}
}
