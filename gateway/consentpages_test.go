package gateway_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
	"google.golang.org/grpc/metadata"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/gateway/consent"
	authv1 "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/policy"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

// describeOnly answers DescribeSession for one session, as core does; the
// other sessions are unknown.
type describeOnly struct {
	authv1.UnimplementedAuthorizationServiceServer
	mu sync.Mutex
	md metadata.MD
}

func (d *describeOnly) DescribeSession(ctx context.Context, in *authv1.DescribeSessionRequest) (*authv1.DescribeSessionResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	d.mu.Lock()
	d.md = md
	d.mu.Unlock()
	if in.GetSession() != "sess_live" {
		return nil, apierr.ToStatus(apierr.New(errorsv1.ErrorCode_ERROR_CODE_SESSION_EXPIRED, "the authorization session has expired")).Err()
	}
	return &authv1.DescribeSessionResponse{Data: &authv1.SessionView{App: &authv1.ConsentApp{Name: "Acme OMS"},
		Scopes: []string{"orders:read", "orders:write"}, ExpiresIn: 600}}, nil
}

// startWithDescribe starts the platform with the gateway's DescribeSession
// calls answered by d (core's flow is not needed to render the page).
func startWithDescribe(t *testing.T, d *describeOnly, logger ...*zap.Logger) *testenv.Env {
	t.Helper()
	var opts testenv.Options
	if len(logger) > 0 {
		opts.Mutate = func(c *gateway.Config) { c.Logger = logger[0] }
	}
	return startWithAuthorization(t, opts, d, func(method string) bool {
		return method == authv1.AuthorizationService_DescribeSession_FullMethodName
	})
}

func getPage(t *testing.T, env *testenv.Env, method, path string) *sdk.Response {
	t.Helper()
	req, err := http.NewRequest(method, env.BaseURL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Request-Id", "req_consent_page")
	return do(t, req)
}

// TestConsentPageRoutes: the gateway serves the consent page (unsigned,
// HTML, its security headers) from core's view of the session, the
// expired page for an unknown one, and the page's assets; the pipeline's
// request id, address limit, route match and strict query apply; refusals
// that are not pages go through the one error writer.
func TestConsentPageRoutes(t *testing.T) {
	d := &describeOnly{}
	logs, observed := observer.New(zap.DebugLevel)
	env := startWithDescribe(t, d, zap.New(logs))

	r := getPage(t, env, "GET", "/open/v1/auth/consent?session=sess_live")
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), "Acme OMS wants to use your shop") ||
		!strings.Contains(string(r.Body), "Cancel and ship your orders") {
		t.Fatalf("page: %d %s", r.Status, r.Body)
	}
	for k, v := range map[string]string{
		"Content-Type":            "text/html; charset=utf-8",
		"Content-Security-Policy": consent.ContentSecurityPolicy,
		"Referrer-Policy":         "no-referrer",
		"Cache-Control":           "no-store",
		"X-Content-Type-Options":  "nosniff",
		"X-Request-Id":            "req_consent_page",
	} {
		if got := r.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if r.Header.Get(sdk.HeaderRateLimitLimit) == "" {
		t.Errorf("the address limiter's headers are missing")
	}
	d.mu.Lock()
	md := d.md
	d.mu.Unlock()
	if principal.First(md, principal.KeyRequestID) != "req_consent_page" || principal.First(md, principal.KeyClientIP) != "127.0.0.1" {
		t.Errorf("core got request id %q and address %q", md.Get(principal.KeyRequestID), md.Get(principal.KeyClientIP))
	}
	if _, ok := principal.FromMetadata(md); ok {
		t.Errorf("the page's call reached core with an app")
	}

	// The page's assets, under the names the page links.
	for _, m := range regexp.MustCompile(`(?:src|href)="assets/([^"]+)"`).FindAllStringSubmatch(string(r.Body), -1) {
		a := getPage(t, env, "GET", "/open/v1/auth/assets/"+m[1])
		if a.Status != http.StatusOK || a.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || a.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("asset %s: %d %v", m[1], a.Status, a.Header)
		}
		if ct := a.Header.Get("Content-Type"); ct != "text/css; charset=utf-8" && ct != "text/javascript; charset=utf-8" {
			t.Errorf("asset %s: Content-Type %q", m[1], ct)
		}
	}
	expectError(t, getPage(t, env, "GET", "/open/v1/auth/assets/consent.js"), http.StatusNotFound, "NOT_FOUND")

	r = getPage(t, env, "GET", "/open/v1/auth/consent?session=sess_gone")
	if r.Status != http.StatusGone || !strings.Contains(string(r.Body), "This link has expired") || r.Header.Get("Content-Security-Policy") == "" {
		t.Errorf("unknown session: %d %s", r.Status, r.Body)
	}
	// A query parameter the page does not take: the page for a link that is
	// not complete (what a buyer can act on), never the JSON error body; the
	// code is in the access log. The assets keep the JSON body.
	r = getPage(t, env, "GET", "/open/v1/auth/consent?session=sess_live&next=https://evil.example")
	if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "This link is not complete") ||
		r.Header.Get("Content-Type") != "text/html; charset=utf-8" || r.Header.Get("Content-Security-Policy") == "" ||
		strings.Contains(string(r.Body), "evil.example") {
		t.Errorf("unknown parameter: %d %v %s", r.Status, r.Header, r.Body)
	}
	refused := false
	for _, e := range observed.All() {
		if e.ContextMap()["error_code"] == "VALIDATION_ERROR" {
			refused = true
		}
	}
	if !refused {
		t.Errorf("the refused page's code is not in the access log")
	}
	expectError(t, getPage(t, env, "GET", "/open/v1/auth/assets/consent.000000000000.js?utm=1"), http.StatusBadRequest, "VALIDATION_ERROR")
	expectError(t, getPage(t, env, "POST", "/open/v1/auth/consent?session=sess_live"), http.StatusMethodNotAllowed, "INVALID_REQUEST")

	// The session token of the link is never written down.
	if observed.Len() == 0 {
		t.Fatal("no access log lines were observed")
	}
	for _, e := range observed.All() {
		line := e.Message
		for k, v := range e.ContextMap() {
			line += " " + k + "=" + fmt.Sprint(v)
		}
		if strings.Contains(line, "sess_live") || strings.Contains(line, "sess_gone") {
			t.Errorf("a log line holds the session token: %s", line)
		}
	}
}

// TestConsentScriptRoutesExist: every route the page's script calls,
// relative to the page, is a route of the policy table with the method and
// authentication the script assumes.
func TestConsentScriptRoutesExist(t *testing.T) {
	d := &describeOnly{}
	env := startWithDescribe(t, d)
	page := getPage(t, env, "GET", "/open/v1/auth/consent?session=sess_live")
	js := regexp.MustCompile(`src="assets/([^"]+)"`).FindSubmatch(page.Body)
	if js == nil {
		t.Fatalf("no script on the page")
	}
	script := getPage(t, env, "GET", "/open/v1/auth/assets/"+string(js[1]))
	table, err := policy.Load()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"seller-verify":     authv1.AuthorizationService_VerifySeller_FullMethodName,
		"seller-verify-otp": authv1.AuthorizationService_VerifySellerOtp_FullMethodName,
		"seller-consent":    authv1.AuthorizationService_Consent_FullMethodName,
		"deny":              authv1.AuthorizationService_Deny_FullMethodName,
	}
	called := regexp.MustCompile(`post\("([a-z-]+)"`).FindAllSubmatch(script.Body, -1)
	if len(called) != len(want) {
		t.Errorf("the script calls %d routes, want %d", len(called), len(want))
	}
	for _, c := range called {
		match := table.Match(http.MethodPost, "/open/v1/auth/"+string(c[1]))
		if match.Status != http.StatusOK || match.Route.Method.FullMethod != want[string(c[1])] {
			t.Errorf("the script's %q is not %s (%d)", c[1], want[string(c[1])], match.Status)
		}
	}
}
