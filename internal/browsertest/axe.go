package browsertest

import (
	"bytes"
	"encoding/json"
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
func axeSource(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("npm is required under CI=true (axe-core): %v", err)
		}
		t.Skipf("npm not installed: %v", err)
	}
	axe.once.Do(func() {
		cmd := exec.Command(filepath.Join(ModuleRoot(t), "tools", "scripts", "axe.sh"))
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

// AxeViolation is one rule axe-core found broken, with the elements that
// break it.
type AxeViolation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// CheckAccessibility runs axe-core on the page as it is now (the script is
// given to the page through DevTools, not loaded by it, so the page's
// policy stays as served) and fails on every violation.
func (b *Browser) CheckAccessibility(t testing.TB, what string) {
	t.Helper()
	for _, v := range b.AxeViolations(t) {
		t.Errorf("%s: accessibility: %s (%s, %s) at %s", what, v.Help, v.ID, v.Impact, strings.Join(v.Nodes, "; "))
	}
}

// AxeViolations runs axe-core on the page as it is now and returns what it
// found.
func (b *Browser) AxeViolations(t testing.TB) []AxeViolation {
	t.Helper()
	src := axeSource(t)
	b.Do(t, chromedp.Evaluate[chromedp.Void](src+"\n;void 0"))
	out := Run(t, b, chromedp.Evaluate[string](`axe.run(document, {runOnly: {type: "tag", values: `+axeRules+`}, resultTypes: ["violations"]})
		.then(r => JSON.stringify(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
			nodes: v.nodes.map(n => n.target.join(" "))}))))`, chromedp.EvalAwaitPromise))
	var violations []AxeViolation
	if err := json.Unmarshal([]byte(out), &violations); err != nil {
		t.Fatalf("axe-core's answer: %v: %s", err, out)
	}
	return violations
}
