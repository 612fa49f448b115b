package consent_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// browser is a tab of Debian's headless chromium, driven over the DevTools
// protocol, with what the page wrote to its console.
type browser struct {
	ctx     context.Context
	mu      sync.Mutex
	console []chromedp.ConsoleMessage
}

// chromiumPath finds Debian's chromium (MP_CHROMIUM overrides). Without it
// the test fails under CI=true (tools/scripts/chromium.sh, run by .ci/run,
// installs it) and skips elsewhere.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("MP_CHROMIUM"), "chromium", "/usr/bin/chromium"} {
		if p == "" {
			continue
		}
		if found, err := exec.LookPath(p); err == nil {
			return found
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is missing: run tools/scripts/chromium.sh (apt-get install chromium)")
	}
	t.Skip("chromium is missing (tools/scripts/chromium.sh installs it); CI=true makes this a failure")
	return ""
}

// newBrowser starts chromium headless on a phone-sized viewport (360 px
// wide, portrait, touch); everything stops with the test.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.Headless,
		chromedp.NoSandbox, // root in CI containers
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	b := &browser{ctx: ctx}
	// The first run starts the browser; it must not carry a timeout.
	if err := chromedp.Do(ctx, phoneViewport(phoneHeight)); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.console = append(b.console, m)
			b.mu.Unlock()
		}
	}()
	return b
}

// do runs actions with a deadline.
func (b *browser) do(t *testing.T, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("browser: %v\nconsole:\n%s", err, b.consoleText())
	}
}

func run[T any](t *testing.T, b *browser, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("browser: %v\nconsole:\n%s", err, b.consoleText())
	}
	return v
}

// text waits for sel to be visible and returns its text.
func (b *browser) text(t *testing.T, sel string) string {
	t.Helper()
	b.do(t, chromedp.WaitVisible(chromedp.CSS(sel)))
	return run(t, b, chromedp.Text(chromedp.CSS(sel)))
}

// waitText waits until sel is rendered (not hidden, nor inside a hidden
// step) and its text contains want.
func (b *browser) waitText(t *testing.T, sel, want string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	for {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(function(){var e=document.querySelector(`+jsString(sel)+`);return e&&e.checkVisibility()?e.textContent:""})()`))
		if err == nil && strings.Contains(v, want) {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("%s never said %q (last %q, %v)\nconsole:\n%s", sel, want, v, err, b.consoleText())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

func (b *browser) consoleText() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var lines []string
	for _, m := range b.console {
		lines = append(lines, string(m.Type)+" "+m.Source+": "+m.Text)
	}
	return strings.Join(lines, "\n")
}

// refused reports a console message of a script error or of something
// the Content Security Policy refused.
func refused(m chromedp.ConsoleMessage) bool {
	return m.IsException() || strings.Contains(m.Text, "Content Security Policy") || (m.Type == "error" && m.Source == "security")
}

// violations counts the refusals so far.
func (b *browser) violations() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, m := range b.console {
		if refused(m) {
			n++
		}
	}
	return n
}

// checkConsole fails on any script error and on anything the Content
// Security Policy refused: the page needs nothing its policy forbids.
func (b *browser) checkConsole(t *testing.T) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, m := range b.console {
		if refused(m) {
			t.Errorf("console: %s %s: %s", m.Type, m.Source, m.Text)
		}
	}
}

// shot saves a full-page PNG of the current page as name.png in the folder
// MP_SCREENSHOTS names (relative to the module's root), when it is set.
func (b *browser) shot(t *testing.T, name string) {
	t.Helper()
	dir := os.Getenv("MP_SCREENSHOTS")
	if dir == "" {
		return
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(moduleRoot(t), dir)
	}
	// The viewport grows to the page's height for the shot, so the whole
	// page is in it, then returns to the phone's.
	h := max(run(t, b, chromedp.Evaluate[int64](`document.documentElement.scrollHeight`)), phoneHeight)
	b.do(t, phoneViewport(h))
	// Let the page lay out at the new size before the shot.
	// The shot documents the page and asserts nothing: a page that has not
	// settled within the wait is shot as it is, and the sizes are logged.
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.innerHeight >= `+strconv.FormatInt(h, 10)+` && document.documentElement.scrollHeight <= window.innerHeight`))
	cancel()
	if err != nil {
		t.Logf("screenshot %s: the page did not settle at height %d (inner height, scroll height: %s)", name, h,
			run(t, b, chromedp.Evaluate[string](`window.innerHeight+", "+document.documentElement.scrollHeight`)))
	}
	png := run(t, b, chromedp.FullScreenshot(100))
	b.do(t, phoneViewport(phoneHeight))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
}

const phoneHeight = 740

// phoneViewport is a phone's screen, 360 px wide, at twice the density.
func phoneViewport(height int64) chromedp.Action[chromedp.Void] {
	return chromedp.EmulateViewport(360, height, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2))
}
