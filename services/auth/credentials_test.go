package auth_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/auth"
)

// newApp creates a sandbox app on a fresh account.
func newApp(t *testing.T, svc *auth.Service) *auth.CreatedApp {
	t.Helper()
	ctx := context.Background()
	acct, err := svc.CreateAccount(ctx, auth.NewAccount{Name: "Acme", Email: "dev@acme.ph"})
	if err != nil {
		t.Fatal(err)
	}
	app, err := svc.CreateApp(ctx, auth.NewApp{AccountID: acct.ID, Name: "OMS test", Environment: auth.EnvSandbox, Scopes: []string{"orders:read"}})
	if err != nil {
		t.Fatal(err)
	}
	return app
}

// appRow is every column of the app's row as the database returns it.
func appRow(t *testing.T, d *db.DB, appID string) map[string]any {
	t.Helper()
	// The id is the platform's own (letters, digits, _), not input.
	rows := dbtest.Query(t, d.SQL, fmt.Sprintf("SELECT * FROM apps WHERE id = '%s'", appID))
	if len(rows) != 1 {
		t.Fatalf("%d rows for %s", len(rows), appID)
	}
	return rows[0]
}

// inClear reports the columns of row that hold any of secrets in clear.
func inClear(row map[string]any, secrets ...string) []string {
	var found []string
	for col, v := range row {
		for _, s := range secrets {
			if s != "" && strings.Contains(dbtest.Text(v), s) {
				found = append(found, col)
			}
		}
	}
	return found
}

// A partner's rotation: sealed at rest (neither secret in clear in any
// column), the issue time recorded, the previous secret verifying for the
// configured overlap, and a second rotation ending the oldest secret.
func TestRotateClientSecret(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		created := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
		clk := clock.NewManual(created)
		svc := newService(t, d, clk)
		app := newApp(t, svc)
		if cols := inClear(appRow(t, d, app.App.ID), app.ClientSecret); len(cols) > 0 {
			t.Fatalf("the secret is in clear in %v", cols)
		}
		v, err := svc.Credentials(ctx, app.App.ClientID)
		if err != nil || !v.SecretCreatedAt.Equal(created) || v.PreviousExpiresAt != nil || v.ClientID != app.App.ClientID || v.Environment != auth.EnvSandbox {
			t.Fatalf("new app: %+v %v", v, err)
		}

		clk.Advance(time.Hour)
		rotatedAt := clk.Now()
		s1, expires, err := svc.RotateClientSecret(ctx, app.App.ID)
		if err != nil || s1 == app.ClientSecret || !expires.Equal(rotatedAt.Add(auth.DefaultRotationOverlap)) {
			t.Fatalf("rotate: %v %v, want expiry %v", expires, err, rotatedAt.Add(auth.DefaultRotationOverlap))
		}
		if cols := inClear(appRow(t, d, app.App.ID), app.ClientSecret, s1); len(cols) > 0 {
			t.Fatalf("a secret is in clear in %v after rotation", cols)
		}
		v, _ = svc.Credentials(ctx, app.App.ClientID)
		if !v.SecretCreatedAt.Equal(rotatedAt) || v.PreviousExpiresAt == nil || !v.PreviousExpiresAt.Equal(expires) {
			t.Fatalf("after rotation: %+v", v)
		}
		secrets := func() []string {
			c, err := svc.AppCredentials(ctx, app.App.ClientID)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, s := range c.Secrets {
				out = append(out, string(s.Value))
			}
			return out
		}
		if got := secrets(); len(got) != 2 || got[0] != s1 || got[1] != app.ClientSecret {
			t.Fatalf("secrets during the overlap: %d, want the new and the old", len(got))
		}

		clk.Advance(time.Hour)
		s2, _, err := svc.RotateClientSecret(ctx, app.App.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got := secrets(); len(got) != 2 || got[0] != s2 || got[1] != s1 {
			t.Fatal("after a second rotation inside the overlap the secrets are not exactly the newest two")
		}

		clk.Advance(auth.DefaultRotationOverlap)
		if got := secrets(); len(got) != 1 || got[0] != s2 {
			t.Fatal("after the overlap the previous secret still verifies")
		}
		if v, _ = svc.Credentials(ctx, app.App.ClientID); v.PreviousExpiresAt != nil {
			t.Fatalf("previous_secret_expires_at after the overlap: %v", v.PreviousExpiresAt)
		}
	})
}

// An app from before the secret's issue time was kept reports its creation
// time instead.
func TestSecretCreatedAtFallsBackToCreation(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		created := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
		clk := clock.NewManual(created)
		svc := newService(t, d, clk)
		app := newApp(t, svc)
		if err := d.Ent.App.UpdateOneID(app.App.ID).ClearSecretCreatedAt().Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		clk.Advance(time.Hour)
		v, err := svc.Credentials(context.Background(), app.App.ClientID)
		if err != nil || !v.SecretCreatedAt.Equal(created) {
			t.Fatalf("%+v %v, want secret_created_at %v", v, err, created)
		}
	})
}

// Two rotations at once each keep the other's secret: the app ends with
// exactly the two new secrets, whichever committed last being current.
func TestConcurrentRotationsLoseNoSecret(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		svc := newService(t, d, clock.NewManual(time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)))
		app := newApp(t, svc)
		for round := range 5 {
			var wg sync.WaitGroup
			issued := make([]string, 2)
			for i := range issued {
				wg.Add(1)
				go func() {
					defer wg.Done()
					s, _, err := svc.RotateClientSecret(ctx, app.App.ID)
					if err != nil {
						t.Error(err)
					}
					issued[i] = s
				}()
			}
			wg.Wait()
			c, err := svc.AppCredentials(ctx, app.App.ClientID)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Secrets) != 2 {
				t.Fatalf("round %d: %d secrets verify, want 2", round, len(c.Secrets))
			}
			a, b := string(c.Secrets[0].Value), string(c.Secrets[1].Value)
			if !(a == issued[0] && b == issued[1] || a == issued[1] && b == issued[0]) {
				t.Fatalf("round %d: a secret issued by a concurrent rotation no longer verifies", round)
			}
		}
	})
}

// The overlap is the operator's, within bounds.
func TestRotationOverlapBounds(t *testing.T) {
	d := dbtest.SQLite(t)
	sealer, err := auth.NewSealer(auth.NewKey())
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []time.Duration{-time.Second, auth.MaxRotationGrace + time.Second} {
		if _, err := auth.NewService(auth.Config{Store: auth.NewEntStore(d.Ent), Sealer: sealer, RotationOverlap: bad}); err == nil {
			t.Errorf("overlap %s accepted", bad)
		}
	}
	clk := clock.NewManual(time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC))
	svc, err := auth.NewService(auth.Config{Store: auth.NewEntStore(d.Ent), Sealer: sealer, Clock: clk, RotationOverlap: 2 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	app := newApp(t, svc)
	if _, expires, err := svc.RotateClientSecret(context.Background(), app.App.ID); err != nil || !expires.Equal(clk.Now().Add(2*time.Hour)) {
		t.Fatalf("%v %v, want two hours of overlap", expires, err)
	}
}
