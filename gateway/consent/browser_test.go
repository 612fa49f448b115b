package consent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/mallplatform/partnerapi/gateway/consent"
	authv1 "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	"github.com/mallplatform/partnerapi/internal/browsertest"
)

// flowStub answers the flow's JSON routes as the contract
// (proto/mp/auth/v1/authorization.proto) says, so the page's script can be
// driven in a browser without core: strict bodies, the session cookie set
// by the sign-in, the error envelope, redirect_url on consent and deny.
type flowStub struct {
	t           *testing.T
	redirectURI string
	state       string
	csrf        string
	mu          sync.Mutex
	calls       []stubCall
	// refusals answer the next call of a route with an error.
	refusals map[string]refusal
	// redirectURL, when set, is what consent answers as redirect_url.
	redirectURL string
}

type refusal struct {
	status                int
	code, msg, retryAfter string
}

func (s *flowStub) refuseNext(route string, status int, code, msg, retryAfter string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refusals == nil {
		s.refusals = map[string]refusal{}
	}
	s.refusals[route] = refusal{status, code, msg, retryAfter}
}

type stubCall struct {
	route, body, csrf string
}

const (
	stubUser     = "acme-shop@example.ph"
	stubPassword = "correct horse battery staple"
	stubCode     = "492817"
	stubCookie   = "mp_consent"
)

func (s *flowStub) fail(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, `{"success":false,"error":{"code":"`+code+`","message":"`+message+`"},"requestId":"req_stub"}`)
}

func (s *flowStub) ok(w http.ResponseWriter, data any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"success": true, "data": data})
}

// strict decodes a body into v, refusing unknown fields as the platform does.
func strict(body []byte, v any) bool {
	d := json.NewDecoder(bytes.NewReader(body))
	d.DisallowUnknownFields()
	return d.Decode(v) == nil
}

func (s *flowStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	route := strings.TrimPrefix(r.URL.Path, "/open/v1/auth/")
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.calls = append(s.calls, stubCall{route: route, body: string(body), csrf: r.Header.Get("X-CSRF-Token")})
	ref, refused := s.refusals[route]
	delete(s.refusals, route)
	s.mu.Unlock()
	if refused {
		if ref.retryAfter != "" {
			w.Header().Set("Retry-After", ref.retryAfter)
		}
		s.fail(w, ref.status, ref.code, ref.msg)
		return
	}
	if r.Method != http.MethodPost {
		s.fail(w, http.StatusMethodNotAllowed, "INVALID_REQUEST", "not allowed")
		return
	}
	if s.csrf != "" && r.Header.Get("X-CSRF-Token") != s.csrf {
		s.fail(w, http.StatusForbidden, "FORBIDDEN", "the request did not come from the consent page")
		return
	}
	if route != "seller-verify" {
		if c, err := r.Cookie(stubCookie); err != nil || c.Value != "cookie-1" {
			s.fail(w, http.StatusUnauthorized, "SESSION_EXPIRED", "The sign-in has expired.")
			return
		}
	}
	switch route {
	case "seller-verify":
		var in struct{ Session, Username, Password string }
		if !strict(body, &in) {
			s.fail(w, http.StatusBadRequest, "VALIDATION_ERROR", "unknown or malformed field")
			return
		}
		if in.Session != session || in.Username != stubUser || in.Password != stubPassword {
			s.fail(w, http.StatusUnauthorized, "UNAUTHORIZED", "The username or password is not right.")
			return
		}
		http.SetCookie(w, &http.Cookie{Name: stubCookie, Value: "cookie-1", Path: "/open/v1/auth/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		s.ok(w, map[string]any{"otp_required": true, "otp_expires_in": 300, "masked_destination": "+63 9** *** 4567"})
	case "seller-verify-otp":
		var in struct{ Code string }
		if !strict(body, &in) {
			s.fail(w, http.StatusBadRequest, "VALIDATION_ERROR", "unknown or malformed field")
			return
		}
		if in.Code != stubCode {
			s.fail(w, http.StatusUnauthorized, "UNAUTHORIZED", "That code is not right.")
			return
		}
		s.ok(w, map[string]any{"app": map[string]string{"name": "Acme OMS"}, "scopes": sampleSessions().views[session].Scopes})
	case "seller-consent":
		if len(body) > 0 {
			var in struct{ Scopes []string }
			if !strict(body, &in) || len(in.Scopes) == 0 {
				s.fail(w, http.StatusBadRequest, "VALIDATION_ERROR", "unknown or malformed field")
				return
			}
		}
		s.mu.Lock()
		target := s.redirectURL
		s.mu.Unlock()
		if target == "" {
			target = s.redirectURI + "?code=ac_stub&state=" + url.QueryEscape(s.state)
		}
		s.ok(w, map[string]string{"redirect_url": target})
	case "deny":
		if len(body) > 0 {
			s.fail(w, http.StatusBadRequest, "VALIDATION_ERROR", "the body must be empty")
			return
		}
		s.ok(w, map[string]string{"redirect_url": s.redirectURI + "?error=access_denied&state=" + url.QueryEscape(s.state)})
	default:
		s.fail(w, http.StatusNotFound, "NOT_FOUND", "no endpoint")
	}
}

func (s *flowStub) callsTo(route string) []stubCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []stubCall
	for _, c := range s.calls {
		if c.route == route {
			out = append(out, c)
		}
	}
	return out
}

// appReceiver is the partner's redirect URI: it records what arrives.
type appReceiver struct {
	mu  sync.Mutex
	got []url.Values
}

func (a *appReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/oauth/callback" {
		http.NotFound(w, r) // the browser's favicon request
		return
	}
	a.mu.Lock()
	a.got = append(a.got, r.URL.Query())
	a.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = io.WriteString(w, "<!doctype html><title>Back in the app</title><p>Back in the app</p>")
}

func (a *appReceiver) last() url.Values {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.got) == 0 {
		return nil
	}
	return a.got[len(a.got)-1]
}

// startStubFlow serves the consent page, its assets and the stubbed flow
// routes on one origin, and the app's redirect URI on another.
func startStubFlow(t *testing.T, csrf string) (base string, stub *flowStub, app *appReceiver) {
	t.Helper()
	app = &appReceiver{}
	appSrv := httptest.NewServer(app)
	t.Cleanup(appSrv.Close)
	stub = &flowStub{t: t, redirectURI: appSrv.URL + "/oauth/callback", state: "st-7f3a 9&x", csrf: csrf}
	f := sampleSessions()
	f.views[session].App = &authv1.ConsentApp{Name: "Acme OMS"}
	p := newPages(t, f, func(c *consent.Config) {
		if csrf != "" {
			c.CSRFToken = func(string) string { return csrf }
		}
	})
	mux := http.NewServeMux()
	mux.HandleFunc("GET /open/v1/auth/consent", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", "req_browser")
		p.Page(w, r)
	})
	mux.HandleFunc("GET /open/v1/auth/assets/{name}", p.Asset)
	mux.Handle("/open/v1/auth/", stub)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL, stub, app
}

func TestConsentPageInBrowserAllowsFewerScopes(t *testing.T) {
	base, stub, app := startStubFlow(t, "csrf-token-1")
	b := browsertest.New(t)

	b.Do(t, chromedp.Navigate(base+"/open/v1/auth/consent?session="+session))
	if got := b.Text(t, "h1"); got != "Acme OMS wants to use your shop" {
		t.Fatalf("heading %q", got)
	}
	b.Do(t, chromedp.WaitEnabled(chromedp.CSS("#signin button")))
	b.Shot(t, "1-sign-in")
	b.CheckAccessibility(t, "1-sign-in")

	// A wrong password is read out in the live region; the page stays.
	b.Do(t,
		chromedp.SendKeys(chromedp.CSS("#username"), stubUser),
		chromedp.SendKeys(chromedp.CSS("#password"), "wrong password"),
		chromedp.Click(chromedp.CSS("#signin button")),
	)
	b.WaitText(t, "#message", "The username or password is not right.")
	b.Shot(t, "1b-sign-in-refused")
	b.CheckAccessibility(t, "1b-sign-in-refused")

	b.Do(t,
		clearField("password"),
		chromedp.SendKeys(chromedp.CSS("#password"), stubPassword),
		chromedp.Click(chromedp.CSS("#signin button")),
	)
	b.WaitText(t, "#code-sent", "+63 9** *** 4567")
	if focused := browsertest.Run(t, b, chromedp.Evaluate[string](`document.activeElement.id`)); focused != "code" {
		t.Errorf("focus after sign-in is on %q, want the code field", focused)
	}
	if browsertest.Run(t, b, chromedp.Evaluate[bool](`!document.getElementById("message").hidden`)) {
		t.Errorf("the refusal stays on screen after a successful sign-in")
	}
	b.Shot(t, "2-code")
	b.CheckAccessibility(t, "2-code")

	b.Do(t, chromedp.SendKeys(chromedp.CSS("#code"), "000000"), chromedp.Click(chromedp.CSS("#code-form button")))
	b.WaitText(t, "#message", "That code is not right.")
	b.Do(t, clearField("code"), chromedp.SendKeys(chromedp.CSS("#code"), stubCode), chromedp.Click(chromedp.CSS("#code-form button")))
	b.WaitText(t, "#step-consent legend", "Acme OMS asks to:")
	for _, words := range []string{"See your products and categories", "Create and change your products", "See your orders, shipping and returns",
		"Cancel and ship your orders", "See your buyers' e-mail addresses"} {
		b.WaitText(t, "#consent-form", words)
	}
	b.Shot(t, "3-consent")
	b.CheckAccessibility(t, "3-consent")

	// Unticking one permission grants the others, named in the body.
	b.Do(t, chromedp.Click(chromedp.CSS(`input[value="customer:email:read"]`)), chromedp.Click(chromedp.CSS("#consent-form button[type=submit]")))
	b.Do(t, chromedp.WaitVisible(chromedp.CSS("body > p")))
	got := app.last()
	if got.Get("code") != "ac_stub" || got.Get("state") != "st-7f3a 9&x" {
		t.Fatalf("the app received %v", got)
	}
	if v := stub.callsTo("seller-verify"); len(v) != 2 || !strings.Contains(v[1].body, `"session":"`+session+`"`) {
		t.Errorf("sign-in calls: %+v", v)
	}
	consentCalls := stub.callsTo("seller-consent")
	if len(consentCalls) != 1 || consentCalls[0].body != `{"scopes":["catalog:read","catalog:write","orders:read","orders:write"]}` {
		t.Errorf("consent calls: %+v", consentCalls)
	}
	// Every call carried the page's token in the header, none in a body.
	stub.mu.Lock()
	defer stub.mu.Unlock()
	for _, c := range stub.calls {
		if c.csrf != "csrf-token-1" || strings.Contains(c.body, "csrf") {
			t.Errorf("%s: X-CSRF-Token %q, body %s", c.route, c.csrf, c.body)
		}
	}
	b.CheckConsole(t)
}

func TestConsentPageInBrowserAllWithEmptyBody(t *testing.T) {
	base, stub, app := startStubFlow(t, "")
	b := browsertest.New(t)
	signInAndCode(t, b, base)
	b.Do(t, chromedp.Click(chromedp.CSS("#consent-form button[type=submit]")), chromedp.WaitVisible(chromedp.CSS("body > p")))
	if app.last().Get("code") != "ac_stub" {
		t.Fatalf("the app received %v", app.last())
	}
	if c := stub.callsTo("seller-consent"); len(c) != 1 || c[0].body != "" || c[0].csrf != "" {
		t.Errorf("consenting to everything sends an empty body and no token the page does not carry: %+v", c)
	}
	b.CheckConsole(t)
}

func TestConsentPageInBrowserDenies(t *testing.T) {
	base, stub, app := startStubFlow(t, "")
	b := browsertest.New(t)
	signInAndCode(t, b, base)
	// Nothing ticked is not a consent.
	for _, s := range sampleSessions().views[session].Scopes {
		b.Do(t, chromedp.Click(chromedp.CSS(`input[value="`+s+`"]`)))
	}
	b.Do(t, chromedp.Click(chromedp.CSS("#consent-form button[type=submit]")))
	b.WaitText(t, "#message", "Tick at least one permission")
	if len(stub.callsTo("seller-consent")) != 0 {
		t.Errorf("a consent to nothing was sent")
	}
	b.Do(t, chromedp.Click(chromedp.CSS("#deny")), chromedp.WaitVisible(chromedp.CSS("body > p")))
	got := app.last()
	if got.Get("error") != "access_denied" || got.Get("state") != "st-7f3a 9&x" || got.Has("code") {
		t.Fatalf("the app received %v", got)
	}
	if c := stub.callsTo("deny"); len(c) != 1 || c[0].body != "" {
		t.Errorf("deny calls: %+v", c)
	}
	b.CheckConsole(t)
}

func TestConsentPageInBrowserRefusals(t *testing.T) {
	base, stub, _ := startStubFlow(t, "")
	b := browsertest.New(t)
	stub.refuseNext("seller-verify", http.StatusTooManyRequests, "RATE_LIMITED", "Too many sign-in attempts.", "540")
	b.Do(t, chromedp.Navigate(base+"/open/v1/auth/consent?session="+session), chromedp.WaitEnabled(chromedp.CSS("#signin button")),
		chromedp.SendKeys(chromedp.CSS("#username"), stubUser),
		chromedp.SendKeys(chromedp.CSS("#password"), stubPassword),
		chromedp.Click(chromedp.CSS("#signin button")))
	b.WaitText(t, "#message", "Too many sign-in attempts. Try again in 9 minutes.")

	// Too many wrong codes: the page says so and offers nothing more.
	b.Do(t, chromedp.Click(chromedp.CSS("#signin button")), chromedp.WaitVisible(chromedp.CSS("#code")))
	stub.refuseNext("seller-verify-otp", http.StatusForbidden, "ACCOUNT_LOCKED", "Too many wrong codes: the account is locked for 15 minutes.", "")
	b.Do(t, chromedp.SendKeys(chromedp.CSS("#code"), stubCode), chromedp.Click(chromedp.CSS("#code-form button")))
	b.WaitText(t, "#message", "Too many wrong codes: the account is locked for 15 minutes.")
	if !browsertest.Run(t, b, chromedp.Evaluate[bool](`document.querySelector("#code-form button").disabled`)) {
		t.Errorf("a locked account can still submit codes")
	}

	// An expired session ends the page's steps.
	b.Do(t, chromedp.Navigate(base+"/open/v1/auth/consent?session="+session), chromedp.WaitEnabled(chromedp.CSS("#signin button")),
		chromedp.SendKeys(chromedp.CSS("#username"), stubUser),
		chromedp.SendKeys(chromedp.CSS("#password"), stubPassword),
		chromedp.Click(chromedp.CSS("#signin button")),
		chromedp.WaitVisible(chromedp.CSS("#code")))
	stub.refuseNext("seller-verify-otp", http.StatusUnauthorized, "SESSION_EXPIRED", "The sign-in has expired.", "")
	b.Do(t, chromedp.SendKeys(chromedp.CSS("#code"), stubCode), chromedp.Click(chromedp.CSS("#code-form button")))
	b.WaitText(t, "#message", "The sign-in has expired.")
	b.WaitText(t, "#step-ended", "Go back to the app and start again.")
	if browsertest.Run(t, b, chromedp.Evaluate[bool](`!document.getElementById("step-code").hidden`)) {
		t.Errorf("the code step is still offered after the session expired")
	}
	b.CheckConsole(t)
}

// signInAndCode opens the page and goes through sign-in and code from the
// keyboard alone: Enter in a field submits its step.
func signInAndCode(t *testing.T, b *browsertest.Browser, base string) {
	t.Helper()
	b.Do(t, chromedp.Navigate(base+"/open/v1/auth/consent?session="+session), chromedp.WaitEnabled(chromedp.CSS("#signin button")),
		chromedp.SendKeys(chromedp.CSS("#username"), stubUser),
		chromedp.SendKeys(chromedp.CSS("#password"), stubPassword+kb.Enter),
		chromedp.WaitVisible(chromedp.CSS("#code")),
		chromedp.SendKeys(chromedp.CSS("#code"), stubCode+kb.Enter),
		chromedp.WaitVisible(chromedp.CSS("#step-consent")))
}

func TestExpiredLinkInBrowser(t *testing.T) {
	base, _, _ := startStubFlow(t, "")
	b := browsertest.New(t)
	b.Do(t, chromedp.Navigate(base+"/open/v1/auth/consent?session=cs_gone"))
	if got := b.Text(t, "h1"); got != "This link has expired" {
		t.Fatalf("heading %q", got)
	}
	b.WaitText(t, "main", "Go back to the app and start again.")
	b.Shot(t, "4-expired-link")
	b.CheckAccessibility(t, "4-expired-link")
	b.CheckConsole(t)
}

// At 320 px nothing needs scrolling sideways.
func TestConsentPageAt320Pixels(t *testing.T) {
	base, _, _ := startStubFlow(t, "")
	b := browsertest.New(t)
	b.Do(t, chromedp.EmulateViewport(320, 640, chromedp.EmulatePortrait, chromedp.EmulateMobile),
		chromedp.Navigate(base+"/open/v1/auth/consent?session="+session), chromedp.WaitEnabled(chromedp.CSS("#signin button")))
	if w := browsertest.Run(t, b, chromedp.Evaluate[int](`document.documentElement.scrollWidth`)); w > 320 {
		t.Errorf("the page is %d px wide at 320 px", w)
	}
}

// clearField empties an input (as selecting its text and deleting it would).
func clearField(id string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](`void (document.getElementById(` + browsertest.JSString(id) + `).value = "")`)
}

// The console check sees what the policy refuses: a page with an inline
// script and an inline style, under the consent page's policy, is reported.
func TestBrowserReportsPolicyViolations(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", consent.ContentSecurityPolicy)
		_, _ = io.WriteString(w, `<!doctype html><html lang="en"><title>t</title><p style="color:red">x</p><script>document.title="ran"</script>`)
	}))
	t.Cleanup(srv.Close)
	b := browsertest.New(t)
	b.Do(t, chromedp.Navigate(srv.URL))
	if title := browsertest.Run(t, b, chromedp.Title()); title == "ran" {
		t.Fatalf("the policy let an inline script run")
	}
	ctx, cancel := context.WithTimeout(b.Ctx, 10*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if n := b.Violations(); n >= 2 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the console check saw %d of the 2 violations:\n%s", b.Violations(), b.ConsoleText())
}

// The page leaves only for a web address: a redirect_url of another kind
// (javascript:, data:) is refused on the page.
func TestConsentPageInBrowserFollowsOnlyWebAddresses(t *testing.T) {
	base, stub, _ := startStubFlow(t, "")
	stub.mu.Lock()
	stub.redirectURL = "javascript:document.title='ran'"
	stub.mu.Unlock()
	b := browsertest.New(t)
	signInAndCode(t, b, base)
	b.Do(t, chromedp.Click(chromedp.CSS("#consent-form button[type=submit]")))
	b.WaitText(t, "#message", "Something went wrong. Go back to the app and start again.")
	if title := browsertest.Run(t, b, chromedp.Title()); title == "ran" {
		t.Fatal("the page ran the redirect_url as a script")
	}
}
