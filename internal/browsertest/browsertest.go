// Package browsertest drives Debian's headless chromium from tests over the
// DevTools protocol (chromedp): a phone-sized tab, what its console said
// (script errors and what the Content Security Policy refused), axe-core's
// accessibility rules, and full-page screenshots. The pages' browser tests
// (the consent pages, the developer console) share it; only test files
// import it (a depguard rule keeps it out of the binaries).
//
// Without chromium (or npm, for axe-core) a test fails under CI=true, where
// .ci/run installs both (tools/scripts/chromium.sh, tools/scripts/axe.sh),
// and skips elsewhere.
package browsertest

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

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// Browser is a tab of Debian's headless chromium, driven over the DevTools
// protocol, with what the page wrote to its console.
type Browser struct {
	// Ctx is the tab's context, for actions the helpers do not cover.
	Ctx     context.Context
	mu      sync.Mutex
	console []chromedp.ConsoleMessage
}

// Timeout bounds each step the helpers run.
const Timeout = 20 * time.Second

// ChromiumPath finds Debian's chromium (MP_CHROMIUM overrides). Without it
// the test fails under CI=true (tools/scripts/chromium.sh, run by .ci/run,
// installs it) and skips elsewhere.
func ChromiumPath(t testing.TB) string {
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

// New starts chromium headless on a phone-sized viewport (360 px wide,
// portrait, touch); everything stops with the test.
func New(t testing.TB) *Browser {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(ChromiumPath(t)),
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
	b := &Browser{Ctx: ctx}
	// The first run starts the browser; it must not carry a timeout.
	if err := chromedp.Do(ctx, PhoneViewport(PhoneHeight)); err != nil {
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

// Do runs actions with a deadline.
func (b *Browser) Do(t testing.TB, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.Ctx, Timeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("browser: %v\nconsole:\n%s", err, b.ConsoleText())
	}
}

// Run runs one action with a deadline and returns its value.
func Run[T any](t testing.TB, b *Browser, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.Ctx, Timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("browser: %v\nconsole:\n%s", err, b.ConsoleText())
	}
	return v
}

// Text waits for sel to be visible and returns its text.
func (b *Browser) Text(t testing.TB, sel string) string {
	t.Helper()
	b.Do(t, chromedp.WaitVisible(chromedp.CSS(sel)))
	return Run(t, b, chromedp.Text(chromedp.CSS(sel)))
}

// WaitText waits until sel is rendered (not hidden, nor inside a hidden
// step) and its text contains want.
func (b *Browser) WaitText(t testing.TB, sel, want string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.Ctx, Timeout)
	defer cancel()
	for {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(function(){var e=document.querySelector(`+JSString(sel)+`);return e&&e.checkVisibility()?e.textContent:""})()`))
		if err == nil && strings.Contains(v, want) {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("%s never said %q (last %q, %v)\nconsole:\n%s", sel, want, v, err, b.ConsoleText())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// WaitPath waits until the tab is on a page whose path is path (a script
// navigating, a redirect) and that page has loaded.
func (b *Browser) WaitPath(t testing.TB, path string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.Ctx, Timeout)
	defer cancel()
	for {
		// Asked again on every try: a navigation under way ends an
		// evaluation with an error, and the next one sees the new page.
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.readyState === "complete" ? location.pathname : ""`))
		if err == nil && v == path {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("the page never reached %s (last %q, %v)\nconsole:\n%s", path, v, err, b.ConsoleText())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// JSString quotes s as a JavaScript string literal.
func JSString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`, "\r", `\r`).Replace(s) + "'"
}

// ConsoleText is everything the page wrote to its console so far, a line
// a message, for a failure's report.
func (b *Browser) ConsoleText() string {
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

// Violations counts the refusals so far.
func (b *Browser) Violations() int {
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

// CheckConsole fails on any script error and on anything the Content
// Security Policy refused: the page needs nothing its policy forbids.
func (b *Browser) CheckConsole(t testing.TB) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, m := range b.console {
		if refused(m) {
			t.Errorf("console: %s %s: %s", m.Type, m.Source, m.Text)
		}
	}
}

// Download runs the steps that start a download and waits for it to
// complete. The file is saved in dir under the download's id; Download
// returns its path and the name the page suggested for it (the download
// attribute's or the answer's Content-Disposition).
func (b *Browser) Download(t testing.TB, dir string, start ...chromedp.Action[chromedp.Void]) (path, suggested string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.Ctx, Timeout)
	defer cancel()
	// Subscribed before the steps, so no event is missed.
	begins := chromedp.Events(ctx, browser.DownloadWillBegin)
	progress := chromedp.Events(ctx, browser.DownloadProgress)
	eventsEnabled := true
	b.Do(t, append([]chromedp.Action[chromedp.Void]{chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &eventsEnabled})
		return err
	})}, start...)...)
	var guid string
	for ev, err := range begins {
		if err != nil {
			t.Fatalf("waiting for a download to begin: %v\nconsole:\n%s", err, b.ConsoleText())
		}
		suggested, guid = ev.SuggestedFilename, ev.GUID
		break
	}
	for ev, err := range progress {
		if err != nil {
			t.Fatalf("waiting for the download of %s: %v", suggested, err)
		}
		if ev.GUID != guid {
			continue
		}
		switch ev.State {
		case browser.DownloadProgressStateCompleted:
			return filepath.Join(dir, guid), suggested
		case browser.DownloadProgressStateCanceled:
			t.Fatalf("the download of %s was cancelled", suggested)
		}
	}
	t.Fatalf("the download of %s did not complete", suggested)
	return "", ""
}

// Shot saves a full-page PNG of the current page as name.png in the folder
// MP_SCREENSHOTS names (relative to the module's root), when it is set.
func (b *Browser) Shot(t testing.TB, name string) {
	t.Helper()
	dir := os.Getenv("MP_SCREENSHOTS")
	if dir == "" {
		return
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(ModuleRoot(t), dir)
	}
	// The viewport grows to the page's height for the shot, so the whole
	// page is in it, then returns to the phone's.
	h := max(Run(t, b, chromedp.Evaluate[int64](`document.documentElement.scrollHeight`)), PhoneHeight)
	b.Do(t, PhoneViewport(h))
	// Let the page lay out at the new size before the shot.
	// The shot documents the page and asserts nothing: a page that has not
	// settled within the wait is shot as it is, and the sizes are logged.
	ctx, cancel := context.WithTimeout(b.Ctx, 5*time.Second)
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.innerHeight >= `+strconv.FormatInt(h, 10)+` && document.documentElement.scrollHeight <= window.innerHeight`))
	cancel()
	if err != nil {
		t.Logf("screenshot %s: the page did not settle at height %d (inner height, scroll height: %s)", name, h,
			Run(t, b, chromedp.Evaluate[string](`window.innerHeight+", "+document.documentElement.scrollHeight`)))
	}
	png := Run(t, b, chromedp.FullScreenshot(100))
	b.Do(t, PhoneViewport(PhoneHeight))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// ModuleRoot is the folder of go.mod above the test's working directory.
func ModuleRoot(t testing.TB) string {
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

// PhoneHeight is the phone's screen height, in CSS pixels.
const PhoneHeight = 740

// PhoneViewport is a phone's screen, 360 px wide, at twice the density.
func PhoneViewport(height int64) chromedp.Action[chromedp.Void] {
	return chromedp.EmulateViewport(360, height, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2))
}
