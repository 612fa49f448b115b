package auth_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/auth"
)

func newService(t *testing.T, d *db.DB, clk clock.Clock) *auth.Service {
	t.Helper()
	sealer, err := auth.NewSealer(auth.NewKey())
	if err != nil {
		t.Fatal(err)
	}
	svc, err := auth.NewService(auth.Config{Store: auth.NewEntStore(d.Ent), Sealer: sealer, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func TestSealerBindsCiphertextToItsRow(t *testing.T) {
	s, err := auth.NewSealer(auth.NewKey())
	if err != nil {
		t.Fatal(err)
	}
	ct, err := s.Seal([]byte("secret"), []byte("app_1"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(ct), "secret") {
		t.Fatal("ciphertext contains the plaintext")
	}
	if pt, err := s.Open(ct, []byte("app_1")); err != nil || string(pt) != "secret" {
		t.Fatalf("open: %q %v", pt, err)
	}
	if _, err := s.Open(ct, []byte("app_2")); err == nil {
		t.Fatal("a ciphertext copied to another app decrypted")
	}
	other, _ := auth.NewSealer(auth.NewKey())
	if _, err := other.Open(ct, []byte("app_1")); err == nil {
		t.Fatal("another key decrypted the secret")
	}
	if _, err := auth.NewSealer("c2hvcnQ="); err == nil {
		t.Fatal("a short key was accepted")
	}
}

func TestProvisioningAndSellerTokens(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		clk := clock.NewManual(time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC))
		svc := newService(t, d, clk)
		acct, err := svc.CreateAccount(ctx, auth.NewAccount{Name: "Acme", Email: "Dev@Acme.PH"})
		if err != nil || acct.Email != "dev@acme.ph" {
			t.Fatalf("account: %+v %v", acct, err)
		}
		live, err := svc.CreateApp(ctx, auth.NewApp{AccountID: acct.ID, Name: "OMS", Environment: auth.EnvProduction, Scopes: []string{"orders:read"}})
		if err != nil || !strings.HasPrefix(live.App.ClientID, "live_") {
			t.Fatalf("live app: %+v %v", live, err)
		}
		app, err := svc.CreateApp(ctx, auth.NewApp{AccountID: acct.ID, Name: "OMS test", Environment: auth.EnvSandbox, Scopes: []string{"orders:read"}})
		if err != nil || !strings.HasPrefix(app.App.ClientID, "test_") {
			t.Fatalf("sandbox app: %+v %v", app, err)
		}
		if _, err := svc.CreateApp(ctx, auth.NewApp{AccountID: acct.ID, Name: "x", Environment: auth.EnvSandbox, Scopes: []string{"payouts:read"}}); apierr.CodeOf(err) != apierr.ValidationError {
			t.Fatalf("unknown scope accepted: %v", err)
		}
		creds, err := svc.AppCredentials(ctx, app.App.ClientID)
		if err != nil || len(creds.Secrets) != 1 || string(creds.Secrets[0].Value) != app.ClientSecret || creds.AppRatePerMinute != 0 {
			t.Fatalf("credentials: %+v %v", creds, err)
		}
		if _, err := svc.AppCredentials(ctx, "test_nobody"); apierr.CodeOf(err) != apierr.NotFound {
			t.Fatalf("unknown client id: %v", err)
		}

		shopA, _ := svc.CreateTestShop(ctx, "A", "Shop A")
		shopB, _ := svc.CreateTestShop(ctx, "B", "Shop B")
		tok, err := svc.AuthorizeSeller(ctx, app.App.ID, shopA.ID, []string{"orders:read"}, time.Hour, 24*time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if granted, err := svc.VerifySellerToken(ctx, app.App.ID, shopA.ID, tok.AccessToken); err != nil || !slices.Equal(granted, []string{"orders:read"}) {
			t.Fatalf("valid token: %v %v, want the granted scopes", granted, err)
		}
		for name, c := range map[string]struct{ app, seller, token string }{
			"other app":     {live.App.ID, shopA.ID, tok.AccessToken},
			"other seller":  {app.App.ID, shopB.ID, tok.AccessToken},
			"refresh token": {app.App.ID, shopA.ID, tok.RefreshToken},
			"made up":       {app.App.ID, shopA.ID, "mpat_" + strings.Repeat("x", 40)},
		} {
			if _, err := svc.VerifySellerToken(ctx, c.app, c.seller, c.token); apierr.CodeOf(err) != apierr.NotFound {
				t.Errorf("%s: %v, want NOT_FOUND", name, err)
			}
		}
		clk.Advance(time.Hour)
		if _, err := svc.VerifySellerToken(ctx, app.App.ID, shopA.ID, tok.AccessToken); apierr.CodeOf(err) != apierr.NotFound {
			t.Fatalf("expired token: %v", err)
		}

		// Rotation keeps the previous secret until the grace ends.
		secret, _, err := svc.RotateSecret(ctx, app.App.ID, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		creds, _ = svc.AppCredentials(ctx, app.App.ClientID)
		if len(creds.Secrets) != 2 || string(creds.Secrets[0].Value) != secret || string(creds.Secrets[1].Value) != app.ClientSecret {
			t.Fatalf("during rotation: %+v", creds.Secrets)
		}
		clk.Advance(time.Minute)
		if creds, _ = svc.AppCredentials(ctx, app.App.ClientID); len(creds.Secrets) != 1 {
			t.Fatalf("after the grace: %d secrets", len(creds.Secrets))
		}
	})
}
