package gateway_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/sdk/signing"
)

// echoedString finds the string-to-sign a sandbox INVALID_SIGNATURE names.
var echoedString = regexp.MustCompile(`the string-to-sign \[(.*)\] \(fields timestamp:clientId:METHOD:path:canonicalQuery:sha256\(body\):nonce; the body had (\d+) bytes\)`)

// mistake is a partner's signing error: the request it sends and how the
// string it signed differs from the right one.
type mistake struct {
	name string
	// method, path, query, body are sent.
	method, path, query string
	body                []byte
	// field is the index (0-6) of the signed string's one wrong field, and
	// wrong its value; field -1 signs the right string with another secret.
	field int
	wrong string
}

var sixMistakes = []mistake{
	{name: "wrong path", method: "GET", path: "/open/v1/usage", field: 3, wrong: "/v1/usage"},
	{name: "query not canonicalised", method: "GET", path: "/open/v1/categories", query: "page=1&limit=5", field: 4, wrong: "page=1&limit=5"},
	{name: "body changed after signing", method: "POST", path: "/open/v1/products", body: []byte(`{"title":"Linen wrap midi dress"}`),
		field: 5, wrong: signing.BodySHA256([]byte(`{"title": "Linen wrap midi dress"}`))},
	{name: "wrong timestamp in the string", method: "GET", path: "/open/v1/usage", field: 0, wrong: "1700000000000"},
	{name: "wrong method", method: "PUT", path: "/open/v1/products/prd_1", body: []byte(`{}`), field: 2, wrong: "POST"},
	{name: "wrong secret", method: "GET", path: "/open/v1/usage", field: -1},
}

// sendMistake signs m the wrong way with client c's id and its secret (or
// another one), sends it, and returns the answer with the string the
// partner signed and the one the server should have used.
func sendMistake(t *testing.T, env *testenv.Env, c *sdk.Client, secret string, m mistake) (r *sdk.Response, partner, server string) {
	t.Helper()
	right := signing.Request{
		Timestamp: signing.FormatTimestamp(env.Clock.Now()),
		ClientID:  c.ClientID(),
		Method:    m.method,
		Path:      m.path,
		RawQuery:  m.query,
		Body:      m.body,
		Nonce:     signing.NewNonce(),
	}
	server, err := right.StringToSign()
	if err != nil {
		t.Fatal(err)
	}
	partner = server
	if m.field >= 0 {
		f := strings.SplitN(server, ":", 7)
		f[m.field] = m.wrong
		partner = strings.Join(f, ":")
	} else {
		secret = "sk_not_the_apps_secret"
	}
	target := env.BaseURL + m.path
	if m.query != "" {
		target += "?" + m.query
	}
	req, err := http.NewRequest(m.method, target, bytes.NewReader(m.body))
	if err != nil {
		t.Fatal(err)
	}
	signing.Headers{
		PartnerID: right.ClientID, Timestamp: right.Timestamp, SignatureVersion: signing.Version,
		Nonce: right.Nonce, Signature: signing.Sign([]byte(secret), partner),
	}.Set(req.Header)
	return do(t, req), partner, server
}

// errorMessage decodes the error body's message.
func errorMessage(t *testing.T, r *sdk.Response) string {
	t.Helper()
	var b struct {
		Error struct{ Code, Message string }
	}
	if err := json.Unmarshal(r.Body, &b); err != nil {
		t.Fatalf("error body is not JSON: %v: %q", err, r.Body)
	}
	if b.Error.Code != "INVALID_SIGNATURE" {
		t.Fatalf("code %s, want INVALID_SIGNATURE: %s", b.Error.Code, r.Body)
	}
	if len(b.Error.Message) > apierr.MaxMessageBytes {
		t.Fatalf("message is %d bytes, over the %d bound", len(b.Error.Message), apierr.MaxMessageBytes)
	}
	return b.Error.Message
}

func TestSandboxSignatureMismatchNamesTheStringToSign(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	full := env.Client(t, "full", -1)
	secret := env.Creds.Apps["full"].ClientSecret
	for _, m := range sixMistakes {
		t.Run(m.name, func(t *testing.T) {
			r, partner, server := sendMistake(t, env, full, secret, m)
			expectError(t, r, 401, "INVALID_SIGNATURE")
			msg := errorMessage(t, r)
			got := echoedString.FindStringSubmatch(msg)
			if got == nil {
				t.Fatalf("the message names no string-to-sign: %s", msg)
			}
			if got[1] != server {
				t.Fatalf("echoed %q\nwant the string of the request as sent %q", got[1], server)
			}
			if got[2] != fmt.Sprint(len(m.body)) {
				t.Fatalf("body length %s, want %d", got[2], len(m.body))
			}
			// The partner sees the difference in the one field it got wrong.
			echoed, own := strings.SplitN(got[1], ":", 7), strings.SplitN(partner, ":", 7)
			for i := range echoed {
				if differs := echoed[i] != own[i]; differs != (i == m.field) {
					t.Errorf("field %d: server %q, partner %q; want only field %d to differ", i, echoed[i], own[i], m.field)
				}
			}
			for _, s := range []string{secret, "sk_not_the_apps_secret", signing.Sign([]byte(secret), server)} {
				if strings.Contains(string(r.Body), s) {
					t.Fatalf("the answer shows a secret or the expected signature: %s", r.Body)
				}
			}
		})
	}
}

func TestProductionSignatureMismatchIsTerse(t *testing.T) {
	env := testenv.Start(t, testenv.Options{Environment: gateway.EnvProduction})
	live := env.Client(t, "live", -1)
	secret := env.Creds.Apps["live"].ClientSecret
	for _, m := range sixMistakes {
		t.Run(m.name, func(t *testing.T) {
			r, _, _ := sendMistake(t, env, live, secret, m)
			expectError(t, r, 401, "INVALID_SIGNATURE")
			if msg := errorMessage(t, r); msg != "signature does not match the request" {
				t.Fatalf("production message %q", msg)
			}
		})
	}
}

// TestSandboxMismatchEchoIsBounded sends what a partner controls at its
// largest and oddest: the echo stays inside the message bound, keeps the
// fields around the path and query, and carries no byte that could break
// the JSON body, a terminal or a log line.
func TestSandboxMismatchEchoIsBounded(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	full := env.Client(t, "full", -1)
	long := strings.Repeat("a", 6000)
	badSig := strings.Repeat("0", 64)

	t.Run("long path and query", func(t *testing.T) {
		nonce := signing.NewNonce()
		r := send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/orders/" + long, RawQuery: "q=" + long + "&b=%E2%80%AE", Nonce: nonce,
			ExtraHeaders: http.Header{signing.HeaderSignature: {badSig}}})
		expectError(t, r, 401, "INVALID_SIGNATURE")
		msg := errorMessage(t, r)
		got := echoedString.FindStringSubmatch(msg)
		if got == nil || !strings.Contains(msg, "cut (…) to fit") {
			t.Fatalf("message: %s", msg)
		}
		head := fmt.Sprintf(":%s:GET:/open/v1/orders/aaa", full.ClientID())
		tail := "…:" + signing.BodySHA256(nil) + ":" + nonce
		if !strings.Contains(got[1], head) || !strings.HasSuffix(got[1], tail) {
			t.Fatalf("cut echo lost its ends: %s", got[1])
		}
	})

	t.Run("raw bytes in the request line", func(t *testing.T) {
		// Go's HTTP client would escape these; a raw connection sends
		// them as they are, as a careless partner's tool might.
		u, _ := url.Parse(env.BaseURL)
		conn, err := net.Dial("tcp", u.Host)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		ts := signing.FormatTimestamp(env.Clock.Now())
		req := "GET /open/v1/orders/x\"\\\xe2\x80\xae\xff%0a?a=%0d%0a\"<b> HTTP/1.1\r\nHost: " + u.Host +
			"\r\n" + signing.HeaderPartnerID + ": " + full.ClientID() +
			"\r\n" + signing.HeaderTimestamp + ": " + ts +
			"\r\n" + signing.HeaderSignatureVersion + ": 3" +
			"\r\n" + signing.HeaderNonce + ": " + signing.NewNonce() +
			"\r\n" + signing.HeaderSignature + ": " + badSig + "\r\nConnection: close\r\n\r\n"
		if _, err := conn.Write([]byte(req)); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		r := readResponse(t, resp)
		if r.Status != 401 {
			t.Fatalf("status %d: %s", r.Status, r.Body)
		}
		msg := errorMessage(t, r)
		if !utf8.ValidString(msg) || strings.ContainsAny(msg, "\u202e\ufffd\r\n") {
			t.Fatalf("message carries raw bytes: %q", msg)
		}
		if !strings.Contains(msg, `/open/v1/orders/x"\\xe2\x80\xae\xff%0a:a=%0D%0A%22%3Cb%3E:`) || !strings.Contains(msg, `shown as \xNN`) {
			t.Fatalf("message does not show the bytes escaped: %s", msg)
		}
	})
}
