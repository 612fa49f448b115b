package main

import (
	"bufio"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/sdk/signing"
)

// stringToSign is the signed string of a request as the test gateway
// received it.
func (r received) stringToSign(t *testing.T) string {
	t.Helper()
	path, query, _ := strings.Cut(r.uri, "?")
	sr := signing.Request{
		Timestamp: r.header.Get(signing.HeaderTimestamp), ClientID: r.header.Get(signing.HeaderPartnerID),
		Method: r.method, Path: path, RawQuery: query, Body: r.body, Nonce: r.header.Get(signing.HeaderNonce),
	}
	s, err := sr.StringToSign()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestVerbose(t *testing.T) {
	clearEnv(t)
	g := newGateway(t)
	creds := writeCredentials(t, g.URL)
	code, out, errOut := runCLI(t, "", "--credentials", creds, "--verbose", "POST", "/open/v1/products?b=2&a=1", `{"title":"x"}`)
	if code != 0 || !strings.HasPrefix(out, "200 OK\n") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	r := g.last(t)
	for _, want := range []string{
		"* string-to-sign: " + r.stringToSign(t) + "\n",
		"> POST " + g.URL + "/open/v1/products?b=2&a=1\n",
		"> X-Platform-Signature: " + r.header.Get(signing.HeaderSignature) + "\n",
		"> X-Platform-Seller-Id: slr_a\n",
		"> X-Platform-Access-Token: (4 characters, not shown)\n",
		"< 200 OK, request id req_1\n",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if !r.verified || strings.Contains(errOut, "at_a") || strings.Contains(errOut, "sk_full") {
		t.Fatalf("verified %v; stderr shows a credential:\n%s", r.verified, errOut)
	}
	// The string shown is the canonical one: sorted query, body hash.
	if !strings.Contains(errOut, ":POST:/open/v1/products:a=1&b=2:"+signing.BodySHA256([]byte(`{"title":"x"}`))+":") {
		t.Fatalf("string-to-sign is not canonical:\n%s", errOut)
	}

	// An error answer shows its request id too.
	if code, _, errOut := runCLI(t, "", "--credentials", creds, "-v", "GET", "/missing/1"); code != 1 || !strings.Contains(errOut, "< 404 Not Found, request id req_1\n") {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
}

// TestSign checks that the printed headers, sent by another HTTP client
// with the same method, path, query and body, verify.
func TestSign(t *testing.T) {
	clearEnv(t)
	g := newGateway(t)
	creds := writeCredentials(t, g.URL)
	body := "{\"name\":\"Barako\"}\n"
	file := filepath.Join(t.TempDir(), "body.json")
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		args  []string
		stdin string
		body  string
	}{
		"no body":     {[]string{"sign", "GET", "/open/v1/orders?status=SHIPPED&limit=5"}, "", ""},
		"body file":   {[]string{"sign", "PUT", "/open/v1/products/prd_1", "@" + file}, "", body},
		"body stdin":  {[]string{"--no-seller", "sign", "POST", "/open/v1/products", "-"}, body, body},
		"extra heads": {[]string{"-H", "Idempotency-Key: k-9", "sign", "post", "/open/v1/orders/bulk-cancel", body}, "", body},
	} {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tc.stdin, append([]string{"--credentials", creds}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if g.count() != 0 {
				t.Fatal("sign sent the request")
			}
			args := tc.args
			for args[0] != "sign" {
				args = args[1:]
			}
			req, err := http.NewRequest(strings.ToUpper(args[1]), g.URL+args[2], strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(strings.NewReader(out))
			for sc.Scan() {
				name, value, ok := strings.Cut(sc.Text(), ": ")
				if !ok {
					t.Fatalf("line %q is not a header", sc.Text())
				}
				req.Header.Add(name, value)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			r := g.last(t)
			if !r.verified || string(r.body) != tc.body {
				t.Fatalf("the printed headers did not verify: %s\n%+v", out, r)
			}
			if strings.Contains(name, "extra") && r.header.Get("Idempotency-Key") != "k-9" {
				t.Fatalf("-H not printed: %s", out)
			}
			g.mu.Lock()
			g.reqs = nil
			g.mu.Unlock()
		})
	}
	if code, _, _ := runCLI(t, "", "--credentials", creds, "--print-curl", "sign", "GET", "/a"); code != exitUsage {
		t.Fatalf("sign with --print-curl: exit %d", code)
	}
}

func TestField(t *testing.T) {
	clearEnv(t)
	g := newGateway(t)
	creds := writeCredentials(t, g.URL)
	for path, want := range map[string]string{
		"data.items.1": "2\n",
		"meta":         `{"limit":20,"page":1,"total":2}` + "\n",
		"success":      "true\n",
	} {
		if code, out, errOut := runCLI(t, "", "--credentials", creds, "--field", path, "GET", "/open/v1/products"); code != 0 || out != want {
			t.Errorf("--field %s: exit %d, stdout %q, stderr %q", path, code, out, errOut)
		}
	}
	if code, out, errOut := runCLI(t, "", "--credentials", creds, "--field", "data.nope", "GET", "/open/v1/products"); code != 1 || out != "" || !strings.Contains(errOut, "no field data.nope") {
		t.Errorf("missing field: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut := runCLI(t, "", "--credentials", creds, "--field", "data.product_id", "GET", "/missing/1")
	if code != 1 || out != "" || !strings.Contains(errOut, `"code": "NOT_FOUND"`) {
		t.Errorf("error answer: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
