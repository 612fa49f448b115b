package consent_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

var axe struct {
	once   sync.Once
	source string
	err    error
}

// axeSource is axe-core's script, pinned by tools/axe/package-lock.json and
// installed from npm by tools/scripts/axe.sh. Without npm the test fails
// under CI=true and skips elsewhere.
func axeSource(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("npm is required under CI=true (axe-core): %v", err)
		}
		t.Skipf("npm not installed: %v", err)
	}
	axe.once.Do(func() {
		cmd := exec.Command(filepath.Join(moduleRoot(t), "tools", "scripts", "axe.sh"))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			axe.err = err
			axe.source = stderr.String()
			return
		}
		b, err := os.ReadFile(strings.TrimSpace(string(out)))
		axe.source, axe.err = string(b), err
	})
	if axe.err != nil {
		t.Fatalf("installing axe-core: %v\n%s", axe.err, axe.source)
	}
	return axe.source
}

// axeRules are the rule sets the page is held to: WCAG 2.0 and 2.1, A and
// AA, and axe's best practices.
const axeRules = `["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]`

type axeViolation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// checkAccessibility runs axe-core on the page as it is now (the script is
// given to the page through DevTools, not loaded by it, so the page's
// policy stays as served) and fails on every violation.
func (b *browser) checkAccessibility(t *testing.T, what string) {
	t.Helper()
	for _, v := range b.axeViolations(t) {
		t.Errorf("%s: accessibility: %s (%s, %s) at %s", what, v.Help, v.ID, v.Impact, strings.Join(v.Nodes, "; "))
	}
}

func (b *browser) axeViolations(t *testing.T) []axeViolation {
	t.Helper()
	src := axeSource(t)
	b.do(t, chromedp.Evaluate[chromedp.Void](src+"\n;void 0"))
	out := run(t, b, chromedp.Evaluate[string](`axe.run(document, {runOnly: {type: "tag", values: `+axeRules+`}, resultTypes: ["violations"]})
		.then(r => JSON.stringify(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
			nodes: v.nodes.map(n => n.target.join(" "))}))))`, chromedp.EvalAwaitPromise))
	var violations []axeViolation
	if err := json.Unmarshal([]byte(out), &violations); err != nil {
		t.Fatalf("axe-core's answer: %v: %s", err, out)
	}
	return violations
}

// The accessibility check finds what it is there to find: a field without
// a label, an image without a text alternative, a page without a language.
func TestAccessibilityCheckFindsViolations(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, `<!doctype html><html><title>t</title><main><input type="text"><img src="x.png"></main>`)
	}))
	t.Cleanup(srv.Close)
	b := newBrowser(t)
	b.do(t, chromedp.Navigate(srv.URL))
	found := map[string]bool{}
	for _, v := range b.axeViolations(t) {
		found[v.ID] = true
	}
	for _, id := range []string{"label", "image-alt", "html-has-lang"} {
		if !found[id] {
			t.Errorf("axe-core did not report %s (reported %v)", id, found)
		}
	}
}
