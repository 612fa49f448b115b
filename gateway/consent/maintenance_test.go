package consent_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mallplatform/partnerapi/internal/browsertest"
)

// The maintenance page: 503, the page headers of every consent page, no
// script or form, the operator's message escaped, and the announced end in
// Philippine time; without an end or a message it says neither.
func TestMaintenancePage(t *testing.T) {
	p := newPages(t, sampleSessions())
	until := time.Date(2026, 11, 28, 2, 30, 0, 0, time.UTC)
	res, page := get(t, func(w http.ResponseWriter, _ *http.Request) {
		p.Maintenance(w, `Database <b>upgrade</b> & checks`, until)
	}, "/open/v1/auth/consent?session=cs_any")
	if res.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("status %d", res.StatusCode)
	}
	checkPageHeaders(t, res)
	checkNoInline(t, page)
	if strings.Contains(page, "<script") || strings.Contains(page, "<form") {
		t.Errorf("the maintenance page carries a form or script")
	}
	for _, want := range []string{"Sign-in is paused for maintenance", "Database &lt;b&gt;upgrade&lt;/b&gt; &amp; checks",
		`<time datetime="2026-11-28T02:30:00Z">10:30 AM, 28 November 2026 (Philippine time)</time>`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q:\n%s", want, page)
		}
	}

	_, page = get(t, func(w http.ResponseWriter, _ *http.Request) { p.Maintenance(w, "", time.Time{}) }, "/open/v1/auth/consent")
	if strings.Contains(page, "<time") || strings.Contains(page, "back by") || !strings.Contains(page, "paused for maintenance") {
		t.Errorf("without message or end:\n%s", page)
	}
}

func TestMaintenancePageInBrowser(t *testing.T) {
	p := newPages(t, sampleSessions())
	mux := http.NewServeMux()
	mux.HandleFunc("GET /open/v1/auth/consent", func(w http.ResponseWriter, _ *http.Request) {
		p.Maintenance(w, "The platform is being upgraded.", time.Now().Add(time.Hour))
	})
	mux.HandleFunc("GET /open/v1/auth/assets/{name}", p.Asset)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	b := browsertest.New(t)
	b.Do(t, chromedp.Navigate(srv.URL+"/open/v1/auth/consent?session="+session))
	if got := b.Text(t, "h1"); got != "Sign-in is paused for maintenance" {
		t.Fatalf("heading %q", got)
	}
	b.WaitText(t, "main", "The platform is being upgraded.")
	b.Shot(t, "5-maintenance")
	b.CheckAccessibility(t, "5-maintenance")
	b.CheckConsole(t)
}
