package consent_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/mallplatform/partnerapi/internal/browsertest"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/auth"
)

// partner is a sandbox app of its own, registered with a redirect URI on
// this machine, and a test shop with a consent-page login whose one-time
// code is the sandbox's fixed one.
type partner struct {
	env         *testenv.Env
	client      *sdk.Client
	redirectURI string
	app         *appReceiver
	sellerID    string
}

const (
	flowUser     = "santos.home"
	flowPassword = "Kalamansi-Juice-2026"
	flowOTP      = "246810"
)

func startPartner(t *testing.T) *partner {
	t.Helper()
	env := testenv.Start(t, testenv.Options{})
	ctx := context.Background()
	app := &appReceiver{}
	recv := httptest.NewServer(app)
	t.Cleanup(recv.Close)
	redirectURI := recv.URL + "/oauth/callback"

	acc, err := env.Auth.CreateAccount(ctx, auth.NewAccount{Name: "Acme Integrations", Email: "dev@acme.example"})
	if err != nil {
		t.Fatal(err)
	}
	created, err := env.Auth.CreateApp(ctx, auth.NewApp{AccountID: acc.ID, Name: "Acme OMS", Environment: auth.EnvSandbox,
		Scopes: []string{"catalog:read", "catalog:write", "orders:read", "orders:write", "customer:email:read"}, RedirectURIs: []string{redirectURI}})
	if err != nil {
		t.Fatal(err)
	}
	shop, err := env.Auth.CreateTestShop(ctx, "Maria Santos", "Santos Home & Living")
	if err != nil {
		t.Fatal(err)
	}
	if err := env.Auth.CreateSellerLogin(ctx, auth.NewSellerLogin{SellerID: shop.ID, Username: flowUser, Password: flowPassword,
		Destination: "+639171234567", FixedOTP: flowOTP}, true); err != nil {
		t.Fatal(err)
	}
	c, err := sdk.New(sdk.Config{BaseURL: env.BaseURL, ClientID: created.App.ClientID, ClientSecret: created.ClientSecret, Now: env.Clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	return &partner{env: env, client: c, redirectURI: redirectURI, app: app, sellerID: shop.ID}
}

// authorize is the partner's backend starting the flow: the answer is a
// 302 to the consent page on the platform's own host.
func (p *partner) authorize(t *testing.T, state string) string {
	t.Helper()
	q := url.Values{"client_id": {p.client.ClientID()}, "redirect_uri": {p.redirectURI}, "state": {state}}
	r, err := p.client.Do(context.Background(), http.MethodGet, "/open/v1/auth/authorize?"+q.Encode(), nil)
	if err != nil {
		t.Fatal(err)
	}
	loc := r.Header.Get("Location")
	if r.Status != http.StatusFound || !strings.HasPrefix(loc, p.env.BaseURL+"/open/v1/auth/consent?session=") {
		t.Fatalf("authorize: %d Location %q %s", r.Status, loc, r.Body)
	}
	return loc
}

func signInWithCode(t *testing.T, b *browsertest.Browser, location string) {
	t.Helper()
	b.Do(t, chromedp.Navigate(location), chromedp.WaitEnabled(chromedp.CSS("#signin button")))
	if got := b.Text(t, "h1"); got != "Acme OMS wants to use your shop" {
		t.Fatalf("heading %q", got)
	}
	b.Do(t,
		chromedp.SendKeys(chromedp.CSS("#username"), flowUser),
		chromedp.SendKeys(chromedp.CSS("#password"), flowPassword),
		chromedp.Click(chromedp.CSS("#signin button")))
	b.WaitText(t, "#code-sent", "+63 9")
	b.Do(t, chromedp.SendKeys(chromedp.CSS("#code"), flowOTP), chromedp.Click(chromedp.CSS("#code-form button")))
	b.WaitText(t, "#step-consent legend", "Acme OMS asks to:")
}

// TestConsentFlowInBrowser: authorize → the consent page in Debian's
// chromium → sign-in → one-time code → consent (all but the buyers'
// e-mail) → the app's redirect URI with a code and the state → the code
// exchanged for tokens → a signed seller call with the new token.
func TestConsentFlowInBrowser(t *testing.T) {
	p := startPartner(t)
	b := browsertest.New(t)
	location := p.authorize(t, "st-allow 1")
	signInWithCode(t, b, location)
	b.Do(t, chromedp.Click(chromedp.CSS(`input[value="customer:email:read"]`)), chromedp.Click(chromedp.CSS("#consent-form button[type=submit]")))
	b.Do(t, chromedp.WaitVisible(chromedp.CSS("body > p")))
	got := p.app.last()
	if got.Get("state") != "st-allow 1" || got.Get("code") == "" || got.Has("error") {
		t.Fatalf("the app received %v", got)
	}
	b.CheckConsole(t)

	var tokens struct {
		AccessToken  string   `json:"access_token"`
		RefreshToken string   `json:"refresh_token"`
		TokenType    string   `json:"token_type"`
		SellerID     string   `json:"seller_id"`
		Scopes       []string `json:"scopes"`
	}
	if r, err := p.client.Call(context.Background(), http.MethodPost, "/open/v1/auth/token",
		map[string]string{"code": got.Get("code"), "redirect_uri": p.redirectURI}, &tokens); err != nil {
		t.Fatalf("token exchange: %v %s", err, r.Body)
	}
	if tokens.SellerID != p.sellerID || tokens.AccessToken == "" || tokens.RefreshToken == "" || tokens.TokenType != "Bearer" ||
		strings.Join(tokens.Scopes, " ") != "catalog:read catalog:write orders:read orders:write" {
		t.Fatalf("tokens %+v", tokens)
	}
	seller := p.client.WithSeller(tokens.SellerID, tokens.AccessToken)
	var products []json.RawMessage
	if r, err := seller.Call(context.Background(), http.MethodGet, "/open/v1/products?limit=5", nil, &products); err != nil {
		t.Fatalf("a signed seller call with the new token: %v %s", err, r.Body)
	}

	// The link worked once: the consent ended the session.
	b.Do(t, chromedp.Navigate(location))
	if got := b.Text(t, "h1"); got != "This link has expired" {
		t.Errorf("the used link shows %q", got)
	}
}

// TestConsentFlowInBrowserDeny: the seller denies; the app's redirect URI
// receives error=access_denied and the state, and no code.
func TestConsentFlowInBrowserDeny(t *testing.T) {
	p := startPartner(t)
	b := browsertest.New(t)
	location := p.authorize(t, "st-deny 2")
	signInWithCode(t, b, location)
	b.Do(t, chromedp.Click(chromedp.CSS("#deny")), chromedp.WaitVisible(chromedp.CSS("body > p")))
	got := p.app.last()
	if got.Get("error") != "access_denied" || got.Get("state") != "st-deny 2" || got.Has("code") {
		t.Fatalf("the app received %v", got)
	}
	b.CheckConsole(t)

	// The session ended: the same link now shows the expired page.
	b.Do(t, chromedp.Navigate(location))
	if got := b.Text(t, "h1"); got != "This link has expired" {
		t.Errorf("the used link shows %q", got)
	}
}
