package gateway_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/developer"
	"github.com/mallplatform/partnerapi/services/developer/mail"
)

// consoleMail keeps the console's messages.
type consoleMail struct {
	mu   sync.Mutex
	sent []mail.Message
}

func (m *consoleMail) Send(_ context.Context, msg mail.Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, msg)
	return nil
}

var linkToken = regexp.MustCompile(`verify\?token=([^\s]+)`)

// lastLink is the token of the last verification link mailed to an
// address.
func (m *consoleMail) lastLink(t *testing.T, to string) string {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := len(m.sent) - 1; i >= 0; i-- {
		if m.sent[i].To != to {
			continue
		}
		match := linkToken.FindStringSubmatch(m.sent[i].Text)
		if match == nil {
			t.Fatalf("message to %s holds no link: %q", to, m.sent[i].Text)
		}
		token, err := url.QueryUnescape(match[1])
		if err != nil {
			t.Fatal(err)
		}
		return token
	}
	t.Fatalf("no message to %s", to)
	return ""
}

// consolePerson is a person at the console: a cookie jar, the session's CSRF
// token once signed in, and the address it calls from.
type consolePerson struct {
	base   string
	cookie string
	csrf   string
}

type consoleAnswer struct {
	status int
	header http.Header
	raw    []byte
	env    struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
		Error   *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		RequestID string `json:"requestId"`
	}
}

func (a consoleAnswer) code() string {
	if a.env.Error == nil {
		return ""
	}
	return a.env.Error.Code
}

func (a consoleAnswer) data(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(a.env.Data, v); err != nil {
		t.Fatalf("data %s: %v", a.env.Data, err)
	}
}

// call sends a console request; the CSRF token goes along on every change
// unless csrf names another value ("-" for none).
func (b *consolePerson) call(t *testing.T, method, path, body string, header ...string) consoleAnswer {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, b.base+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if b.cookie != "" {
		req.AddCookie(&http.Cookie{Name: gateway.ConsoleCookie, Value: b.cookie})
	}
	if method != http.MethodGet && b.csrf != "" {
		req.Header.Set(gateway.HeaderCSRFToken, b.csrf)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i+1] == "" {
			req.Header.Del(header[i])
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	a := consoleAnswer{status: resp.StatusCode, header: resp.Header, raw: raw}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") && len(raw) > 0 {
		_ = json.Unmarshal(raw, &a.env)
	}
	// The consolePerson keeps what the answer sets.
	for _, c := range resp.Cookies() {
		if c.Name == gateway.ConsoleCookie {
			b.cookie = c.Value
			if c.MaxAge < 0 {
				b.cookie = ""
			}
		}
	}
	return a
}

func wantStatus(t *testing.T, what string, a consoleAnswer, status int, code string) {
	t.Helper()
	if a.status != status || a.code() != code {
		t.Fatalf("%s: %d %s, want %d %s: %s", what, a.status, a.code(), status, code, a.raw)
	}
	if a.header.Get(sdk.HeaderRequestID) == "" || a.header.Get(sdk.HeaderRateLimitLimit) == "" {
		t.Fatalf("%s: no request id or rate headers: %v", what, a.header)
	}
	if code != "" && (a.env.Success || a.env.RequestID == "" || a.env.Error.Message == "") {
		t.Fatalf("%s: not the error body: %s", what, a.raw)
	}
}

const consolePassword = "correct horse battery"

// signedUp signs a person up, verifies the address and signs in.
func signedUp(t *testing.T, env *testenv.Env, box *consoleMail, email string) (*consolePerson, string) {
	t.Helper()
	b := &consolePerson{base: env.BaseURL}
	a := b.call(t, http.MethodPost, "/console/v1/signup",
		`{"email":"`+email+`","password":"`+consolePassword+`","name":"Ana Cruz","developerType":"INDIVIDUAL"}`)
	wantStatus(t, "sign-up", a, http.StatusCreated, "")
	var up struct {
		AccountID     string `json:"accountId"`
		Email         string `json:"email"`
		EmailVerified *bool  `json:"emailVerified"`
	}
	a.data(t, &up)
	if up.AccountID == "" || up.Email != email || up.EmailVerified == nil || *up.EmailVerified {
		t.Fatalf("sign-up answer: %s", a.raw)
	}
	wantStatus(t, "verify", b.call(t, http.MethodPost, "/console/v1/verify", `{"token":"`+box.lastLink(t, email)+`"}`), http.StatusOK, "")
	b.signIn(t, email)
	return b, up.AccountID
}

func (b *consolePerson) signIn(t *testing.T, email string) consoleAnswer {
	t.Helper()
	a := b.call(t, http.MethodPost, "/console/v1/session", `{"email":"`+email+`","password":"`+consolePassword+`"}`)
	wantStatus(t, "sign-in", a, http.StatusOK, "")
	var s struct {
		AccountID string `json:"accountId"`
		Role      string `json:"role"`
		CSRFToken string `json:"csrfToken"`
	}
	a.data(t, &s)
	if s.AccountID == "" || s.Role != developer.RoleOwner || s.CSRFToken == "" || b.cookie == "" {
		t.Fatalf("sign-in answer: %s (cookie %q)", a.raw, b.cookie)
	}
	if bytes.Contains(a.raw, []byte(b.cookie)) {
		t.Fatal("the session token is in the body: page scripts could read it")
	}
	b.csrf = s.CSRFToken
	return a
}

type consoleApp struct {
	AppID        string   `json:"appId"`
	ClientID     string   `json:"clientId"`
	Name         string   `json:"name"`
	Environment  string   `json:"environment"`
	Scopes       []string `json:"scopes"`
	RedirectURIs []string `json:"redirectUris"`
	Active       bool     `json:"active"`
}

// A partner goes from sign-up to a working credentials file through the
// console's JSON API on the real gateway and core, and manages the app
// through its life; every refusal answers the standard error body.
func TestConsoleAPI(t *testing.T) {
	for _, pg := range []bool{false, true} {
		name := "sqlite"
		if pg {
			name = "postgres"
		}
		t.Run(name, func(t *testing.T) {
			box := &consoleMail{}
			env := testenv.Start(t, testenv.Options{Postgres: pg, ConsoleMail: box})
			testConsoleAPI(t, env, box)
		})
	}
}

func testConsoleAPI(t *testing.T, env *testenv.Env, box *consoleMail) {
	ctx := context.Background()
	anon := &consolePerson{base: env.BaseURL}
	wantStatus(t, "no session", anon.call(t, http.MethodGet, "/console/v1/apps", ""), http.StatusUnauthorized, "UNAUTHORIZED")
	wantStatus(t, "no session, a change", anon.call(t, http.MethodPost, "/console/v1/apps", `{"name":"x","environment":"sandbox"}`),
		http.StatusUnauthorized, "UNAUTHORIZED")

	// Signed in before verifying: reads work, creating does not.
	early := &consolePerson{base: env.BaseURL}
	wantStatus(t, "sign-up", early.call(t, http.MethodPost, "/console/v1/signup",
		`{"email":"late@example.ph","password":"`+consolePassword+`","name":"Late","developerType":"BUSINESS"}`), http.StatusCreated, "")
	signIn := early.signIn(t, "late@example.ph")
	set := signIn.header.Get("Set-Cookie")
	for _, attr := range []string{gateway.ConsoleCookie + "=", "Path=/console", "Max-Age=43200", "HttpOnly", "SameSite=Strict"} {
		if !strings.Contains(set, attr) {
			t.Fatalf("Set-Cookie %q lacks %s", set, attr)
		}
	}
	if strings.Contains(set, "Secure") {
		t.Fatalf("Set-Cookie %q is Secure on http", set)
	}
	wantStatus(t, "unverified reads", early.call(t, http.MethodGet, "/console/v1/account", ""), http.StatusOK, "")
	wantStatus(t, "unverified creates", early.call(t, http.MethodPost, "/console/v1/apps", `{"name":"x","environment":"sandbox"}`),
		http.StatusForbidden, "EMAIL_NOT_VERIFIED")

	b, accountID := signedUp(t, env, box, "ana@example.ph")

	// CSRF and cross-origin refusals on a change.
	create := `{"name":"Shop sync","environment":"sandbox","scopes":["catalog:read","orders:read"],"redirectUris":["https://partner.example/callback"]}`
	wantStatus(t, "no CSRF token", b.call(t, http.MethodPost, "/console/v1/apps", create, gateway.HeaderCSRFToken, ""),
		http.StatusForbidden, "FORBIDDEN")
	wantStatus(t, "wrong CSRF token", b.call(t, http.MethodPost, "/console/v1/apps", create, gateway.HeaderCSRFToken, "not-the-token"),
		http.StatusForbidden, "FORBIDDEN")
	wantStatus(t, "cross-site", b.call(t, http.MethodPost, "/console/v1/apps", create, "Sec-Fetch-Site", "cross-site"),
		http.StatusForbidden, "FORBIDDEN")
	wantStatus(t, "other origin", b.call(t, http.MethodPost, "/console/v1/apps", create, "Origin", "https://evil.example"),
		http.StatusForbidden, "FORBIDDEN")

	a := b.call(t, http.MethodPost, "/console/v1/apps", create)
	wantStatus(t, "create", a, http.StatusCreated, "")
	var made struct {
		App          consoleApp `json:"app"`
		ClientSecret string     `json:"clientSecret"`
	}
	a.data(t, &made)
	if made.App.AppID == "" || made.ClientSecret == "" || made.App.Environment != "sandbox" || !made.App.Active {
		t.Fatalf("created: %s", a.raw)
	}
	if cc := a.header.Get("Cache-Control"); cc != "no-store" {
		t.Fatalf("an answer with a secret has Cache-Control %q", cc)
	}
	appPath := "/console/v1/apps/" + made.App.AppID

	a = b.call(t, http.MethodGet, "/console/v1/apps", "")
	wantStatus(t, "list", a, http.StatusOK, "")
	var list []consoleApp
	a.data(t, &list)
	if len(list) != 1 || list[0].AppID != made.App.AppID || bytes.Contains(a.raw, []byte(made.ClientSecret)) ||
		bytes.Contains(a.raw, []byte("clientSecret")) {
		t.Fatalf("list: %s", a.raw)
	}
	a = b.call(t, http.MethodGet, appPath, "")
	wantStatus(t, "get", a, http.StatusOK, "")
	if bytes.Contains(a.raw, []byte(made.ClientSecret)) {
		t.Fatal("get holds the secret")
	}

	a = b.call(t, http.MethodPut, appPath, `{"name":"Shop sync 2","scopes":["catalog:read"],"redirectUris":[]}`)
	wantStatus(t, "update", a, http.StatusOK, "")
	var updated consoleApp
	a.data(t, &updated)
	if updated.Name != "Shop sync 2" || !slices.Equal(updated.Scopes, []string{"catalog:read"}) || len(updated.RedirectURIs) != 0 {
		t.Fatalf("updated: %s", a.raw)
	}
	wantStatus(t, "update, unknown scope", b.call(t, http.MethodPut, appPath, `{"name":"n","scopes":["admin:all"]}`),
		http.StatusBadRequest, "VALIDATION_ERROR")
	wantStatus(t, "update, http redirect", b.call(t, http.MethodPut, appPath, `{"name":"n","redirectUris":["http://partner.example/cb"]}`),
		http.StatusBadRequest, "VALIDATION_ERROR")
	wantStatus(t, "update, no name", b.call(t, http.MethodPut, appPath, `{"name":" "}`), http.StatusBadRequest, "VALIDATION_ERROR")

	a = b.call(t, http.MethodPost, appPath+"/rotate-secret", "")
	wantStatus(t, "rotate", a, http.StatusOK, "")
	var rot struct {
		ClientSecret string `json:"clientSecret"`
	}
	a.data(t, &rot)
	if rot.ClientSecret == "" || rot.ClientSecret == made.ClientSecret {
		t.Fatalf("rotated: %s", a.raw)
	}

	// The credentials file: partnerctl's format, the current secret, and
	// a signed call made with it succeeds.
	a = b.call(t, http.MethodGet, appPath+"/credentials", "")
	if a.status != http.StatusOK || a.header.Get("Content-Type") != "application/json" || a.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("credentials: %d %v %s", a.status, a.header, a.raw)
	}
	file := filepath.Join(t.TempDir(), "credentials.json")
	if err := os.WriteFile(file, a.raw, 0o600); err != nil {
		t.Fatal(err)
	}
	creds, err := sdk.LoadCredentials(file)
	if err != nil {
		t.Fatal(err)
	}
	got, err := creds.App(made.App.AppID)
	if err != nil {
		t.Fatal(err)
	}
	if creds.Environment != "sandbox" || creds.BaseURL != "https://console.example" || got.ClientID != made.App.ClientID ||
		got.ClientSecret != rot.ClientSecret || !slices.Equal(got.Scopes, []string{"catalog:read"}) {
		t.Fatalf("credentials file: %s", a.raw)
	}
	partner, err := sdk.New(sdk.Config{BaseURL: env.BaseURL, ClientID: got.ClientID, ClientSecret: got.ClientSecret, Now: env.Clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := partner.Do(ctx, http.MethodGet, "/open/v1/credentials", nil)
	if err != nil || resp.Status != http.StatusOK {
		t.Fatalf("signed call with the file's credentials: %v %+v", err, resp)
	}

	// Another account sees none of it.
	other, _ := signedUp(t, env, box, "ben@example.ph")
	for _, c := range []struct{ method, path, body string }{
		{http.MethodGet, appPath, ""}, {http.MethodPut, appPath, `{"name":"mine"}`}, {http.MethodDelete, appPath, ""},
		{http.MethodPost, appPath + "/rotate-secret", ""}, {http.MethodPost, appPath + "/deactivate", ""},
		{http.MethodGet, appPath + "/credentials", ""},
	} {
		wantStatus(t, "another account's app: "+c.method+" "+c.path, other.call(t, c.method, c.path, c.body), http.StatusNotFound, "APP_NOT_FOUND")
	}

	a = b.call(t, http.MethodPost, appPath+"/deactivate", "")
	wantStatus(t, "deactivate", a, http.StatusOK, "")
	var off consoleApp
	a.data(t, &off)
	if off.Active {
		t.Fatalf("deactivated: %s", a.raw)
	}
	wantStatus(t, "deactivate again", b.call(t, http.MethodPost, appPath+"/deactivate", ""), http.StatusOK, "")
	// Once the gateway's cached credentials lapse, the app is refused.
	env.Clock.Advance(time.Minute)
	resp, err = partner.Do(ctx, http.MethodGet, "/open/v1/credentials", nil)
	if err != nil || resp.Status != http.StatusForbidden {
		t.Fatalf("signed call of a deactivated app: %v %+v", err, resp)
	}

	// A seller's grant names the app: the deletion takes it along.
	if _, err := env.Auth.AuthorizeSeller(ctx, made.App.AppID, env.Creds.Sellers[0].SellerID, []string{"catalog:read"}, time.Hour, 24*time.Hour); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, "delete", b.call(t, http.MethodDelete, appPath, ""), http.StatusOK, "")
	wantStatus(t, "deleted", b.call(t, http.MethodGet, appPath, ""), http.StatusNotFound, "APP_NOT_FOUND")
	wantStatus(t, "deleted twice", b.call(t, http.MethodDelete, appPath, ""), http.StatusNotFound, "APP_NOT_FOUND")

	// Every change is audited, with the address it came from.
	entries, err := developer.NewEntStore(env.DB).AuditEntries(ctx, accountID)
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, e := range entries {
		if e.SubjectID == made.App.AppID {
			actions = append(actions, e.Action)
			if e.ClientIP == "" || e.UserID == "" {
				t.Fatalf("audit entry without its address or person: %+v", e)
			}
		}
	}
	// One moment on the test's clock: compare as sets.
	slices.Sort(actions)
	if want := []string{"app.created", "app.credentials_downloaded", "app.deactivated", "app.deleted", "app.secret_rotated", "app.updated"}; !slices.Equal(actions, want) {
		t.Fatalf("audit %v, want %v", actions, want)
	}

	// The account's limits: 5 sandbox apps by default; live apps need an
	// approved profile, then 3.
	for i := range 5 {
		wantStatus(t, "sandbox app", b.call(t, http.MethodPost, "/console/v1/apps", `{"name":"s`+string(rune('a'+i))+`","environment":"sandbox"}`),
			http.StatusCreated, "")
	}
	wantStatus(t, "sixth sandbox app", b.call(t, http.MethodPost, "/console/v1/apps", `{"name":"s6","environment":"sandbox"}`),
		http.StatusUnprocessableEntity, "SANDBOX_LIMIT_REACHED")
	wantStatus(t, "live app before approval", b.call(t, http.MethodPost, "/console/v1/apps", `{"name":"l","environment":"production"}`),
		http.StatusForbidden, "FORBIDDEN")
	wantStatus(t, "profile", b.call(t, http.MethodPost, "/console/v1/profile",
		`{"fullName":"Ana Cruz","dateOfBirth":"1990-01-31","idType":"passport","idNumber":"P123","address":{"line1":"1 Ayala Ave","city":"Makati","province":"Metro Manila","postalCode":"1226","country":"PH"}}`),
		http.StatusOK, "")
	if err := developer.NewEntStore(env.DB).ReviewProfile(ctx, accountID, developer.ProfileApproved, env.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		wantStatus(t, "live app", b.call(t, http.MethodPost, "/console/v1/apps", `{"name":"l`+string(rune('a'+i))+`","environment":"production"}`),
			http.StatusCreated, "")
	}
	wantStatus(t, "fourth live app", b.call(t, http.MethodPost, "/console/v1/apps", `{"name":"l4","environment":"production"}`),
		http.StatusUnprocessableEntity, "APP_LIMIT_REACHED")
	wantStatus(t, "delete the account with apps", b.call(t, http.MethodDelete, "/console/v1/account", ""),
		http.StatusConflict, "CANNOT_DELETE_ACCOUNT_WITH_APPS")

	// Sign-out clears the cookie and ends the session.
	stale := b.cookie
	a = b.call(t, http.MethodDelete, "/console/v1/session", "")
	wantStatus(t, "sign-out", a, http.StatusOK, "")
	if b.cookie != "" || !strings.Contains(a.header.Get("Set-Cookie"), "Max-Age=0") {
		t.Fatalf("sign-out left the cookie: %v", a.header)
	}
	b.cookie = stale
	wantStatus(t, "after sign-out", b.call(t, http.MethodGet, "/console/v1/session", ""), http.StatusUnauthorized, "UNAUTHORIZED")
}

// The console's rate limits: one account's calls across its sessions, the
// sign-in's attempts per email address and per client address.
func TestConsoleRateLimits(t *testing.T) {
	box := &consoleMail{}
	env := testenv.Start(t, testenv.Options{ConsoleMail: box, Mutate: func(c *gateway.Config) { c.ConsolePerMinute = 5 }})
	// Start on a minute's boundary so the fixed window holds the test.
	env.Clock.Set(env.Clock.Now().Truncate(time.Minute).Add(time.Minute))
	one, _ := signedUp(t, env, box, "ana@example.ph")
	two := &consolePerson{base: env.BaseURL}
	two.signIn(t, "ana@example.ph")
	// Each session's first call teaches the gateway its account.
	wantStatus(t, "session one", one.call(t, http.MethodGet, "/console/v1/session", ""), http.StatusOK, "")
	wantStatus(t, "session two", two.call(t, http.MethodGet, "/console/v1/session", ""), http.StatusOK, "")
	for i := range 5 {
		a := one.call(t, http.MethodGet, "/console/v1/apps", "")
		wantStatus(t, "within the account's limit", a, http.StatusOK, "")
		if got, want := a.header.Get(sdk.HeaderRateLimitRemaining), string(rune('0'+4-i)); got != want {
			t.Fatalf("call %d: X-RateLimit-Remaining %s, want %s", i, got, want)
		}
	}
	a := two.call(t, http.MethodGet, "/console/v1/apps", "")
	wantStatus(t, "the other session of the account", a, http.StatusTooManyRequests, "RATE_LIMITED")
	if a.header.Get(sdk.HeaderRetryAfter) == "" {
		t.Fatal("429 without Retry-After")
	}
	env.Clock.Advance(time.Minute)
	wantStatus(t, "next window", two.call(t, http.MethodGet, "/console/v1/apps", ""), http.StatusOK, "")

	// Sign-in attempts: 5 per email address, 10 per client address, in 15
	// minutes, whatever the answer.
	anon := &consolePerson{base: env.BaseURL}
	wrong := func(email string) consoleAnswer {
		return anon.call(t, http.MethodPost, "/console/v1/session", `{"email":"`+email+`","password":"wrong password!"}`)
	}
	for range 5 {
		wantStatus(t, "wrong password", wrong("carl@example.ph"), http.StatusUnauthorized, "UNAUTHORIZED")
	}
	wantStatus(t, "sixth attempt for the address", wrong(" CARL@example.ph"), http.StatusTooManyRequests, "RATE_LIMITED")
	for range 3 {
		wantStatus(t, "another address", wrong("nobody@example.ph"), http.StatusUnauthorized, "UNAUTHORIZED")
	}
	// The two sign-ins above counted too: 10 from this address.
	wantStatus(t, "eleventh attempt from the address", wrong("third@example.ph"), http.StatusTooManyRequests, "RATE_LIMITED")
}
