package gateway_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/sdk/signing"
)

var ctx = context.Background()

// errorBody is the spec's error envelope, byte for byte in key order.
var errorBody = regexp.MustCompile(`^\{"success":false,"error":\{"code":"([A-Z_]+)","message":"[^"]+"\},"requestId":"([A-Za-z0-9_.-]+)"\}$`)

func expectError(t *testing.T, r *sdk.Response, status int, code string) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body %s", r.Status, status, r.Body)
	}
	m := errorBody.FindSubmatch(r.Body)
	if m == nil {
		t.Fatalf("error body does not have the spec's shape: %s", r.Body)
	}
	if string(m[1]) != code {
		t.Fatalf("code %s, want %s; body %s", m[1], code, r.Body)
	}
	if string(m[2]) != r.Header.Get("X-Request-Id") {
		t.Fatalf("requestId %s differs from X-Request-Id %s", m[2], r.Header.Get("X-Request-Id"))
	}
	if r.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("content type %q", r.Header.Get("Content-Type"))
	}
	if r.Header.Get("X-RateLimit-Limit") == "" {
		t.Fatalf("X-RateLimit-* missing on an error answer")
	}
}

func send(t testing.TB, c *sdk.Client, req sdk.Request) *sdk.Response {
	t.Helper()
	r, err := c.DoSigned(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// firstOrderID lists the client's seller's orders with the given query and
// returns the first one's id (the sandbox seeds orders in every status).
func firstOrderID(t testing.TB, c *sdk.Client, rawQuery string) string {
	t.Helper()
	r := send(t, c, sdk.Request{Method: "GET", Path: "/open/v1/orders", RawQuery: rawQuery})
	if r.Status != 200 {
		t.Fatalf("list: %d %s", r.Status, r.Body)
	}
	var page struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(r.Body, &page); err != nil || len(page.Data) == 0 {
		t.Fatalf("list %s: %v %s", rawQuery, err, r.Body)
	}
	return page.Data[0].ID
}

func TestAuthenticationErrorCodes(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	full := env.Client(t, "full", -1)
	usage := "/open/v1/usage"
	now := env.Clock.Now()
	cases := []struct {
		name   string
		req    sdk.Request
		status int
		code   string
	}{
		{"missing partner id", sdk.Request{Method: "GET", Path: usage, OmitHeaders: []string{signing.HeaderPartnerID}}, 400, "BAD_REQUEST"},
		{"missing timestamp", sdk.Request{Method: "GET", Path: usage, OmitHeaders: []string{signing.HeaderTimestamp}}, 400, "BAD_REQUEST"},
		{"missing signature", sdk.Request{Method: "GET", Path: usage, OmitHeaders: []string{signing.HeaderSignature}}, 400, "BAD_REQUEST"},
		{"missing version", sdk.Request{Method: "GET", Path: usage, OmitHeaders: []string{signing.HeaderSignatureVersion}}, 400, "BAD_REQUEST"},
		{"missing nonce", sdk.Request{Method: "GET", Path: usage, OmitHeaders: []string{signing.HeaderNonce}}, 400, "MISSING_NONCE"},
		{"short nonce", sdk.Request{Method: "GET", Path: usage, Nonce: strings.Repeat("a", 31)}, 400, "INVALID_NONCE"},
		{"uppercase nonce", sdk.Request{Method: "GET", Path: usage, Nonce: strings.Repeat("A", 32)}, 400, "INVALID_NONCE"},
		{"long nonce", sdk.Request{Method: "GET", Path: usage, Nonce: strings.Repeat("a", 65)}, 400, "INVALID_NONCE"},
		{"version 1", sdk.Request{Method: "GET", Path: usage, Version: "1"}, 401, "HMAC_VERSION_DEPRECATED"},
		{"version 2", sdk.Request{Method: "GET", Path: usage, Version: "2"}, 401, "HMAC_VERSION_DEPRECATED"},
		{"stale timestamp", sdk.Request{Method: "GET", Path: usage, Timestamp: strconv.FormatInt(now.Add(-91*time.Second).Unix(), 10)}, 401, "TIMESTAMP_EXPIRED"},
		{"future timestamp", sdk.Request{Method: "GET", Path: usage, Timestamp: strconv.FormatInt(now.Add(91*time.Second).Unix(), 10)}, 401, "TIMESTAMP_EXPIRED"},
		{"milliseconds", sdk.Request{Method: "GET", Path: usage, Timestamp: strconv.FormatInt(now.UnixMilli(), 10)}, 401, "TIMESTAMP_EXPIRED"},
		{"wrong signature", sdk.Request{Method: "GET", Path: usage, ExtraHeaders: http.Header{signing.HeaderSignature: {strings.Repeat("0", 64)}}}, 401, "INVALID_SIGNATURE"},
		{"base64 signature", sdk.Request{Method: "GET", Path: usage, ExtraHeaders: http.Header{signing.HeaderSignature: {"q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA="}}}, 401, "INVALID_SIGNATURE"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expectError(t, send(t, full, c.req), c.status, c.code)
		})
	}

	t.Run("uppercase hex signature", func(t *testing.T) {
		req, err := full.NewRequest(ctx, sdk.Request{Method: "GET", Path: usage})
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set(signing.HeaderSignature, strings.ToUpper(req.Header.Get(signing.HeaderSignature)))
		r := do(t, req)
		expectError(t, r, 401, "INVALID_SIGNATURE")
	})
	t.Run("signed for another path", func(t *testing.T) {
		req, err := full.NewRequest(ctx, sdk.Request{Method: "GET", Path: usage})
		if err != nil {
			t.Fatal(err)
		}
		req.URL.Path = "/open/v1/sandbox/clock"
		expectError(t, do(t, req), 401, "INVALID_SIGNATURE")
	})
	t.Run("signed for another query", func(t *testing.T) {
		req, err := full.NewRequest(ctx, sdk.Request{Method: "GET", Path: "/open/v1/categories", RawQuery: "limit=5"})
		if err != nil {
			t.Fatal(err)
		}
		req.URL.RawQuery = "limit=6"
		expectError(t, do(t, req), 401, "INVALID_SIGNATURE")
	})
	t.Run("tampered body", func(t *testing.T) {
		req, err := full.NewRequest(ctx, sdk.Request{Method: "POST", Path: "/open/v1/products", Body: []byte(`{"title":"a"}`)})
		if err != nil {
			t.Fatal(err)
		}
		req.Body = ioNop(`{"title":"b"}`)
		r := do(t, req)
		expectError(t, r, 401, "INVALID_SIGNATURE")
	})
	t.Run("unknown client id", func(t *testing.T) {
		c, _ := sdk.New(sdk.Config{BaseURL: env.BaseURL, ClientID: "test_unknownapp", ClientSecret: "x", Now: env.Clock.Now})
		expectError(t, send(t, c, sdk.Request{Method: "GET", Path: usage}), 401, "INVALID_CREDENTIALS")
	})
	t.Run("live credentials on the sandbox", func(t *testing.T) {
		live := env.Client(t, "live", -1)
		expectError(t, send(t, live, sdk.Request{Method: "GET", Path: usage}), 401, "INVALID_CREDENTIALS")
	})
	t.Run("live credentials on a sandbox route", func(t *testing.T) {
		live := env.Client(t, "live", -1)
		expectError(t, send(t, live, sdk.Request{Method: "GET", Path: "/open/v1/sandbox/clock"}), 403, "SANDBOX_ONLY")
	})
	t.Run("nonce reused", func(t *testing.T) {
		nonce := signing.NewNonce()
		if r := send(t, full, sdk.Request{Method: "GET", Path: usage, Nonce: nonce}); r.Status != 200 {
			t.Fatalf("first use: %d %s", r.Status, r.Body)
		}
		expectError(t, send(t, full, sdk.Request{Method: "GET", Path: usage, Nonce: nonce}), 401, "NONCE_REUSED")
		// The same nonce on another path is still a reuse.
		expectError(t, send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/categories", Nonce: nonce}), 401, "NONCE_REUSED")
	})
	t.Run("exact replay", func(t *testing.T) {
		req, err := full.NewRequest(ctx, sdk.Request{Method: "GET", Path: usage})
		if err != nil {
			t.Fatal(err)
		}
		again := req.Clone(ctx)
		if r := do(t, req); r.Status != 200 {
			t.Fatalf("first: %d %s", r.Status, r.Body)
		}
		expectError(t, do(t, again), 401, "NONCE_REUSED")
	})
	t.Run("missing scope", func(t *testing.T) {
		limited := env.Client(t, "limited", 0)
		expectError(t, send(t, limited, sdk.Request{Method: "POST", Path: "/open/v1/products", Body: []byte(`{}`)}), 403, "FORBIDDEN")
	})
	t.Run("seller token required", func(t *testing.T) {
		expectError(t, send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/orders"}), 401, "SELLER_TOKEN_REQUIRED")
		s := env.Creds.Sellers[0]
		onlyID := full.WithSeller(s.SellerID, "")
		expectError(t, send(t, onlyID, sdk.Request{Method: "GET", Path: "/open/v1/orders"}), 401, "SELLER_TOKEN_REQUIRED")
	})
	t.Run("another app's seller token", func(t *testing.T) {
		s := env.Creds.Sellers[0]
		wrong := full.WithSeller(s.SellerID, s.Tokens["limited"].AccessToken)
		expectError(t, send(t, wrong, sdk.Request{Method: "GET", Path: "/open/v1/orders"}), 404, "NOT_FOUND")
		mismatched := full.WithSeller(env.Creds.Sellers[1].SellerID, s.Tokens["full"].AccessToken)
		expectError(t, send(t, mismatched, sdk.Request{Method: "GET", Path: "/open/v1/orders"}), 404, "NOT_FOUND")
		// Hostile header values never reach core.
		for _, bad := range []string{"slr 1", "slr|1", "sl\u00e9r", strings.Repeat("s", 129)} {
			hostile := full.WithSeller(bad, s.Tokens["full"].AccessToken)
			expectError(t, send(t, hostile, sdk.Request{Method: "GET", Path: "/open/v1/orders"}), 404, "NOT_FOUND")
		}
	})
}

func TestRouterAndBodyErrors(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	full := env.Client(t, "full", 0)
	expectError(t, send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/nowhere"}), 404, "NOT_FOUND")
	expectError(t, send(t, full, sdk.Request{Method: "GET", Path: "/elsewhere"}), 404, "NOT_FOUND")
	r := send(t, full, sdk.Request{Method: "DELETE", Path: "/open/v1/categories"})
	if r.Status != 405 || r.Header.Get("Allow") != "GET" || !errorBody.Match(r.Body) {
		t.Fatalf("405: %d %q %s", r.Status, r.Header.Get("Allow"), r.Body)
	}
	// Over 1 MiB: 413 before anything is parsed (the body is not even JSON).
	big := bytes.Repeat([]byte("x"), 1<<20+1)
	expectError(t, send(t, full, sdk.Request{Method: "POST", Path: "/open/v1/products", Body: big}), 413, "PAYLOAD_TOO_LARGE")
	expectError(t, send(t, full, sdk.Request{Method: "POST", Path: "/open/v1/products", Body: []byte(`{"title":`)}), 400, "INVALID_JSON")
	expectError(t, send(t, full, sdk.Request{Method: "POST", Path: "/open/v1/products", Body: []byte(`{"title":"Cotton shirt","sneaky":true}`)}), 400, "VALIDATION_ERROR")
	expectError(t, send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/orders", RawQuery: "limit=0"}), 400, "VALIDATION_ERROR")
	expectError(t, send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/orders", RawQuery: "limit=101"}), 400, "VALIDATION_ERROR")
	expectError(t, send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/orders", RawQuery: "unknown=1"}), 400, "VALIDATION_ERROR")
	req, err := full.NewRequest(ctx, sdk.Request{Method: "GET", Path: "/open/v1/orders", RawQuery: "status=SHIPPED"})
	if err != nil {
		t.Fatal(err)
	}
	req.URL.RawQuery = "status=%zz" // no canonical form: refused before the signature is compared
	expectError(t, do(t, req), 400, "BAD_REQUEST")
	expectError(t, send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/payouts"}), 501, "NOT_IMPLEMENTED")
}

func TestUsageAndRateLimits(t *testing.T) {
	for _, backend := range []string{"memory", "redis"} {
		t.Run(backend, func(t *testing.T) {
			opts := testenv.Options{Limits: admission.Limits{AppPerMinute: 5, AccountPerMinute: 8, SandboxPerMinute: 3}}
			if backend == "redis" {
				opts.Admission = redisStore(t)
			}
			env := testenv.Start(t, opts)
			full := env.Client(t, "full", -1)
			r := send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/usage"})
			if r.Status != 200 {
				t.Fatalf("usage: %d %s", r.Status, r.Body)
			}
			var usage struct {
				ClientID    string   `json:"client_id"`
				Environment string   `json:"environment"`
				Scopes      []string `json:"scopes"`
				RateLimits  []struct {
					Bucket    string `json:"bucket"`
					Limit     int64  `json:"limit"`
					Remaining int64  `json:"remaining"`
				} `json:"rate_limits"`
			}
			if err := r.Decode(&usage); err != nil {
				t.Fatal(err)
			}
			if usage.ClientID != env.Creds.Apps["full"].ClientID || usage.Environment != "sandbox" || len(usage.RateLimits) != 2 ||
				usage.RateLimits[0].Bucket != "app" || usage.RateLimits[0].Limit != 5 || usage.RateLimits[0].Remaining != 4 ||
				usage.RateLimits[1].Limit != 8 {
				t.Fatalf("usage %+v", usage)
			}
			if r.Header.Get("X-RateLimit-Limit") != "5" || r.Header.Get("X-RateLimit-Remaining") != "4" || r.Header.Get("X-RateLimit-Reset") == "" {
				t.Fatalf("headers %v", r.Header)
			}
			for i := 0; i < 4; i++ {
				send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/usage"})
			}
			r = send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/usage"})
			expectError(t, r, 429, "RATE_LIMITED")
			if ra, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || ra < 1 || ra > 60 {
				t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
			}
			// The account bucket (8) is shared by the account's apps: the
			// limited app has 3 left of it.
			limited := env.Client(t, "limited", -1)
			for i := 0; i < 2; i++ {
				if r := send(t, limited, sdk.Request{Method: "GET", Path: "/open/v1/usage"}); r.Status != 200 {
					t.Fatalf("limited %d: %d %s", i, r.Status, r.Body)
				}
			}
			expectError(t, send(t, limited, sdk.Request{Method: "GET", Path: "/open/v1/usage"}), 429, "RATE_LIMITED")
			// A new minute starts fresh.
			env.Clock.Advance(time.Minute)
			if r := send(t, env.Client(t, "limited", 0), sdk.Request{Method: "GET", Path: "/open/v1/sandbox/clock"}); r.Status != 200 || r.Header.Get("X-RateLimit-Limit") != "3" {
				t.Fatalf("sandbox route: %d %q %s", r.Status, r.Header.Get("X-RateLimit-Limit"), r.Body)
			}
		})
	}
}

func TestTimestampWindowIsConfigurable(t *testing.T) {
	env := testenv.Start(t, testenv.Options{Mutate: func(c *gateway.Config) { c.TimestampWindow = 30 * time.Second }})
	full := env.Client(t, "full", -1)
	// The admission store refuses what was signed before its memory began
	// (the test clock's start; see TestReplayAfterEmptyRedisRestart): let
	// the clock pass it, so that 29 s ago is after it.
	if r := send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/usage"}); r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	env.Clock.Advance(30 * time.Second)
	old := strconv.FormatInt(env.Clock.Now().Add(-31*time.Second).Unix(), 10)
	expectError(t, send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/usage", Timestamp: old}), 401, "TIMESTAMP_EXPIRED")
	fresh := strconv.FormatInt(env.Clock.Now().Add(-29*time.Second).Unix(), 10)
	if r := send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/usage", Timestamp: fresh}); r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	for _, w := range []time.Duration{29 * time.Second, 301 * time.Second} {
		cfg := gateway.Config{TimestampWindow: w}
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "timestamp window") {
			t.Fatalf("window %s accepted", w)
		}
	}
}

func TestSuccessEnvelope(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	r := send(t, env.Client(t, "full", 0), sdk.Request{Method: "GET", Path: "/open/v1/sandbox/clock"})
	var got map[string]json.RawMessage
	if err := json.Unmarshal(r.Body, &got); err != nil || r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	if !bytes.HasPrefix(r.Body, []byte(`{"success":true,"data":{"now":"`)) || string(got["success"]) != "true" {
		t.Fatalf("envelope: %s", r.Body)
	}
}

// The headers grpc-gateway would otherwise act on stay at the gateway: a
// client's Grpc-Timeout does not cut core's deadline short, a method
// override or form content type does not reroute or re-decode the call.
// (What core receives as metadata is checked against a stub core in
// TestCoreReceivesOnlyVerifiedMetadata.)
func TestClientTransportHeadersDoNotReachCore(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	r := send(t, env.Client(t, "full", 0), sdk.Request{Method: "GET", Path: "/open/v1/sandbox/clock", ExtraHeaders: http.Header{
		"Grpc-Timeout":           {"1n"},
		"X-Http-Method-Override": {"POST"},
		"Content-Type":           {"application/x-www-form-urlencoded"},
	}})
	if r.Status != http.StatusOK {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
}

// An enum filter is refused with the values the endpoint accepts, by their
// wire names: the order list's status takes the five order statuses, not
// PENDING and PAID, which only the cancellation guard knows.
func TestEnumFilterErrorsNameTheAcceptedValues(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	full := env.Client(t, "full", 0)
	const want = `"status: must be one of: READY_TO_SHIP, SHIPPED, DELIVERED, CANCELLED, RETURN_REFUND"`
	for _, status := range []string{"shipped", "PENDING", "PAID"} {
		r := send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/orders", RawQuery: "status=" + status})
		expectError(t, r, 400, "VALIDATION_ERROR")
		if !bytes.Contains(r.Body, []byte(`"message":`+want)) {
			t.Errorf("status=%s: %s", status, r.Body)
		}
	}
	r := send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/orders", RawQuery: "sort=newest"})
	if !bytes.Contains(r.Body, []byte(`"message":"sort: must be one of: created_at_asc, created_at_desc"`)) {
		t.Errorf("sort=newest: %s", r.Body)
	}
}
