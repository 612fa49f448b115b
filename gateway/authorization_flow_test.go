package gateway_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

// TestSellerAuthorizationFlow runs the flow through the gateway and core as
// a partner and a seller's browser do: authorize (302 to the consent page on
// this host), sign-in (the session cookie), one-time code, consent, then the
// code's exchange, a seller call with the token, refresh and revoke; and a
// second authorization the seller denies, with the app's signature on deny.
// Neither tier logs a password, code, session or token of it, at any level.
func TestSellerAuthorizationFlow(t *testing.T) {
	coreCore, coreLogs := observer.New(zap.DebugLevel)
	gwCore, gwLogs := observer.New(zap.DebugLevel)
	env := testenv.Start(t, testenv.Options{CoreLogger: zap.New(coreCore),
		Mutate: func(c *gateway.Config) { c.Logger = zap.New(gwCore) }})
	var secrets []string
	defer func() {
		for _, entry := range append(coreLogs.All(), gwLogs.All()...) {
			line := fmt.Sprint(entry.Message, entry.ContextMap())
			for _, s := range secrets {
				if s != "" && strings.Contains(line, s) {
					t.Errorf("a log line holds a secret of the flow: %s", line)
				}
			}
		}
		if len(coreLogs.All())+len(gwLogs.All()) == 0 {
			t.Error("no log line to check: the loggers are not the tiers'")
		}
	}()
	app := env.Creds.Apps["full"]
	partner := env.Client(t, "full", -1)
	seller := env.Creds.Sellers[0]
	if seller.Login == nil || len(app.RedirectURIs) == 0 {
		t.Fatal("the sandbox has no consent-page login or redirect URI")
	}
	redirectURI := app.RedirectURIs[0]
	verifier := strings.Repeat("v", 43)
	sum := sha256.Sum256([]byte(verifier))

	// start authorizes and signs the seller in up to the consent step; it
	// returns the session cookie.
	start := func(state string) *http.Cookie {
		t.Helper()
		q := url.Values{"client_id": {app.ClientID}, "redirect_uri": {redirectURI}, "state": {state},
			"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"}}
		r := send(t, partner, sdk.Request{Method: "GET", Path: "/open/v1/auth/authorize", RawQuery: q.Encode()})
		if r.Status != http.StatusFound {
			t.Fatalf("authorize: %d %s", r.Status, r.Body)
		}
		loc, err := url.Parse(r.Header.Get("Location"))
		if err != nil || loc.Scheme+"://"+loc.Host != env.BaseURL || loc.Path != "/open/v1/auth/consent" || loc.Query().Get("session") == "" {
			t.Fatalf("Location %q is not the consent page on this host", r.Header.Get("Location"))
		}
		secrets = append(secrets, loc.Query().Get("session"), seller.Login.Password, seller.Login.OTP)
		body, _ := json.Marshal(map[string]string{"session": loc.Query().Get("session"), "username": seller.Login.Username, "password": seller.Login.Password})
		r = browser(t, env, "/open/v1/auth/seller-verify", string(body), http.Header{"Sec-Fetch-Site": {"same-origin"}})
		if r.Status != 200 || strings.Contains(string(r.Body), "session_cookie") {
			t.Fatalf("seller-verify: %d %s", r.Status, r.Body)
		}
		cookies := (&http.Response{Header: r.Header}).Cookies()
		if len(cookies) != 1 || cookies[0].Name != gateway.ConsentCookie || !cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteStrictMode {
			t.Fatalf("seller-verify's cookies: %v", r.Header.Values("Set-Cookie"))
		}
		session := http.Header{"Cookie": {gateway.ConsentCookie + "=" + cookies[0].Value}, "Sec-Fetch-Site": {"same-origin"}}
		if r := browser(t, env, "/open/v1/auth/seller-verify-otp", `{"code":"`+seller.Login.OTP+`"}`, session); r.Status != 200 {
			t.Fatalf("seller-verify-otp: %d %s", r.Status, r.Body)
		}
		secrets = append(secrets, cookies[0].Value)
		return cookies[0]
	}
	redirectOf := func(r *sdk.Response) url.Values {
		t.Helper()
		var out struct {
			Data struct {
				RedirectURL string `json:"redirect_url"`
			} `json:"data"`
		}
		if r.Status != 200 || json.Unmarshal(r.Body, &out) != nil || !strings.HasPrefix(out.Data.RedirectURL, redirectURI+"?") {
			t.Fatalf("redirect: %d %s", r.Status, r.Body)
		}
		u, _ := url.Parse(out.Data.RedirectURL)
		return u.Query()
	}

	// Consent from the browser, empty body.
	c := start("s-consent")
	q := redirectOf(browser(t, env, "/open/v1/auth/seller-consent", "", withCookie(c.Value)))
	if q.Get("state") != "s-consent" || q.Get("code") == "" {
		t.Fatalf("consent's redirect: %v", q)
	}
	body, _ := json.Marshal(map[string]string{"code": q.Get("code"), "redirect_uri": redirectURI, "code_verifier": verifier})
	r := send(t, partner, sdk.Request{Method: "POST", Path: "/open/v1/auth/token", Body: body})
	var tokens struct {
		Data struct {
			AccessToken  string `json:"access_token"`
			RefreshToken string `json:"refresh_token"`
			SellerID     string `json:"seller_id"`
		} `json:"data"`
	}
	if r.Status != 200 || json.Unmarshal(r.Body, &tokens) != nil || tokens.Data.SellerID != seller.SellerID {
		t.Fatalf("token: %d %s", r.Status, r.Body)
	}
	secrets = append(secrets, q.Get("code"), tokens.Data.AccessToken, tokens.Data.RefreshToken)
	if r := send(t, partner.WithSeller(seller.SellerID, tokens.Data.AccessToken), sdk.Request{Method: "GET", Path: "/open/v1/orders"}); r.Status != 200 {
		t.Errorf("orders with the new token: %d %s", r.Status, r.Body)
	}
	body, _ = json.Marshal(map[string]string{"refresh_token": tokens.Data.RefreshToken})
	if r := send(t, partner, sdk.Request{Method: "POST", Path: "/open/v1/auth/token/refresh", Body: body}); r.Status != 200 {
		t.Errorf("refresh: %d %s", r.Status, r.Body)
	}
	// The session ended with consent: its cookie is spent.
	expectError(t, browser(t, env, "/open/v1/auth/deny", "", withCookie(c.Value)), 401, "SESSION_EXPIRED")

	// Deny, signed by the app as well.
	c = start("s-deny")
	q = redirectOf(send(t, partner, sdk.Request{Method: "POST", Path: "/open/v1/auth/deny", Body: []byte(`{}`), ExtraHeaders: withCookie(c.Value)}))
	if q.Get("error") != "access_denied" || q.Get("state") != "s-deny" {
		t.Errorf("deny's redirect: %v", q)
	}

	body, _ = json.Marshal(map[string]string{"seller_id": seller.SellerID})
	if r := send(t, partner, sdk.Request{Method: "POST", Path: "/open/v1/auth/revoke", Body: body}); r.Status != 200 {
		t.Errorf("revoke: %d %s", r.Status, r.Body)
	}
}

// TestSignInLimitsWithCore: against core's real sign-in, a seller's username
// and a username nobody has are limited alike (5 attempts each, whatever
// core answered), and the sixth is refused before core even with the right
// password.
func TestSignInLimitsWithCore(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	app := env.Creds.Apps["full"]
	seller := env.Creds.Sellers[0]
	q := url.Values{"client_id": {app.ClientID}, "redirect_uri": {app.RedirectURIs[0]}}
	r := send(t, env.Client(t, "full", -1), sdk.Request{Method: "GET", Path: "/open/v1/auth/authorize", RawQuery: q.Encode()})
	loc, err := url.Parse(r.Header.Get("Location"))
	if r.Status != http.StatusFound || err != nil {
		t.Fatalf("authorize: %d %s", r.Status, r.Body)
	}
	session := loc.Query().Get("session")
	signIn := func(username, password string) *sdk.Response {
		b, _ := json.Marshal(map[string]string{"session": session, "username": username, "password": password})
		return browser(t, env, "/open/v1/auth/seller-verify", string(b), nil)
	}
	for _, username := range []string{seller.Login.Username, "nobody.here"} {
		for i := range 5 {
			if r := signIn(username, "wrong password"); r.Status == http.StatusTooManyRequests || r.Status < 400 {
				t.Fatalf("%s attempt %d: %d %s, want core's refusal", username, i+1, r.Status, r.Body)
			}
		}
		expectError(t, signIn(username, seller.Login.Password), 429, "RATE_LIMITED")
	}
}

// Authorize's own refusals through the gateway: a state over 1,024
// characters, a redirect URI not registered exactly, another app's client
// id. A state of exactly 1,024 characters comes back unchanged.
func TestAuthorizeRefusals(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	app := env.Creds.Apps["full"]
	partner := env.Client(t, "full", -1)
	authorize := func(clientID, redirectURI, state string) *sdk.Response {
		q := url.Values{"client_id": {clientID}, "redirect_uri": {redirectURI}, "state": {state}}
		return send(t, partner, sdk.Request{Method: "GET", Path: "/open/v1/auth/authorize", RawQuery: q.Encode()})
	}
	expectError(t, authorize(app.ClientID, app.RedirectURIs[0], strings.Repeat("s", 1025)), 400, "VALIDATION_ERROR")
	expectError(t, authorize(app.ClientID, app.RedirectURIs[0]+"/other", "s"), 400, "REDIRECT_URL_MISMATCH")
	expectError(t, authorize(app.ClientID, "https://evil.example/cb", "s"), 400, "REDIRECT_URL_MISMATCH")
	expectError(t, authorize(env.Creds.Apps["limited"].ClientID, app.RedirectURIs[0], "s"), 400, "VALIDATION_ERROR")
	if r := authorize(app.ClientID, app.RedirectURIs[0], strings.Repeat("s", 1024)); r.Status != 302 {
		t.Fatalf("a state of 1,024 characters: %d %s", r.Status, r.Body)
	}
}
