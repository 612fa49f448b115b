package gateway_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

// TestOpenAPIDocumentRoute: the document is answered unsigned, raw (not in
// the success envelope), through the pipeline: request id, the address's
// rate headers, 405 and the strict query through the one error writer.
func TestOpenAPIDocumentRoute(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	want, err := gateway.OpenAPIDocument()
	if err != nil {
		t.Fatal(err)
	}
	get := func(method, pathAndQuery string, h http.Header) *sdk.Response {
		req, err := http.NewRequest(method, env.BaseURL+pathAndQuery, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range h {
			req.Header[k] = v
		}
		return do(t, req)
	}
	r := get("GET", "/open/v1/openapi.json", http.Header{"X-Request-Id": {"docs-1"}})
	if r.Status != http.StatusOK || !bytes.Equal(r.Body, want) || !strings.HasPrefix(string(r.Body), "{\n  \"openapi\": \"3.1.0\"") {
		t.Fatalf("GET: %d, %d bytes, want the document (%d bytes)", r.Status, len(r.Body), len(want))
	}
	if r.Header.Get("Content-Type") != "application/json" || r.Header.Get("X-Request-Id") != "docs-1" || r.Header.Get("X-RateLimit-Limit") == "" {
		t.Errorf("GET headers: %v", r.Header)
	}
	// Signing headers are neither needed nor looked at.
	if r := get("GET", "/open/v1/openapi.json", http.Header{"X-Platform-Signature": {"nonsense"}}); r.Status != http.StatusOK {
		t.Errorf("GET with a stray signature header: %d", r.Status)
	}
	r = get("POST", "/open/v1/openapi.json", nil)
	expectError(t, r, http.StatusMethodNotAllowed, "INVALID_REQUEST")
	if r.Header.Get("Allow") != "GET" {
		t.Errorf("Allow %q", r.Header.Get("Allow"))
	}
	expectError(t, get("GET", "/open/v1/openapi.json?format=yaml", nil), http.StatusBadRequest, "VALIDATION_ERROR")
	expectError(t, get("GET", "/open/v1/openapi.yaml", nil), http.StatusNotFound, "NOT_FOUND")
}
