package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

// A partner onboards a test shop with the consent flow from the command
// line: authorize, sign-in, code, consent, token exchange; the tokens it
// saves make seller calls, and after a revoke the seller's data is NOT_FOUND.
func TestAuthorizeOnboardsASeller(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	path := filepath.Join(t.TempDir(), "credentials.json")
	if err := env.Creds.Save(path); err != nil {
		t.Fatal(err)
	}
	before := env.Creds.Sellers[1].Tokens["limited"]
	var out, errOut bytes.Buffer
	if code := run([]string{"--credentials", path, "--app", "limited", "--seller", "1", "authorize", "--login", "--save"},
		nil, &out, &errOut); code != exitOK {
		t.Fatalf("authorize: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	var issued issuedTokens
	if err := json.Unmarshal(out.Bytes(), &issued); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	seller := env.Creds.Sellers[1].SellerID
	if issued.SellerID != seller || issued.TokenType != "Bearer" || issued.ExpiresIn != 4*3600 ||
		issued.RefreshTokenExpiresIn != 30*24*3600 || len(issued.Scopes) != 2 {
		t.Fatalf("issued %+v", issued)
	}
	saved, err := sdk.LoadCredentials(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := saved.Sellers[1].Tokens["limited"]; got.AccessToken != issued.AccessToken || got == before {
		t.Fatalf("saved %+v", got)
	}
	c, err := saved.Client("limited", 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r, err := c.Do(ctx, "GET", "/open/v1/orders?limit=1", nil)
	if err != nil || r.Status != 200 {
		t.Fatalf("a call with the new token: %v %v", err, r)
	}
	app, err := saved.Client("limited", -1)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := app.Do(ctx, "POST", "/open/v1/auth/revoke", []byte(`{"seller_id":"`+seller+`"}`)); err != nil || r.Status != 200 {
		t.Fatalf("revoke: %v %v", err, r)
	}
	r, err = c.Do(ctx, "GET", "/open/v1/orders?limit=1", nil)
	if err != nil || r.Status != 404 {
		t.Fatalf("a call after the revoke: %v %v", err, r)
	}
}
