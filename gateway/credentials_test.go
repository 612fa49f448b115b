package gateway_test

import (
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/auth"
)

// During a rotation both secrets verify until the previous one expires;
// an inactive app is FORBIDDEN. Gateways see changes within the credential
// cache TTL.
func TestSecretRotationAndDeactivation(t *testing.T) {
	env := testenv.Start(t, testenv.Options{Mutate: func(c *gateway.Config) { c.CredentialTTL = time.Second }})
	old := env.Client(t, "full", -1)
	creds, err := env.Auth.AppCredentials(ctx, env.Creds.Apps["full"].ClientID)
	if err != nil {
		t.Fatal(err)
	}
	appID := creds.App.ID
	usage := sdk.Request{Method: "GET", Path: "/open/v1/usage"}
	if r := send(t, old, usage); r.Status != 200 {
		t.Fatalf("before rotation: %d %s", r.Status, r.Body)
	}

	secret, _, err := env.Auth.RotateSecret(ctx, appID, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	env.Clock.Advance(2 * time.Second)
	rotated, err := sdk.New(sdk.Config{BaseURL: env.BaseURL, ClientID: env.Creds.Apps["full"].ClientID, ClientSecret: secret, Now: env.Clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*sdk.Client{"previous secret": old, "new secret": rotated} {
		if r := send(t, c, usage); r.Status != 200 {
			t.Fatalf("%s during the grace period: %d %s", name, r.Status, r.Body)
		}
	}

	env.Clock.Advance(time.Hour)
	expectError(t, send(t, old, usage), 401, "INVALID_SIGNATURE")
	if r := send(t, rotated, usage); r.Status != 200 {
		t.Fatalf("new secret after the grace period: %d %s", r.Status, r.Body)
	}

	if err := env.Auth.SetAppActive(ctx, appID, false); err != nil {
		t.Fatal(err)
	}
	env.Clock.Advance(2 * time.Second)
	expectError(t, send(t, rotated, usage), 403, "FORBIDDEN")
}

// An enterprise app's own ceiling replaces the per-app default.
func TestPerAppRateOverride(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	full, err := env.Auth.AppCredentials(ctx, env.Creds.Apps["full"].ClientID)
	if err != nil {
		t.Fatal(err)
	}
	three := 3
	app, err := env.Auth.CreateApp(ctx, auth.NewApp{AccountID: full.App.AccountID, Name: "Enterprise OMS", Environment: auth.EnvSandbox, RateLimitPerMinute: &three})
	if err != nil {
		t.Fatal(err)
	}
	c, err := sdk.New(sdk.Config{BaseURL: env.BaseURL, ClientID: app.App.ClientID, ClientSecret: app.ClientSecret, Now: env.Clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	usage := sdk.Request{Method: "GET", Path: "/open/v1/usage"}
	for i := 0; i < 3; i++ {
		if r := send(t, c, usage); r.Status != 200 || r.Header.Get("X-RateLimit-Limit") != "3" {
			t.Fatalf("request %d: %d limit %q", i, r.Status, r.Header.Get("X-RateLimit-Limit"))
		}
	}
	expectError(t, send(t, c, usage), 429, "RATE_LIMITED")
}
