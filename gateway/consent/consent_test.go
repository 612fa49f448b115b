package consent_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/mallplatform/partnerapi/gateway/consent"
	authv1 "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// fakeSessions answers DescribeSession from a map; any other session is
// refused as core refuses an unknown or expired one.
type fakeSessions struct {
	views map[string]*authv1.SessionView
	err   error
	// md is the metadata of the last call.
	md metadata.MD
}

func (f *fakeSessions) DescribeSession(ctx context.Context, in *authv1.DescribeSessionRequest, _ ...grpc.CallOption) (*authv1.DescribeSessionResponse, error) {
	f.md, _ = metadata.FromOutgoingContext(ctx)
	if f.err != nil {
		return nil, f.err
	}
	v, ok := f.views[in.GetSession()]
	if !ok {
		return nil, apierr.ToStatus(apierr.New(errorsv1.ErrorCode_ERROR_CODE_SESSION_EXPIRED, "the authorization session has expired")).Err()
	}
	return &authv1.DescribeSessionResponse{Data: v}, nil
}

func newPages(t *testing.T, f *fakeSessions, mutate ...func(*consent.Config)) *consent.Pages {
	t.Helper()
	cfg := consent.Config{
		Sessions: f,
		ClientIP: func(*http.Request) string { return "203.0.113.9" },
		WriteError: func(w http.ResponseWriter, _ *http.Request, code apierr.Code, message string) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(apierr.HTTPStatus(code))
			_, _ = io.WriteString(w, `{"success":false,"error":{"code":"`+apierr.Name(code)+`","message":"`+message+`"}}`)
		},
	}
	for _, m := range mutate {
		m(&cfg)
	}
	p, err := consent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const session = "cs_3b1f0c2d9e8a7f6b5c4d3e2f1a0b9c8d"

func sampleSessions() *fakeSessions {
	return &fakeSessions{views: map[string]*authv1.SessionView{
		session: {
			App:       &authv1.ConsentApp{Name: "Acme <OMS> & Co"},
			Scopes:    []string{"catalog:read", "catalog:write", "orders:read", "orders:write", "customer:email:read"},
			ExpiresIn: 540,
		},
	}}
}

// answer is a recorded answer.
type answer struct {
	StatusCode int
	Header     http.Header
}

func get(t *testing.T, h http.HandlerFunc, target string) (answer, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	rec.Header().Set("X-Request-Id", "req_pagetest")
	h(rec, httptest.NewRequest(http.MethodGet, target, nil))
	return answer{StatusCode: rec.Code, Header: rec.Header()}, rec.Body.String()
}

// The headers every page answer carries, whatever the page says.
func checkPageHeaders(t *testing.T, res answer) {
	t.Helper()
	want := map[string]string{
		"Content-Type": "text/html; charset=utf-8",
		"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
			"form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
		"Referrer-Policy":        "no-referrer",
		"Cache-Control":          "no-store",
		"X-Content-Type-Options": "nosniff",
		"X-Frame-Options":        "DENY",
	}
	for k, v := range want {
		if got := res.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
}

// checkNoInline fails on inline script or style of any kind and on any
// resource from another origin: the CSP would block them, so the page must
// not need them.
func checkNoInline(t *testing.T, page string) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "style":
				t.Errorf("inline <style> element")
			case "script":
				if attr(n, "src") == "" || n.FirstChild != nil {
					t.Errorf("inline <script>")
				}
			}
			for _, a := range n.Attr {
				if a.Key == "style" || strings.HasPrefix(a.Key, "on") {
					t.Errorf("<%s %s=…>: inline style or handler", n.Data, a.Key)
				}
				if (a.Key == "src" || a.Key == "href") && (strings.Contains(a.Val, "//") || strings.HasPrefix(a.Val, "/")) {
					t.Errorf("<%s %s=%q>: not a resource of the page's own folder", n.Data, a.Key, a.Val)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func TestConsentPageNamesTheAppAndScopesInPlainWords(t *testing.T) {
	f := sampleSessions()
	p := newPages(t, f)
	res, page := get(t, p.Page, "/open/v1/auth/consent?session="+session)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d\n%s", res.StatusCode, page)
	}
	checkPageHeaders(t, res)
	checkNoInline(t, page)
	for _, want := range []string{
		`<html lang="en">`,
		`<meta name="viewport" content="width=device-width, initial-scale=1">`,
		// The app's name is escaped text, never markup.
		`Acme &lt;OMS&gt; &amp; Co wants to use your shop`,
		`value="catalog:read" checked>`, `See your products and categories`,
		`value="catalog:write" checked>`, `Create and change your products`,
		`value="orders:read" checked>`, `See your orders, shipping and returns`,
		`value="orders:write" checked>`, `Cancel and ship your orders`,
		`value="customer:email:read" checked>`, `See your buyers&#39; e-mail addresses`,
		`autocomplete="username"`, `autocomplete="current-password"`,
		`inputmode="numeric" autocomplete="one-time-code"`,
		`role="alert" aria-live="assertive"`,
		`<input type="hidden" name="session" value="` + session + `">`,
		`This page works for 9 more minutes.`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Every input has a label that names it.
	for _, id := range regexp.MustCompile(`<input id="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		if !strings.Contains(page, `<label for="`+id[1]+`">`) {
			t.Errorf("input %s has no label", id[1])
		}
	}
	for _, id := range regexp.MustCompile(`<input type="checkbox" id="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		if !strings.Contains(page, `<label for="`+id[1]+`">`) {
			t.Errorf("checkbox %s has no label", id[1])
		}
	}
	// The page's assets are the ones it serves.
	for _, m := range regexp.MustCompile(`(?:src|href)="assets/([^"]+)"`).FindAllStringSubmatch(page, -1) {
		if res, _ := get(t, p.Asset, "/open/v1/auth/assets/"+m[1]); res.StatusCode != http.StatusOK {
			t.Errorf("asset %s answers %d", m[1], res.StatusCode)
		}
	}
	if got := f.md.Get(principal.KeyClientIP); len(got) != 1 || got[0] != "203.0.113.9" {
		t.Errorf("client address sent to core: %v", got)
	}
	if got := f.md.Get(principal.KeyRequestID); len(got) != 1 || got[0] != "req_pagetest" {
		t.Errorf("request id sent to core: %v", got)
	}
}

func TestConsentPageUnknownScopeIsShownByName(t *testing.T) {
	f := &fakeSessions{views: map[string]*authv1.SessionView{session: {App: &authv1.ConsentApp{Name: "A"}, Scopes: []string{"payouts:read"}, ExpiresIn: 600}}}
	_, page := get(t, newPages(t, f).Page, "/open/v1/auth/consent?session="+session)
	if !strings.Contains(page, `value="payouts:read" checked>`) || !strings.Contains(page, "Use the permission payouts:read") {
		t.Errorf("an unknown scope must be shown, by its name:\n%s", page)
	}
}

func TestConsentPageCarriesTheCSRFTokenWhenGiven(t *testing.T) {
	p := newPages(t, sampleSessions(), func(c *consent.Config) {
		c.CSRFToken = func(s string) string { return "csrf-for-" + s[:6] }
	})
	_, page := get(t, p.Page, "/open/v1/auth/consent?session="+session)
	if !strings.Contains(page, `<meta name="csrf-token" content="csrf-for-cs_3b1">`) {
		t.Errorf("page lacks the CSRF token meta")
	}
	_, page = get(t, newPages(t, sampleSessions()).Page, "/open/v1/auth/consent?session="+session)
	if strings.Contains(page, "csrf-token") {
		t.Errorf("page carries a CSRF meta without a token")
	}
}

func TestExpiredLinkPage(t *testing.T) {
	cases := []struct {
		name, target string
		sessions     *fakeSessions
		status       int
		says         string
	}{
		{"unknown session", "/open/v1/auth/consent?session=cs_unknown", sampleSessions(), http.StatusGone, "This link has expired"},
		{"no time left", "/open/v1/auth/consent?session=" + session, &fakeSessions{views: map[string]*authv1.SessionView{session: {App: &authv1.ConsentApp{Name: "A"}, ExpiresIn: 0}}}, http.StatusGone, "This link has expired"},
		{"longer than any session", "/open/v1/auth/consent?session=" + strings.Repeat("x", 129), &fakeSessions{err: status.Error(codes.Internal, "must not be called")}, http.StatusGone, "This link has expired"},
		{"no session", "/open/v1/auth/consent", sampleSessions(), http.StatusBadRequest, "This link is not complete"},
		{"core down", "/open/v1/auth/consent?session=" + session, &fakeSessions{err: status.Error(codes.Unavailable, "connection refused")}, http.StatusServiceUnavailable, "briefly unavailable"},
		{"core fails", "/open/v1/auth/consent?session=" + session, &fakeSessions{err: status.Error(codes.Internal, "pq: relation does not exist")}, http.StatusInternalServerError, "Something went wrong"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, page := get(t, newPages(t, tc.sessions).Page, tc.target)
			if res.StatusCode != tc.status || !strings.Contains(page, tc.says) {
				t.Fatalf("status %d, want %d saying %q:\n%s", res.StatusCode, tc.status, tc.says, page)
			}
			checkPageHeaders(t, res)
			checkNoInline(t, page)
			if strings.Contains(page, "<script") || strings.Contains(page, "<form") {
				t.Errorf("a page that cannot be used carries a form or script")
			}
			if strings.Contains(page, "pq:") || strings.Contains(page, "connection refused") {
				t.Errorf("internal error text on the page")
			}
			if !strings.Contains(strings.ToLower(page), "go back to the app and start again") {
				t.Errorf("the page does not say what to do")
			}
		})
	}
}

func TestAssets(t *testing.T) {
	p := newPages(t, sampleSessions())
	_, page := get(t, p.Page, "/open/v1/auth/consent?session="+session)
	names := map[string]string{}
	for _, m := range regexp.MustCompile(`(?:src|href)="assets/([^"]+\.(css|js))"`).FindAllStringSubmatch(page, -1) {
		names[m[2]] = m[1]
	}
	want := map[string]string{"css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8"}
	for ext, ct := range want {
		name := names[ext]
		if !regexp.MustCompile(`^consent\.[0-9a-f]{12}\.` + ext + `$`).MatchString(name) {
			t.Fatalf("%s asset name %q carries no digest", ext, name)
		}
		res, body := get(t, p.Asset, "/open/v1/auth/assets/"+name)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != ct || len(body) == 0 {
			t.Errorf("%s: %d %q (%d bytes)", name, res.StatusCode, res.Header.Get("Content-Type"), len(body))
		}
		if res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || res.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: Cache-Control %q, nosniff %q", name, res.Header.Get("Cache-Control"), res.Header.Get("X-Content-Type-Options"))
		}
	}
	for _, name := range []string{"consent.css", "consent.js", "page.html", "consent.000000000000.css"} {
		res, body := get(t, p.Asset, "/open/v1/auth/assets/"+name)
		if res.StatusCode != http.StatusNotFound || !strings.Contains(body, `"NOT_FOUND"`) {
			t.Errorf("%s: %d %s", name, res.StatusCode, body)
		}
	}
}

// The script never sends a field the flow's strict bodies do not have: the
// anti-forgery token travels in a header.
func TestScriptSendsTheTokenInAHeader(t *testing.T) {
	p := newPages(t, sampleSessions())
	_, page := get(t, p.Page, "/open/v1/auth/consent?session="+session)
	name := regexp.MustCompile(`src="assets/([^"]+)"`).FindStringSubmatch(page)[1]
	_, js := get(t, p.Asset, "/open/v1/auth/assets/"+name)
	for _, want := range []string{`headers["X-CSRF-Token"] = csrf`, `credentials: "same-origin"`, `window.location.assign(data.redirect_url)`} {
		if !strings.Contains(js, want) {
			t.Errorf("script lacks %q", want)
		}
	}
	if strings.Contains(js, "csrf:") || strings.Contains(js, "csrf_token") {
		t.Errorf("script puts the token in a body")
	}
}
