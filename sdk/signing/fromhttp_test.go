package signing

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestFromHTTP(t *testing.T) {
	tests := []struct {
		name, requestLine, path, query string
	}{
		{"origin form", "GET /open/v1/orders?status=SHIPPED&page=1 HTTP/1.1", "/open/v1/orders", "status=SHIPPED&page=1"},
		{"no query", "GET /open/v1/categories HTTP/1.1", "/open/v1/categories", ""},
		{"lone question mark", "GET /open/v1/categories? HTTP/1.1", "/open/v1/categories", ""},
		{"escapes kept verbatim", "GET /open/v1/products/a%2fb%41?q=%7e+x HTTP/1.1", "/open/v1/products/a%2fb%41", "q=%7e+x"},
		{"absolute form", "GET http://api.example:8080/open/v1/orders?page=2 HTTP/1.1", "/open/v1/orders", "page=2"},
		{"absolute form, no path", "GET http://api.example?page=2 HTTP/1.1", "/", "page=2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			raw := tc.requestLine + "\r\nHost: api.example\r\n" +
				HeaderTimestamp + ": 1735689600\r\n" + HeaderPartnerID + ": test_1\r\n" + HeaderNonce + ": abc\r\n\r\n"
			r, err := http.ReadRequest(bufio.NewReader(strings.NewReader(raw)))
			if err != nil {
				t.Fatal(err)
			}
			got := FromHTTP(r, []byte("{}"))
			want := Request{Timestamp: "1735689600", ClientID: "test_1", Method: "GET", Path: tc.path, RawQuery: tc.query, Body: []byte("{}"), Nonce: "abc"}
			if got.Path != want.Path || got.RawQuery != want.RawQuery || got.Timestamp != want.Timestamp ||
				got.ClientID != want.ClientID || got.Method != want.Method || got.Nonce != want.Nonce || string(got.Body) != "{}" {
				t.Fatalf("FromHTTP = %+v\nwant %+v", got, want)
			}
		})
	}

	// A request built in a test has no request line.
	r := httptest.NewRequest("GET", "/open/v1/orders?page=1", nil)
	r.RequestURI = ""
	if got := FromHTTP(r, nil); got.Path != "/open/v1/orders" || got.RawQuery != "page=1" {
		t.Fatalf("FromHTTP without RequestURI = %+v", got)
	}
}
