package main_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mallplatform/partnerapi/internal/browsertest"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/auth"
)

// devConsole is `mpserver dev` as a partner starts it: the built binary,
// the all-in-one role on SQLite in a data directory of its own, on free
// ports. Its console mail lands in DATA_DIR/mail as .eml files.
type devConsole struct {
	base    string
	dataDir string
}

func startDevConsole(t *testing.T) *devConsole {
	t.Helper()
	bin := builtMPServer(t)
	dir := t.TempDir()
	httpAddr, grpcAddr, metrics := freeAddr(t), freeAddr(t), freeAddr(t)
	env := append(os.Environ(), "MP_LOG_LEVEL=warn")
	start(t, bin, env, "dev", "--data-dir", dir, "--http-addr", httpAddr, "--grpc-addr", grpcAddr, "--metrics-addr", metrics)
	waitReady(t, "http://"+metrics+"/readyz")
	return &devConsole{base: "http://" + httpAddr, dataDir: dir}
}

// consoleLink is the link of kind ("verify", "invitations/accept") in the
// last message dev wrote to the address to, as the partner copies it from
// the .eml file (dev prints the same message on the console).
func (d *devConsole) consoleLink(t *testing.T, to, kind string) string {
	t.Helper()
	link := regexp.MustCompile(regexp.QuoteMeta(d.base+"/console/"+kind+"?token=") + `[^\s]+`)
	files, _ := filepath.Glob(filepath.Join(d.dataDir, "mail", "*.eml"))
	found := ""
	for _, f := range files { // named by time: the last match is the newest
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "\r\nTo: <"+to+">\r\n") {
			if m := link.FindString(string(b)); m != "" {
				found = m
			}
		}
	}
	if found == "" {
		t.Fatalf("no %s link to %s among %d messages in %s", kind, to, len(files), filepath.Join(d.dataDir, "mail"))
	}
	return found
}

// partnerctlBuild is partnerctl, built once per test process.
var partnerctlBuild struct {
	once sync.Once
	bin  string
	err  error
}

func builtPartnerctl(t *testing.T) string {
	t.Helper()
	b := &partnerctlBuild
	b.once.Do(func() {
		mp := builtMPServer(t) // its folder is removed by TestMain
		b.bin = filepath.Join(filepath.Dir(mp), "partnerctl")
		build := exec.Command("go", "build", "-trimpath", "-o", b.bin, "../partnerctl")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("build partnerctl: %w\n%s", err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.bin
}

// partnerctl runs the CLI with args and extra environment and returns the
// envelope it printed after the status line; the call must succeed.
func partnerctl(t *testing.T, env []string, args ...string) sdk.Envelope {
	t.Helper()
	cmd := exec.Command(builtPartnerctl(t), args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	var stderr string
	if ee, ok := err.(*exec.ExitError); ok {
		stderr = string(ee.Stderr)
	}
	status, body, _ := strings.Cut(string(out), "\n")
	var e sdk.Envelope
	if err != nil || status != "200 OK" || json.Unmarshal([]byte(body), &e) != nil || !e.Success || e.Data == nil {
		t.Fatalf("partnerctl %s: %v\n%s\n%s", strings.Join(args, " "), err, out, stderr)
	}
	return e
}

// Console pages' fixed values.
const (
	consoleName     = "Maria Santos"
	consoleEmail    = "maria@acme.example"
	consolePassword = "Kalamansi-Juice-2026"
	colleagueEmail  = "jun@acme.example"
	consoleAppName  = "Acme OMS"
	consoleShopName = "Santos Home & Living"
)

// TestConsoleInBrowser is a new partner's first visit to the console of
// `mpserver dev`, in Debian's chromium on a phone's screen: sign up →
// verify from the link dev wrote → sign in (a wrong password first) →
// create a sandbox app (the secret shown once) → download its credentials
// file → a signed call with partnerctl and that file → create a test shop
// → authorise it for the app → a signed seller call with its token; then
// the app's page (rotation), members (an invitation), the profile, the
// invitation link signed out, and an expired verification link with its
// resend. Every page is held to axe-core's rules and to its Content
// Security Policy; MP_SCREENSHOTS=docs/console writes a numbered shot of
// each.
func TestConsoleInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the binaries")
	}
	d := startDevConsole(t)
	b := browsertest.New(t)
	page := func(name string) {
		t.Helper()
		b.Shot(t, name)
		b.CheckAccessibility(t, name)
	}

	// Sign up.
	b.Do(t, chromedp.Navigate(d.base+"/console/"))
	b.WaitPath(t, "/console/signin")
	b.Do(t, chromedp.Navigate(d.base+"/console/signup"), chromedp.WaitVisible(chromedp.CSS("form#signup")))
	page("01-sign-up")
	b.Do(t,
		chromedp.SendKeys(chromedp.CSS(`#signup input[name=name]`), consoleName),
		chromedp.SendKeys(chromedp.CSS(`#signup input[name=email]`), consoleEmail),
		chromedp.SendKeys(chromedp.CSS(`#signup input[name=password]`), consolePassword),
		chromedp.SetValue(chromedp.CSS(`#signup select[name=developerType]`), "INDIVIDUAL"),
		chromedp.Click(chromedp.CSS(`#signup button[type=submit]`)))
	b.WaitText(t, "#signed-up", consoleEmail)
	page("02-signed-up")

	// Verify from the link dev wrote.
	b.Do(t, chromedp.Navigate(d.consoleLink(t, consoleEmail, "verify")), chromedp.WaitVisible(chromedp.CSS("form#verify")))
	page("03-verify")
	b.Do(t, chromedp.Click(chromedp.CSS(`#verify button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS("#verified")))
	page("04-verified")

	// Sign in: a wrong password is refused in the form, then the right one
	// leads to the apps.
	b.Do(t, chromedp.Navigate(d.base+"/console/signin"), chromedp.WaitVisible(chromedp.CSS("form#signin")),
		chromedp.SendKeys(chromedp.CSS(`#signin input[name=email]`), consoleEmail),
		chromedp.SendKeys(chromedp.CSS(`#signin input[name=password]`), "not the password"),
		chromedp.Click(chromedp.CSS(`#signin button[type=submit]`)))
	b.WaitText(t, `#signin [role="alert"].form-error`, "the email address or the password is wrong")
	if code := browsertest.Run(t, b, chromedp.Evaluate[string](`document.querySelector('#signin .form-error').dataset.code`)); code != "UNAUTHORIZED" {
		t.Errorf("the refused sign-in's data-code is %q", code)
	}
	page("05-sign-in-refused")
	b.Do(t, chromedp.Evaluate[chromedp.Void](`void (document.querySelector('#signin input[name=password]').value = "")`),
		chromedp.SendKeys(chromedp.CSS(`#signin input[name=password]`), consolePassword),
		chromedp.Click(chromedp.CSS(`#signin button[type=submit]`)))
	b.WaitPath(t, "/console/apps")

	// Create a sandbox app: the secret is shown once, with the download.
	b.Do(t, chromedp.WaitVisible(chromedp.CSS("form#create-app")))
	page("06-apps")
	b.Do(t,
		chromedp.SendKeys(chromedp.CSS(`#create-app input[name=name]`), consoleAppName),
		chromedp.Click(chromedp.CSS(`#create-app input[name=environment][value=sandbox]`)),
		chromedp.Click(chromedp.CSS(`#create-app input[name=scopes][value="catalog:read"]`)),
		chromedp.Click(chromedp.CSS(`#create-app input[name=scopes][value="orders:read"]`)),
		chromedp.SendKeys(chromedp.CSS(`#create-app textarea[name=redirectUris]`), "https://oms.acme.example/oauth/callback"),
		chromedp.Click(chromedp.CSS(`#create-app button[type=submit]`)))
	b.WaitText(t, "#new-secret", "once")
	clientID := b.Text(t, "#client-id")
	secret := b.Text(t, "#client-secret")
	href := browsertest.Run(t, b, chromedp.Evaluate[string](`document.querySelector('a#download-credentials[download]').getAttribute('href')`))
	appID := strings.TrimSuffix(strings.TrimPrefix(href, "/console/v1/apps/"), "/credentials")
	if clientID == "" || len(secret) < 32 || appID == "" || strings.Contains(appID, "/") || href != "/console/v1/apps/"+appID+"/credentials" {
		t.Fatalf("the new app: client id %q, secret of %d characters, download %q", clientID, len(secret), href)
	}
	// The new app is listed at once, as the server lists it.
	if got := b.Text(t, `table#apps a[href="/console/apps/`+appID+`"]`); got != consoleAppName {
		t.Errorf("after the creation, the apps table names the app %q", got)
	}
	page("07-app-created")

	// Download the credentials file through the browser.
	file, _ := b.Download(t, t.TempDir(), chromedp.Click(chromedp.CSS("a#download-credentials")))
	creds, err := sdk.LoadCredentials(file)
	if err != nil {
		t.Fatalf("the downloaded credentials file: %v", err)
	}
	if got := creds.Apps[appID]; got.ClientID != clientID || got.ClientSecret != secret || creds.BaseURL != d.base {
		t.Fatalf("the downloaded file holds %+v under %s at %s", got, appID, creds.BaseURL)
	}
	// A signed call with partnerctl and that file.
	partnerctl(t, nil, "--credentials", file, "--app", appID, "--no-seller", "GET", "/open/v1/credentials")
	b.Do(t, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("table#apps")))
	if got := b.Text(t, `table#apps a[href="/console/apps/`+appID+`"]`); got != consoleAppName {
		t.Errorf("after a reload, the apps table names the app %q", got)
	}

	// A test shop, authorised for the app.
	b.Do(t, chromedp.Click(chromedp.CSS(`nav[aria-label="Console"] a[href="/console/test-shops"]`)))
	b.WaitPath(t, "/console/test-shops")
	b.Do(t, chromedp.WaitVisible(chromedp.CSS("form#create-test-shop")))
	page("08-test-shops")
	b.Do(t, chromedp.SendKeys(chromedp.CSS(`#create-test-shop input[name=shopName]`), consoleShopName),
		chromedp.Click(chromedp.CSS(`#create-test-shop button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS("#new-test-shop")))
	shopID := b.Text(t, "#test-shop-id")
	for _, sel := range []string{"#test-shop-username", "#test-shop-password", "#test-shop-otp"} {
		if b.Text(t, sel) == "" {
			t.Errorf("the new test shop shows no %s", sel)
		}
	}
	page("09-test-shop-created")
	// The new shop's row, with its authorise form, is on the page at once.
	authorize := `table#test-shops form.authorize-test-shop[data-shop-id="` + shopID + `"]`
	b.Do(t, chromedp.WaitVisible(chromedp.CSS(authorize)),
		chromedp.SetValue(chromedp.CSS(authorize+` select[name=appId]`), appID),
		chromedp.Click(chromedp.CSS(authorize+` button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS("#test-shop-tokens")))
	accessToken := b.Text(t, "#test-shop-access-token")
	if got := b.Text(t, "#test-shop-tokens-seller"); got != shopID || accessToken == "" || b.Text(t, "#test-shop-refresh-token") == "" {
		t.Fatalf("the tokens shown: seller %q (want %q), access token %q", got, shopID, accessToken)
	}
	page("10-test-shop-authorised")
	stacked(t, b, "table#test-shops")
	// A signed seller call as the test shop, as the README's variables make
	// it.
	var orders []json.RawMessage
	e := partnerctl(t, []string{"PARTNER_BASE_URL=" + d.base, "PARTNER_CLIENT_ID=" + clientID, "PARTNER_CLIENT_SECRET=" + secret,
		"PARTNER_SELLER_ID=" + shopID, "PARTNER_ACCESS_TOKEN=" + accessToken}, "GET", "/open/v1/orders")
	if err := json.Unmarshal(e.Data, &orders); err != nil || len(orders) == 0 {
		t.Errorf("the test shop's orders: %v %s", err, e.Data)
	}

	// The app's page: a rotation shows the new secret once.
	b.Do(t, chromedp.Navigate(d.base+"/console/apps/"+appID), chromedp.WaitVisible(chromedp.CSS("form#update-app")))
	b.WaitText(t, "main", clientID)
	page("11-app")
	b.Do(t, chromedp.Click(chromedp.CSS("button#rotate-secret")))
	b.WaitText(t, "#new-secret", "once")
	if rotated := b.Text(t, "#client-secret"); rotated == secret || len(rotated) < 32 {
		t.Errorf("the rotated secret %q", rotated)
	}
	page("12-secret-rotated")
	b.Do(t, chromedp.Navigate(d.base+"/console/apps/app_unknown"), chromedp.WaitVisible(chromedp.CSS("main h1")))
	b.WaitText(t, "main", "o such app")
	page("13-no-such-app")

	// Members: invite a colleague, who is listed as pending at once, and
	// revoke a mistyped invitation.
	b.Do(t, chromedp.Navigate(d.base+"/console/members"), chromedp.WaitVisible(chromedp.CSS("table#members")))
	b.WaitText(t, "table#members", consoleEmail)
	b.WaitText(t, "table#invitations", "No pending invitations.")
	invitePerson := func(email, role string) {
		t.Helper()
		b.Do(t, chromedp.SendKeys(chromedp.CSS(`#invite input[name=email]`), email),
			chromedp.SetValue(chromedp.CSS(`#invite select[name=role]`), role),
			chromedp.Click(chromedp.CSS(`#invite button[type=submit]`)))
		b.WaitText(t, "#invited", email)
	}
	invitePerson("jun@acme.exmaple", "VIEWER")
	b.Do(t, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("table#invitations")))
	b.WaitText(t, "table#invitations", "jun@acme.exmaple")
	b.Do(t, chromedp.Click(chromedp.CSS(`table#invitations button.revoke-invitation`)))
	b.WaitText(t, "table#invitations", "No pending invitations.")
	invitePerson(colleagueEmail, "DEVELOPER")
	b.WaitText(t, "table#invitations", colleagueEmail)
	if got := b.Text(t, "table#invitations tbody tr td:nth-child(2)"); got != "DEVELOPER" {
		t.Errorf("the pending invitation's role is %q", got)
	}
	page("14-members")
	stacked(t, b, "table#members")
	stacked(t, b, "table#invitations")

	// The profile of an individual.
	b.Do(t, chromedp.Navigate(d.base+"/console/profile"), chromedp.WaitVisible(chromedp.CSS("dl#account")),
		chromedp.WaitVisible(chromedp.CSS(`form#profile input[name=fullName]`)))
	b.WaitText(t, "dl#account", consoleEmail)
	page("15-profile")

	// Signed out, the invitation link asks to sign in first.
	b.Do(t, chromedp.Click(chromedp.CSS("button#sign-out")))
	b.WaitPath(t, "/console/signin")
	b.Do(t, chromedp.Navigate(d.consoleLink(t, colleagueEmail, "invitations/accept")), chromedp.WaitVisible(chromedp.CSS("a#sign-in-to-accept")))
	page("16-invitation-signed-out")

	// An expired verification link offers a new one.
	b.Do(t, chromedp.Navigate(d.base+"/console/signup"), chromedp.WaitVisible(chromedp.CSS("form#signup")),
		chromedp.SendKeys(chromedp.CSS(`#signup input[name=name]`), "Jun Reyes"),
		chromedp.SendKeys(chromedp.CSS(`#signup input[name=email]`), colleagueEmail),
		chromedp.SendKeys(chromedp.CSS(`#signup input[name=password]`), consolePassword),
		chromedp.Click(chromedp.CSS(`#signup button[type=submit]`)))
	b.WaitText(t, "#signed-up", colleagueEmail)
	link := d.consoleLink(t, colleagueEmail, "verify")
	d.expireVerification(t, link)
	b.Do(t, chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS("form#verify")),
		chromedp.Click(chromedp.CSS(`#verify button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS("form#resend")))
	page("17-verify-expired")
	b.Do(t, chromedp.SendKeys(chromedp.CSS(`#resend input[name=email]`), colleagueEmail),
		chromedp.Click(chromedp.CSS(`#resend button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS("#resent")))
	if again := d.consoleLink(t, colleagueEmail, "verify"); again == link {
		t.Errorf("the resend wrote no new link")
	}
	b.CheckConsole(t)
}

// stacked checks that a table of several columns is stacked on the
// phone's 360 px: each cell on a line of its own, named by its column, and
// the table no wider than the page's main column.
func stacked(t *testing.T, b *browsertest.Browser, table string) {
	t.Helper()
	got := browsertest.Run(t, b, chromedp.Evaluate[string](`(function(){var t=document.querySelector(`+browsertest.JSString(table)+
		`),td=t.querySelector('tbody td[data-label]');if(!td)return "no labelled cell";`+
		`if(getComputedStyle(td).display!=="grid")return "cells in columns";`+
		`if(getComputedStyle(td,"::before").content!==JSON.stringify(td.dataset.label))return "a cell without its column's name";`+
		`return t.scrollWidth<=document.querySelector("main").clientWidth?"":"wider than the page"})()`))
	if got != "" {
		t.Errorf("%s at 360 px: %s", table, got)
	}
}

// expireVerification moves the link's expiry a day into the past in dev's
// database, as if the partner had waited longer than its lifetime.
func (d *devConsole) expireVerification(t *testing.T, link string) {
	t.Helper()
	_, escaped, _ := strings.Cut(link, "?token=")
	token, err := url.QueryUnescape(escaped)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := db.Open(ctx, db.Config{Driver: db.DriverSQLite, DSN: filepath.Join(d.dataDir, "dev.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	res, err := conn.SQL.ExecContext(ctx, `UPDATE developer_email_tokens SET expires_at = ? WHERE token_hash = ?`,
		time.Now().Add(-24*time.Hour).UTC(), auth.HashToken(token))
	if err != nil {
		t.Fatal(err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		t.Fatalf("expiring the verification link: %d rows (%v)", n, err)
	}
}
