package gateway_test

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/gateway/pagekit"
	"github.com/mallplatform/partnerapi/internal/testenv"
)

// noRedirects answers a redirect rather than following it.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// pageAnswer is a page's status and headers.
type pageAnswer struct {
	StatusCode int
	Header     http.Header
}

// page GETs a console page as the person (with the cookie when signed in).
func (b *consolePerson) page(t *testing.T, path string) (pageAnswer, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, b.base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b.cookie != "" {
		req.AddCookie(&http.Cookie{Name: gateway.ConsoleCookie, Value: b.cookie})
	}
	resp, err := noRedirects.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return pageAnswer{StatusCode: resp.StatusCode, Header: resp.Header}, string(raw)
}

// wantPage checks a page's status and the headers every page carries.
func wantPage(t *testing.T, path string, resp pageAnswer, body string, status int) {
	t.Helper()
	if resp.StatusCode != status {
		t.Fatalf("GET %s: %d, want %d: %s", path, resp.StatusCode, status, body)
	}
	h := resp.Header
	if h.Get("Content-Type") != "text/html; charset=utf-8" || h.Get("Content-Security-Policy") != pagekit.ContentSecurityPolicy ||
		h.Get("Cache-Control") != "no-store" || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("X-Frame-Options") != "DENY" ||
		h.Get("Referrer-Policy") != "no-referrer" {
		t.Fatalf("GET %s: headers %v", path, h)
	}
	if !strings.Contains(body, `<main id="main"`) || !strings.Contains(body, "<h1>") {
		t.Fatalf("GET %s: no main or h1: %s", path, body)
	}
	if strings.Contains(body, "<script>") || strings.Contains(body, "style=") || strings.Contains(body, "<style") {
		t.Fatalf("GET %s: inline script or style: %s", path, body)
	}
}

func wantRedirect(t *testing.T, path string, resp pageAnswer, location string) {
	t.Helper()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != location || resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("GET %s: %d to %q (%v), want 303 to %q", path, resp.StatusCode, resp.Header.Get("Location"), resp.Header, location)
	}
}

var csrfMeta = regexp.MustCompile(`<meta name="csrf-token" content="([^"]*)">`)
var scriptSrc = regexp.MustCompile(`<script src="(/console/assets/[^"]+)"`)

// TestConsolePages serves every console page from a real platform: the
// signed-out redirects, the headers, the session's CSRF token (the page's
// calls to core carried the cookie), escaping of what an account typed,
// another account's app as a 404 page, and the assets.
func TestConsolePages(t *testing.T) {
	box := &consoleMail{}
	env := testenv.Start(t, testenv.Options{ConsoleMail: box})
	anon := &consolePerson{base: env.BaseURL}

	resp, body := anon.page(t, "/console/")
	wantRedirect(t, "/console/", resp, "/console/signin")
	for path, next := range map[string]string{
		"/console/apps":             "/console/apps",
		"/console/apps/app_unknown": "/console/apps/app_unknown",
		"/console/test-shops":       "/console/test-shops",
		"/console/members":          "/console/members",
		"/console/profile":          "/console/profile",
	} {
		resp, _ := anon.page(t, path)
		wantRedirect(t, path, resp, "/console/signin?next="+next)
	}
	for _, path := range []string{"/console/signup", "/console/signin?next=%2Fconsole%2Fmembers", "/console/verify?token=vt_abc",
		"/console/invitations/accept?token=it_abc"} {
		resp, body = anon.page(t, path)
		wantPage(t, path, resp, body, http.StatusOK)
		if m := csrfMeta.FindStringSubmatch(body); m == nil || m[1] != "" {
			t.Fatalf("GET %s signed out: csrf meta %v", path, m)
		}
	}
	if !strings.Contains(body, `name="token" value="it_abc"`) || !strings.Contains(body, `id="sign-in-to-accept" href="/console/signin?next=%2fconsole%2finvitations%2faccept%3ftoken%3dit_abc"`) {
		t.Fatalf("invitation page: %s", body)
	}
	_, body = anon.page(t, "/console/signin?next=%2F%2Fevil.example%2F")
	if !strings.Contains(body, `name="next" value=""`) {
		t.Fatalf("an off-console next was kept: %s", body)
	}
	// A query parameter a page does not take is refused with the
	// console's error page (HTML, as the page set's other failures), never
	// the JSON error body, whether or not the page needs a session; the
	// assets keep the JSON body.
	for _, path := range []string{"/console/signup?utm=1", "/console/apps?utm=1", "/console/?utm=1", "/console/apps/app_1?%3Cb%3E=1"} {
		resp, body = anon.page(t, path)
		wantPage(t, path, resp, body, http.StatusBadRequest)
		if !strings.Contains(body, "unknown query parameter") || strings.Contains(body, "<b>") || strings.Contains(body, `"success"`) {
			t.Fatalf("GET %s: %s", path, body)
		}
	}
	resp, _ = anon.page(t, "/console/assets/console.000000000000.js?utm=1")
	if resp.StatusCode != http.StatusBadRequest || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("an asset with an unknown parameter: %d %v", resp.StatusCode, resp.Header)
	}

	ana, _ := signedUp(t, env, box, "ana.pages@partner.example.ph")
	a := ana.call(t, http.MethodPost, "/console/v1/apps", `{"name":"<b>Ana's</b> \"app\"","environment":"sandbox","scopes":["catalog:read"]}`)
	wantStatus(t, "create app", a, http.StatusCreated, "")
	var made struct {
		App consoleApp `json:"app"`
	}
	a.data(t, &made)

	resp, _ = ana.page(t, "/console/")
	wantRedirect(t, "/console/", resp, "/console/apps")
	for _, path := range []string{"/console/apps", "/console/apps/" + made.App.AppID, "/console/test-shops", "/console/members", "/console/profile"} {
		resp, body = ana.page(t, path)
		wantPage(t, path, resp, body, http.StatusOK)
		if m := csrfMeta.FindStringSubmatch(body); m == nil || m[1] != ana.csrf {
			t.Fatalf("GET %s: csrf meta %v, want the session's", path, m)
		}
		if !strings.Contains(body, `<nav aria-label="Console">`) || !strings.Contains(body, `id="sign-out"`) {
			t.Fatalf("GET %s: no console navigation", path)
		}
		// A page read keeps the session's cookie alive, as a JSON call does.
		if c := resp.Header.Get("Set-Cookie"); !strings.HasPrefix(c, gateway.ConsoleCookie+"=") || !strings.Contains(c, "Max-Age=43200") {
			t.Fatalf("GET %s: Set-Cookie %q, want the session's renewed", path, c)
		}
	}
	_, body = ana.page(t, "/console/apps")
	if strings.Contains(body, "<b>Ana's</b>") || !strings.Contains(body, "&lt;b&gt;Ana&#39;s&lt;/b&gt; &#34;app&#34;") ||
		!strings.Contains(body, `href="/console/apps/`+made.App.AppID+`"`) || !strings.Contains(body, made.App.ClientID) {
		t.Fatalf("apps page: %s", body)
	}
	resp, body = ana.page(t, "/console/apps/app_unknown")
	wantPage(t, "unknown app", resp, body, http.StatusNotFound)

	ben, _ := signedUp(t, env, box, "ben.pages@partner.example.ph")
	resp, body = ben.page(t, "/console/apps/"+made.App.AppID)
	wantPage(t, "another account's app", resp, body, http.StatusNotFound)
	if !strings.Contains(body, "No such app") || strings.Contains(body, "Ana") {
		t.Fatalf("another account's app: %s", body)
	}

	src := scriptSrc.FindStringSubmatch(body)
	if src == nil {
		t.Fatalf("no script: %s", body)
	}
	resp, _ = anon.page(t, src[1])
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/javascript; charset=utf-8" ||
		resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Fatalf("script: %d %v", resp.StatusCode, resp.Header)
	}
	resp, _ = anon.page(t, "/console/assets/console.000000000000.js")
	if resp.StatusCode != http.StatusNotFound || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("unknown asset: %d %v", resp.StatusCode, resp.Header)
	}
}
