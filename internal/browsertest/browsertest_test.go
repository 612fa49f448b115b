package browsertest_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/mallplatform/partnerapi/internal/browsertest"
)

// The accessibility check finds what it is there to find: a field without
// a label, an image without a text alternative, a page without a language.
func TestAccessibilityCheckFindsViolations(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, `<!doctype html><html><title>t</title><main><input type="text"><img src="x.png"></main>`)
	}))
	t.Cleanup(srv.Close)
	b := browsertest.New(t)
	b.Do(t, chromedp.Navigate(srv.URL))
	found := map[string]bool{}
	for _, v := range b.AxeViolations(t) {
		found[v.ID] = true
	}
	for _, id := range []string{"label", "image-alt", "html-has-lang"} {
		if !found[id] {
			t.Errorf("axe-core did not report %s (reported %v)", id, found)
		}
	}
}

// A link with the download attribute saves the answer in the folder given,
// under the name the answer suggests.
func TestDownload(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/file" {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Disposition", `attachment; filename="app.json"`)
			_, _ = io.WriteString(w, `{"ok":true}`)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, `<!doctype html><html lang="en"><title>t</title><a id="get" href="/file" download>get</a>`)
	}))
	t.Cleanup(srv.Close)
	b := browsertest.New(t)
	b.Do(t, chromedp.Navigate(srv.URL))
	dir := t.TempDir()
	path, name := b.Download(t, dir, chromedp.Click(chromedp.CSS("#get")))
	if name != "app.json" || filepath.Dir(path) != dir {
		t.Errorf("saved %s as %q", path, name)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != `{"ok":true}` {
		t.Errorf("the file holds %q (%v)", got, err)
	}
}
