package gateway_test

import (
	"cmp"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/test/bufconn"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/gateway/admission"
	authv1 "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/sdk/signing"
)

// fakeAuthorization stands in for core's AuthorizationService: it answers
// fixed values and records the metadata each call reached it with.
type fakeAuthorization struct {
	authv1.UnimplementedAuthorizationServiceServer
	mu    sync.Mutex
	calls []fakeCall
	// location is what Authorize answers.
	location string
}

type fakeCall struct {
	method string
	md     metadata.MD
}

func (f *fakeAuthorization) record(ctx context.Context, method string) {
	md, _ := metadata.FromIncomingContext(ctx)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, fakeCall{method, md})
}

// last is the last call's metadata, and how many calls were made.
func (f *fakeAuthorization) last() (fakeCall, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.calls) == 0 {
		return fakeCall{}, 0
	}
	return f.calls[len(f.calls)-1], len(f.calls)
}

func (f *fakeAuthorization) count() int { _, n := f.last(); return n }

func (f *fakeAuthorization) Authorize(ctx context.Context, _ *authv1.AuthorizeRequest) (*authv1.AuthorizeResponse, error) {
	f.record(ctx, "Authorize")
	return &authv1.AuthorizeResponse{Data: &authv1.Authorization{Location: f.location, ExpiresIn: 600}}, nil
}

func (f *fakeAuthorization) VerifySeller(ctx context.Context, _ *authv1.VerifySellerRequest) (*authv1.VerifySellerResponse, error) {
	f.record(ctx, "VerifySeller")
	return &authv1.VerifySellerResponse{Data: &authv1.SellerVerified{OtpRequired: true, OtpExpiresIn: 300,
		MaskedDestination: "+63 9** *** 4567", SessionCookie: "cs_Fake-Session.Value_1"}}, nil
}

func (f *fakeAuthorization) VerifySellerOtp(ctx context.Context, _ *authv1.VerifySellerOtpRequest) (*authv1.VerifySellerOtpResponse, error) {
	f.record(ctx, "VerifySellerOtp")
	return &authv1.VerifySellerOtpResponse{Data: &authv1.ConsentRequested{App: &authv1.ConsentApp{Name: "Acme OMS"}, Scopes: []string{"orders:read"}}}, nil
}

func (f *fakeAuthorization) Consent(ctx context.Context, _ *authv1.ConsentRequest) (*authv1.RedirectResponse, error) {
	f.record(ctx, "Consent")
	return &authv1.RedirectResponse{Data: &authv1.Redirect{RedirectUrl: "https://app.example/cb?code=c1&state=s"}}, nil
}

func (f *fakeAuthorization) Deny(ctx context.Context, _ *authv1.DenyRequest) (*authv1.RedirectResponse, error) {
	f.record(ctx, "Deny")
	return &authv1.RedirectResponse{Data: &authv1.Redirect{RedirectUrl: "https://app.example/cb?error=access_denied&state=s"}}, nil
}

// startWithFakeAuthorization starts the platform with the gateway's calls
// to AuthorizationService answered by a fake; every other call reaches the
// real core.
func startWithFakeAuthorization(t *testing.T, opts testenv.Options) (*testenv.Env, *fakeAuthorization) {
	t.Helper()
	fake := &fakeAuthorization{location: "/open/v1/auth/consent?session=sess_1"}
	prefix := "/" + authv1.AuthorizationService_ServiceDesc.ServiceName + "/"
	return startWithAuthorization(t, opts, fake, func(method string) bool { return strings.HasPrefix(method, prefix) }), fake
}

// startWithAuthorization starts the platform with the gateway's calls of
// the methods routed answers answered by srv (an AuthorizationService
// stand-in); every other call reaches the real core.
func startWithAuthorization(t *testing.T, opts testenv.Options, srv authv1.AuthorizationServiceServer, routed func(method string) bool) *testenv.Env {
	t.Helper()
	gs := grpc.NewServer()
	authv1.RegisterAuthorizationServiceServer(gs, srv)
	lis := bufconn.Listen(1 << 20)
	go func() { _ = gs.Serve(lis) }()
	t.Cleanup(gs.Stop)
	mutate := opts.Mutate
	opts.Mutate = func(c *gateway.Config) {
		coreConn := c.Core
		conn, err := grpc.NewClient("passthrough:///stand-in",
			grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
			grpc.WithUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, o ...grpc.CallOption) error {
				if routed(method) {
					return invoker(ctx, method, req, reply, cc, o...)
				}
				return coreConn.Invoke(ctx, method, req, reply, o...)
			}))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = conn.Close() })
		c.Core = conn
		if mutate != nil {
			mutate(c)
		}
	}
	return testenv.Start(t, opts)
}

// browser sends an unsigned request as the consent pages do.
func browser(t *testing.T, env *testenv.Env, path, body string, h http.Header) *sdk.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, env.BaseURL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range h {
		req.Header[k] = v
	}
	return do(t, req)
}

func withCookie(value string) http.Header {
	return http.Header{"Cookie": {gateway.ConsentCookie + "=" + value}}
}

// TestAuthorizeRedirects: authorize answers 302 with Location the consent
// page, absolute on the request's own host (or on the public address when
// one is set), and the body's location absolute too.
func TestAuthorizeRedirects(t *testing.T) {
	authorize := func(t *testing.T, env *testenv.Env) *sdk.Response {
		t.Helper()
		full := env.Client(t, "full", -1)
		return send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/auth/authorize",
			RawQuery: "client_id=" + env.Creds.Apps["full"].ClientID + "&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=xyz"})
	}
	check := func(t *testing.T, r *sdk.Response, want string) {
		t.Helper()
		if r.Status != http.StatusFound {
			t.Fatalf("authorize: %d %s, want 302", r.Status, r.Body)
		}
		if got := r.Header.Get("Location"); got != want {
			t.Errorf("Location %q, want %q", got, want)
		}
		var body struct {
			Success bool `json:"success"`
			Data    struct {
				Location  string `json:"location"`
				ExpiresIn int64  `json:"expires_in"`
			} `json:"data"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil || !body.Success || body.Data.Location != want || body.Data.ExpiresIn != 600 {
			t.Errorf("body %s, want the absolute location %s", r.Body, want)
		}
	}
	t.Run("request's host", func(t *testing.T) {
		env, fake := startWithFakeAuthorization(t, testenv.Options{})
		check(t, authorize(t, env), env.BaseURL+"/open/v1/auth/consent?session=sess_1")
		// A signed route: the app reaches core, and no session or address.
		call, _ := fake.last()
		if p, ok := principal.FromMetadata(call.md); !ok || p.ClientID != env.Creds.Apps["full"].ClientID {
			t.Errorf("authorize reached core without the app: %v", call.md)
		}
		if v := call.md.Get(principal.KeyConsentSession); len(v) > 0 {
			t.Errorf("a consent session on a signed route: %v", v)
		}
		// A location on another origin is never sent.
		fake.location = "https://elsewhere.example/open/v1/auth/consent"
		expectError(t, authorize(t, env), 500, "INTERNAL_ERROR")
	})
	t.Run("public address", func(t *testing.T) {
		env, _ := startWithFakeAuthorization(t, testenv.Options{Mutate: func(c *gateway.Config) { c.PublicURL = "https://api.mall.example" }})
		check(t, authorize(t, env), "https://api.mall.example/open/v1/auth/consent?session=sess_1")
	})
}

// TestSellerVerifySetsTheSessionCookie: seller-verify is unsigned; its
// answer carries the session in an HttpOnly, SameSite=Strict cookie (Secure
// on https) and not in the body; core gets the client's address.
func TestSellerVerifySetsTheSessionCookie(t *testing.T) {
	body := `{"session":"sess_1","username":"shop@example.ph","password":"pw"}`
	t.Run("http", func(t *testing.T) {
		env, fake := startWithFakeAuthorization(t, testenv.Options{})
		r := browser(t, env, "/open/v1/auth/seller-verify", body, nil)
		if r.Status != 200 {
			t.Fatalf("seller-verify: %d %s", r.Status, r.Body)
		}
		if got, want := string(r.Body), `{"success":true,"data":{"otp_required":true,"otp_expires_in":300,"masked_destination":"+63 9** *** 4567"}}`; got != want {
			t.Errorf("body %s, want %s", got, want)
		}
		cookies := r.Header.Values("Set-Cookie")
		if len(cookies) != 1 || cookies[0] != "mp_consent=cs_Fake-Session.Value_1; Path=/open/v1/auth; Max-Age=600; HttpOnly; SameSite=Strict" {
			t.Errorf("Set-Cookie %q", cookies)
		}
		call, _ := fake.last()
		if got := principal.First(call.md, principal.KeyClientIP); got != "127.0.0.1" {
			t.Errorf("client address %q, want 127.0.0.1", got)
		}
		if _, ok := principal.FromMetadata(call.md); ok {
			t.Error("an unsigned call reached core with an app")
		}
	})
	t.Run("https public address", func(t *testing.T) {
		env, _ := startWithFakeAuthorization(t, testenv.Options{Mutate: func(c *gateway.Config) { c.PublicURL = "https://api.mall.example" }})
		r := browser(t, env, "/open/v1/auth/seller-verify", body, nil)
		if c := r.Header.Get("Set-Cookie"); r.Status != 200 || !strings.HasSuffix(c, "; HttpOnly; Secure; SameSite=Strict") {
			t.Errorf("%d Set-Cookie %q, want Secure", r.Status, c)
		}
	})
}

// TestSessionRoutes: the session cookie travels to core as the consent
// session; without it core gets none. Deny's signing headers, when sent,
// are verified fully and the app travels with the session.
func TestSessionRoutes(t *testing.T) {
	env, fake := startWithFakeAuthorization(t, testenv.Options{})
	r := browser(t, env, "/open/v1/auth/seller-verify-otp", `{"code":"123456"}`, withCookie("cs_abc"))
	if r.Status != 200 || !strings.Contains(string(r.Body), `"name":"Acme OMS"`) {
		t.Fatalf("seller-verify-otp: %d %s", r.Status, r.Body)
	}
	call, _ := fake.last()
	if got := principal.First(call.md, principal.KeyConsentSession); got != "cs_abc" {
		t.Errorf("consent session %q, want the cookie's value", got)
	}
	if got := principal.First(call.md, principal.KeyClientIP); got != "127.0.0.1" {
		t.Errorf("client address %q", got)
	}
	// No cookie: nothing is forwarded (core answers SESSION_EXPIRED).
	browser(t, env, "/open/v1/auth/seller-consent", "", nil)
	if call, _ := fake.last(); call.method != "Consent" || len(call.md.Get(principal.KeyConsentSession)) > 0 {
		t.Errorf("consent without a cookie: %s %v", call.method, call.md)
	}
	// Empty bodies are empty requests.
	if r := browser(t, env, "/open/v1/auth/deny", "", withCookie("cs_abc")); r.Status != 200 || !strings.Contains(string(r.Body), "access_denied") {
		t.Errorf("deny with an empty body: %d %s", r.Status, r.Body)
	}
	call, _ = fake.last()
	if call.method != "Deny" || principal.First(call.md, principal.KeyConsentSession) != "cs_abc" {
		t.Errorf("deny: %s %v", call.method, call.md)
	}
	if _, ok := principal.FromMetadata(call.md); ok {
		t.Error("an unsigned deny reached core with an app")
	}

	// Deny signed by the app: verified, and the app goes to core.
	full := env.Client(t, "full", -1)
	cookie := withCookie("cs_abc")
	r = send(t, full, sdk.Request{Method: "POST", Path: "/open/v1/auth/deny", Body: []byte(`{}`), ExtraHeaders: cookie})
	if r.Status != 200 {
		t.Fatalf("signed deny: %d %s", r.Status, r.Body)
	}
	call, n := fake.last()
	if p, ok := principal.FromMetadata(call.md); !ok || p.ClientID != env.Creds.Apps["full"].ClientID || principal.First(call.md, principal.KeyConsentSession) != "cs_abc" {
		t.Errorf("signed deny reached core with %v", call.md)
	}
	// A bad signature, or some of the headers alone, is refused before core.
	bad := cookie.Clone()
	bad.Set(signing.HeaderSignature, strings.Repeat("0", 64))
	expectError(t, send(t, full, sdk.Request{Method: "POST", Path: "/open/v1/auth/deny", Body: []byte(`{}`), ExtraHeaders: bad}), 401, "INVALID_SIGNATURE")
	expectError(t, send(t, full, sdk.Request{Method: "POST", Path: "/open/v1/auth/deny", Body: []byte(`{}`), ExtraHeaders: cookie,
		OmitHeaders: []string{signing.HeaderSignature}}), 400, "BAD_REQUEST")
	expectError(t, browser(t, env, "/open/v1/auth/deny", "", http.Header{"Cookie": cookie["Cookie"], signing.HeaderPartnerID: {env.Creds.Apps["full"].ClientID}}), 400, "BAD_REQUEST")
	if fake.count() != n {
		t.Errorf("refused requests reached core: %d calls, want %d", fake.count(), n)
	}
}

// TestCrossOriginRefused: every POST of the consent flow's unsigned and
// session routes refuses cross-origin browser requests with 403 FORBIDDEN
// through the error writer; same-origin and non-browser requests pass.
func TestCrossOriginRefused(t *testing.T) {
	env, fake := startWithFakeAuthorization(t, testenv.Options{})
	host := strings.TrimPrefix(env.BaseURL, "http://")
	routes := map[string]string{
		"/open/v1/auth/seller-verify":     `{"session":"s","username":"u","password":"p"}`,
		"/open/v1/auth/seller-verify-otp": `{"code":"123456"}`,
		"/open/v1/auth/seller-consent":    ``,
		"/open/v1/auth/deny":              ``,
	}
	for path, body := range routes {
		for name, h := range map[string]http.Header{
			"cross-site fetch":         {"Sec-Fetch-Site": {"cross-site"}},
			"same-site fetch":          {"Sec-Fetch-Site": {"same-site"}, "Origin": {"http://pages." + host}},
			"foreign origin":           {"Origin": {"https://evil.example"}},
			"cross-site with a cookie": {"Sec-Fetch-Site": {"cross-site"}, "Cookie": {gateway.ConsentCookie + "=cs_abc"}},
		} {
			before := fake.count()
			r := browser(t, env, path, body, h)
			expectError(t, r, 403, "FORBIDDEN")
			if !strings.Contains(string(r.Body), "cross-origin") {
				t.Errorf("%s %s: message %s", path, name, r.Body)
			}
			if fake.count() != before {
				t.Errorf("%s %s reached core", path, name)
			}
		}
		for name, h := range map[string]http.Header{
			"same-origin fetch": {"Sec-Fetch-Site": {"same-origin"}, "Origin": {env.BaseURL}},
			"user-typed":        {"Sec-Fetch-Site": {"none"}},
			"same origin":       {"Origin": {env.BaseURL}},
			"not a browser":     {},
		} {
			if r := browser(t, env, path, body, h); r.Status != 200 {
				t.Errorf("%s %s: %d %s", path, name, r.Status, r.Body)
			}
		}
	}
}

// TestSignInLimits: seller-verify is limited to 10 attempts per client
// address and 5 per username (trimmed, lowercased, known or not) in a
// rolling 15 minutes; every attempt counts, refused ones are not recorded,
// and a refusal is 429 RATE_LIMITED with Retry-After until the oldest
// counted attempt leaves the window.
func TestSignInLimits(t *testing.T) {
	env, fake := startWithFakeAuthorization(t, testenv.Options{Mutate: func(c *gateway.Config) {
		// The test's proxy reports the client's address.
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	}})
	signInLimitsCase(t, []*testenv.Env{env}, fake.count)
}

// TestSignInLimitsAcrossReplicas: two gateways on one Redis share the
// sign-in budget.
func TestSignInLimitsAcrossReplicas(t *testing.T) {
	redisStore(t) // Redis answers (or the test skips, or fails in CI)
	prefix := "mp-test:" + ids.Token(5) + ":"
	var envs []*testenv.Env
	var fakes []*fakeAuthorization
	for range 2 {
		// Each replica has its own client on the same keys.
		store, err := admission.NewRedis(admission.RedisConfig{Addr: cmp.Or(os.Getenv("REDIS_ADDR"), "127.0.0.1:6379"), Prefix: prefix})
		if err != nil {
			t.Fatal(err)
		}
		env, fake := startWithFakeAuthorization(t, testenv.Options{Admission: store, Mutate: func(c *gateway.Config) {
			c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
		}})
		envs, fakes = append(envs, env), append(fakes, fake)
	}
	// One clock for both, as replicas share the wall clock.
	envs[1].Clock.Set(envs[0].Clock.Now())
	signInLimitsCase(t, envs, func() int { return fakes[0].count() + fakes[1].count() })
}

func signInLimitsCase(t *testing.T, envs []*testenv.Env, calls func() int) {
	i := 0
	attempt := func(ip, body string) *sdk.Response {
		t.Helper()
		env := envs[i%len(envs)]
		i++
		return browser(t, env, "/open/v1/auth/seller-verify", body, http.Header{"X-Forwarded-For": {ip}})
	}
	advance := func(d time.Duration) {
		for _, e := range envs {
			e.Clock.Advance(d)
		}
	}
	as := func(username string) string {
		return `{"session":"s","username":` + strconv.Quote(username) + `,"password":"wrong"}`
	}
	refused := func(r *sdk.Response, retryAfter string) {
		t.Helper()
		expectError(t, r, 429, "RATE_LIMITED")
		if got := r.Header.Get("Retry-After"); got != retryAfter {
			t.Errorf("Retry-After %q, want %q", got, retryAfter)
		}
	}
	// Five attempts for one seller from five addresses, spelled alike but
	// for case and spaces, a minute apart: the sixth is refused (from a
	// sixth address too) until the first leaves the window.
	for k, u := range []string{"Shop@Example.ph", " shop@example.ph", "SHOP@EXAMPLE.PH ", "shop@example.ph", "shop@Example.PH"} {
		if r := attempt("198.51.100."+strconv.Itoa(k+1), as(u)); r.Status != 200 {
			t.Fatalf("attempt %d: %d %s", k+1, r.Status, r.Body)
		}
		if k < 4 {
			advance(time.Minute)
		}
	}
	before := calls()
	advance(6 * time.Minute) // 10 minutes after the first
	refused(attempt("198.51.100.6", as("shop@example.ph")), "300")
	// Refused attempts are not recorded: a burst does not push the end of
	// the window back.
	for range 5 {
		refused(attempt("198.51.100.7", as("shop@example.ph")), "300")
	}
	if calls() != before {
		t.Errorf("refused attempts reached core")
	}
	advance(5 * time.Minute) // the first attempt leaves
	if r := attempt("198.51.100.8", as("shop@example.ph")); r.Status != 200 {
		t.Fatalf("after the first attempt left the window: %d %s", r.Status, r.Body)
	}
	// The window rolls: the next room is when the second attempt leaves.
	refused(attempt("198.51.100.9", as("shop@example.ph")), "60")

	// Per address: 10 attempts, whatever the usernames (unknown ones
	// alike) and with none at all.
	for k := range 10 {
		body := as("nobody-" + strconv.Itoa(k) + "@example.ph")
		if k%3 == 0 {
			body = `{"session":"s"}`
		}
		if r := attempt("203.0.113.5", body); r.Status != 200 {
			t.Fatalf("address attempt %d: %d %s", k+1, r.Status, r.Body)
		}
	}
	refused(attempt("203.0.113.5", as("another@example.ph")), "900")
	if r := attempt("203.0.113.6", as("another@example.ph")); r.Status != 200 {
		t.Errorf("another address: %d %s", r.Status, r.Body)
	}
	advance(15 * time.Minute)
	if r := attempt("203.0.113.5", as("another@example.ph")); r.Status != 200 {
		t.Errorf("after the window: %d %s", r.Status, r.Body)
	}
}

// failingAttempts is an attempt store that cannot answer.
type failingAttempts struct{}

func (failingAttempts) Attempt(context.Context, admission.AttemptRequest) (admission.AttemptResult, error) {
	return admission.AttemptResult{}, context.DeadlineExceeded
}

// TestSignInFailsClosed: when the attempts cannot be counted, the sign-in
// answers 503 with Retry-After and core is not asked.
func TestSignInFailsClosed(t *testing.T) {
	env, fake := startWithFakeAuthorization(t, testenv.Options{Mutate: func(c *gateway.Config) { c.Attempts = failingAttempts{} }})
	r := browser(t, env, "/open/v1/auth/seller-verify", `{"session":"s","username":"u","password":"p"}`, nil)
	expectError(t, r, 503, "SERVICE_UNAVAILABLE")
	if r.Header.Get("Retry-After") == "" || fake.count() != 0 {
		t.Errorf("Retry-After %q, %d calls to core", r.Header.Get("Retry-After"), fake.count())
	}
	// The other session routes do not count attempts.
	if r := browser(t, env, "/open/v1/auth/seller-verify-otp", `{"code":"123456"}`, withCookie("cs_1")); r.Status != 200 {
		t.Errorf("seller-verify-otp: %d %s", r.Status, r.Body)
	}
}
