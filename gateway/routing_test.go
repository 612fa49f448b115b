package gateway_test

import (
	"bufio"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

// TestLiteralRoutesWin: the spec's bulk routes are never read as an {id},
// whatever the verb, and a wrong verb answers 405 INVALID_REQUEST with Allow.
func TestLiteralRoutesWin(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	full := env.Client(t, "full", 0)
	bulkCreate := []byte(`{"products":[{"title":"Cotton shirt","category":"100017","images":["https://img.example/a.jpg"],"weight":1,"length":1,"width":1,"height":1,"variants":[{"price":100,"stock":1}]}]}`)
	if r := send(t, full, sdk.Request{Method: "POST", Path: "/open/v1/products/bulk", Body: bulkCreate}); r.Status != 200 || !strings.Contains(string(r.Body), `"summary"`) {
		t.Errorf("bulk create: %d %s, want the bulk result", r.Status, r.Body)
	}
	bulkCancel := []byte(`{"orders":[{"orderId":"ord_1","expectedStatus":"PAID"}]}`)
	if r := send(t, full, sdk.Request{Method: "POST", Path: "/open/v1/orders/bulk-cancel", Body: bulkCancel,
		ExtraHeaders: http.Header{"Idempotency-Key": {"literal-routes"}}}); r.Status != 200 || !strings.Contains(string(r.Body), `"summary"`) {
		t.Errorf("bulk cancel: %d %s, want the bulk result", r.Status, r.Body)
	}
	// The bodies are strict like every other.
	expectError(t, send(t, full, sdk.Request{Method: "POST", Path: "/open/v1/orders/bulk-cancel", Body: []byte(`{"orders":[{"orderId":"ord_1","extra":1}]}`)}), 400, "VALIDATION_ERROR")
	expectError(t, send(t, full, sdk.Request{Method: "POST", Path: "/open/v1/orders/bulk-cancel", Body: []byte(`{"orders":[]}`)}), 400, "VALIDATION_ERROR")

	for _, c := range []struct{ verb, path, allow string }{
		{"GET", "/open/v1/orders/bulk-cancel", "POST"},
		{"PUT", "/open/v1/products/bulk", "POST"},
		{"DELETE", "/open/v1/categories", "GET"},
		{"POST", "/open/v1/orders/ord_1", "GET"},
	} {
		r := send(t, full, sdk.Request{Method: c.verb, Path: c.path})
		expectError(t, r, http.StatusMethodNotAllowed, "INVALID_REQUEST")
		if r.Header.Get("Allow") != c.allow {
			t.Errorf("%s %s: Allow %q, want %q", c.verb, c.path, r.Header.Get("Allow"), c.allow)
		}
	}
}

// TestIdempotencyKeyForm: a key that is not 1-255 printable ASCII
// characters is 400 VALIDATION_ERROR (it could not travel to core), and the
// refused request is not charged against the app's rate limit.
func TestIdempotencyKeyForm(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	full := env.Client(t, "full", 0)
	remaining := func() string {
		t.Helper()
		r := send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/usage"})
		if r.Status != 200 {
			t.Fatalf("usage: %d %s", r.Status, r.Body)
		}
		return r.Header.Get("X-RateLimit-Remaining")
	}
	before := remaining()
	for name, key := range map[string]string{
		"tab":       "key\twith-tab",
		"non-ascii": "cl\u00e9",
		"too long":  strings.Repeat("k", 256),
	} {
		req, err := full.NewRequest(ctx, sdk.Request{Method: "GET", Path: "/open/v1/orders"})
		if err != nil {
			t.Fatal(err)
		}
		req.Header["Idempotency-Key"] = []string{key}
		r := doRaw(t, req)
		if r.Status != 400 || !strings.Contains(string(r.Body), `"VALIDATION_ERROR"`) {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	req, err := full.NewRequest(ctx, sdk.Request{Method: "GET", Path: "/open/v1/orders"})
	if err != nil {
		t.Fatal(err)
	}
	req.Header["Idempotency-Key"] = []string{"a", "b"}
	expectError(t, do(t, req), 400, "VALIDATION_ERROR")
	// The usage call after the refusals is charged one more than the first.
	after := remaining()
	if before == "" || after == "" || atoi(t, before)-atoi(t, after) != 1 {
		t.Fatalf("refused requests were charged: remaining %s then %s", before, after)
	}
	req, err = full.NewRequest(ctx, sdk.Request{Method: "GET", Path: "/open/v1/orders"})
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Idempotency-Key", "order-sync 2026-11-23 #1 ~!@$%^&*()")
	if r := do(t, req); r.Status != 200 {
		t.Fatalf("a printable key: %d %s", r.Status, r.Body)
	}
}

// doRaw writes req on a fresh connection as it is: net/http's client would
// refuse to send a control character in a header value.
func doRaw(t *testing.T, req *http.Request) *sdk.Response {
	t.Helper()
	conn, err := net.Dial("tcp", req.URL.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req.Close = true
	if err := req.Write(conn); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		t.Fatal(err)
	}
	return readResponse(t, resp)
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return n
}
