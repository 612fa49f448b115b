package openapi_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

// flowExamples are what the signed flow routes answer their examples.
var flowExamples = map[string]struct {
	status int
	code   string
}{
	"Authorize":    {http.StatusBadRequest, "VALIDATION_ERROR"},
	"ExchangeCode": {http.StatusBadRequest, "INVALID_AUTHORIZATION_CODE"},
	"RefreshToken": {http.StatusUnauthorized, "INVALID_REFRESH_TOKEN"},
	"Revoke":       {http.StatusNotFound, "NOT_FOUND"},
}

// noRedirects sends every request as is: a 302 is an answer to validate,
// not a page to fetch.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// checkConsentFlow walks the seller authorization flow on a platform of its
// own (its sign-ins stay within the per-address limit), validating each
// step's success answer: authorize, sign-in, code, consent, deny, token
// exchange, refresh and revoke.
func (c *checker) checkConsentFlow(t *testing.T) {
	fc := c.on(t, testenv.Start(t, testenv.Options{Unlimited: true}))
	ops := map[string]operation{}
	for _, op := range fc.operations() {
		ops[op.id] = op
	}
	app := fc.env.Client(t, "full", -1)
	redirect := fc.env.Creds.Apps["full"].RedirectURIs[0]
	logins := 0

	// authorize returns the session token of the consent page's link.
	authorize := func(t *testing.T) string {
		q := url.Values{"client_id": {app.ClientID()}, "redirect_uri": {redirect}, "state": {"st-1"}}
		a := fc.do(t, ops["Authorize"], app, sdk.Request{Method: "GET", Path: "/open/v1/auth/authorize", RawQuery: q.Encode()}, true)
		expect(t, "authorize with a registered redirect URI", a, http.StatusFound, "")
		u, err := url.Parse(a.header.Get("Location"))
		if err != nil || !u.IsAbs() {
			t.Fatalf("Location %q", a.header.Get("Location"))
		}
		return u.Query().Get("session")
	}
	post := func(t *testing.T, id, cookie string, body any) answer {
		b, _ := json.Marshal(body)
		req := sdk.Request{Method: "POST", Path: ops[id].path, Body: b}
		if cookie != "" {
			req.ExtraHeaders = http.Header{"Cookie": {cookie}}
		}
		a := fc.do(t, ops[id], nil, req, true)
		expect(t, id+" in a live session", a, http.StatusOK, "")
		return a
	}
	// signIn signs a test shop in (alternating, within the per-username
	// limit) and returns the session cookie.
	signIn := func(t *testing.T) (cookie, otp string) {
		logins++
		l := fc.env.Creds.Sellers[logins%len(fc.env.Creds.Sellers)].Login
		a := post(t, "VerifySeller", "", map[string]string{"session": authorize(t), "username": l.Username, "password": l.Password})
		for _, ck := range (&http.Response{Header: a.header}).Cookies() {
			return ck.Name + "=" + ck.Value, l.OTP
		}
		t.Fatal("sign-in set no cookie")
		return "", ""
	}
	verified := func(t *testing.T) string {
		cookie, otp := signIn(t)
		post(t, "VerifySellerOtp", cookie, map[string]string{"code": otp})
		return cookie
	}
	code := func(t *testing.T) string {
		a := post(t, "Consent", verified(t), map[string]any{})
		var out struct {
			Data struct {
				RedirectURL string `json:"redirect_url"`
			} `json:"data"`
		}
		if err := json.Unmarshal(a.body, &out); err != nil || !strings.HasPrefix(out.Data.RedirectURL, redirect+"?") {
			t.Fatalf("consent: %v %s", err, a.body)
		}
		u, _ := url.Parse(out.Data.RedirectURL)
		return u.Query().Get("code")
	}
	exchange := func(t *testing.T) (refresh, seller string) {
		b, _ := json.Marshal(map[string]string{"code": code(t), "redirect_uri": redirect})
		a := fc.do(t, ops["ExchangeCode"], app, sdk.Request{Method: "POST", Path: ops["ExchangeCode"].path, Body: b}, true)
		expect(t, "a code just issued", a, http.StatusOK, "")
		var out struct {
			Data struct {
				RefreshToken string `json:"refresh_token"`
				SellerID     string `json:"seller_id"`
			} `json:"data"`
		}
		if err := json.Unmarshal(a.body, &out); err != nil {
			t.Fatal(err)
		}
		return out.Data.RefreshToken, out.Data.SellerID
	}

	refresh, _ := exchange(t)
	b, _ := json.Marshal(map[string]string{"refresh_token": refresh})
	a := fc.do(t, ops["RefreshToken"], app, sdk.Request{Method: "POST", Path: ops["RefreshToken"].path, Body: b}, true)
	expect(t, "a current refresh token", a, http.StatusOK, "")
	a = fc.do(t, ops["RefreshToken"], app, sdk.Request{Method: "POST", Path: ops["RefreshToken"].path, Body: b}, true)
	expect(t, "a refresh token used before", a, http.StatusUnauthorized, "REFRESH_TOKEN_REUSED")
	// The reuse revoked that grant: a new one to revoke.
	_, seller := exchange(t)
	b, _ = json.Marshal(map[string]string{"seller_id": seller})
	a = fc.do(t, ops["Revoke"], app, sdk.Request{Method: "POST", Path: ops["Revoke"].path, Body: b}, true)
	expect(t, "a seller the app holds a grant of", a, http.StatusOK, "")
	cookie, _ := signIn(t)
	post(t, "Deny", cookie, map[string]any{})
}
