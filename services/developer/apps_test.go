package developer_test

import (
	"context"
	"sync"
	"testing"

	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/developer"
)

// newAppsFixture is newFixture with the auth domain's app steps.
func newAppsFixture(t *testing.T, d *db.DB) *fixture {
	t.Helper()
	f := newFixture(t, d)
	sealer, err := auth.NewSealer(auth.NewKey())
	if err != nil {
		t.Fatal(err)
	}
	apps, err := auth.NewService(auth.Config{Store: auth.NewEntStore(d.Ent), Sealer: sealer, Clock: f.clock})
	if err != nil {
		t.Fatal(err)
	}
	f.svc, err = developer.NewService(developer.Config{Store: developer.NewEntStore(d), Clock: f.clock, Business: f.clock,
		Mail: f.mail, ConsoleURL: "https://console.example/console/", Apps: apps, PasswordCost: auth.TestPasswordCost})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func sandboxApp(name string) developer.NewApp {
	return developer.NewApp{Name: name, Environment: auth.EnvSandbox, Scopes: []string{"orders:read"},
		RedirectURIs: []string{"http://127.0.0.1:9000/cb"}}
}

func TestAppsAndTheirLimits(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newAppsFixture(t, d)
		up := f.signUp(t, "ana@example.com", developer.TypeIndividual)
		_, err := f.svc.CreateApp(ctx, caller, f.signIn(t, "ana@example.com"), sandboxApp("First"))
		wantCode(t, err, errorsv1.ErrorCode_ERROR_CODE_EMAIL_NOT_VERIFIED)
		f.verify(t, "ana@example.com")
		a := f.signIn(t, "ana@example.com")

		first, err := f.svc.CreateApp(ctx, caller, a, sandboxApp("First"))
		if err != nil {
			t.Fatal(err)
		}
		if first.ClientSecret == "" || first.App.ClientID[:5] != "test_" || !first.App.Active || first.App.Name != "First" {
			t.Fatalf("created %+v", first.App)
		}
		for i := 2; i <= developer.DefaultSandboxApps; i++ {
			if _, err := f.svc.CreateApp(ctx, caller, a, sandboxApp("More")); err != nil {
				t.Fatal(err)
			}
		}
		_, err = f.svc.CreateApp(ctx, caller, a, sandboxApp("Sixth"))
		wantCode(t, err, errorsv1.ErrorCode_ERROR_CODE_SANDBOX_LIMIT_REACHED)
		if got := apierr.HTTPStatus(errorsv1.ErrorCode_ERROR_CODE_SANDBOX_LIMIT_REACHED); got != 422 {
			t.Fatalf("SANDBOX_LIMIT_REACHED answers %d, want 422", got)
		}

		live := developer.NewApp{Name: "Live", Environment: auth.EnvProduction, Scopes: []string{"orders:read"}}
		_, err = f.svc.CreateApp(ctx, caller, a, live)
		wantCode(t, err, apierr.Forbidden)
		if err := f.svc.SubmitProfile(ctx, caller, a, individual); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.ReviewProfile(ctx, up.AccountID, true); err != nil {
			t.Fatal(err)
		}
		for i := 1; i <= developer.DefaultLiveApps; i++ {
			if _, err := f.svc.CreateApp(ctx, caller, a, live); err != nil {
				t.Fatal(err)
			}
		}
		_, err = f.svc.CreateApp(ctx, caller, a, live)
		wantCode(t, err, errorsv1.ErrorCode_ERROR_CODE_APP_LIMIT_REACHED)

		list, err := f.svc.Apps(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != developer.DefaultSandboxApps+developer.DefaultLiveApps {
			t.Fatalf("%d apps listed", len(list))
		}

		t.Run("another account's app is not found", func(t *testing.T) {
			f.signUp(t, "bea@example.com", developer.TypeBusiness)
			f.verify(t, "bea@example.com")
			b := f.signIn(t, "bea@example.com")
			_, err := f.svc.App(ctx, b, first.App.ID)
			wantCode(t, err, errorsv1.ErrorCode_ERROR_CODE_APP_NOT_FOUND)
			_, _, err = f.svc.RotateSecret(ctx, caller, b, first.App.ID)
			wantCode(t, err, errorsv1.ErrorCode_ERROR_CODE_APP_NOT_FOUND)
		})
		t.Run("rotation keeps the previous secret for the overlap", func(t *testing.T) {
			secret, expires, err := f.svc.RotateSecret(ctx, caller, a, first.App.ID)
			if err != nil {
				t.Fatal(err)
			}
			if secret == "" || secret == first.ClientSecret || !expires.Equal(f.clock.Now().Add(auth.DefaultRotationOverlap)) {
				t.Fatalf("rotation answered %q until %v", secret, expires)
			}
			v, err := f.svc.App(ctx, a, first.App.ID)
			if err != nil {
				t.Fatal(err)
			}
			if v.PreviousSecretExpiresAt == nil || !v.PreviousSecretExpiresAt.Equal(expires) {
				t.Fatalf("app after rotation %+v", v)
			}
		})
		entries, err := f.svc.AuditEntries(ctx, up.AccountID)
		if err != nil {
			t.Fatal(err)
		}
		created, rotated := 0, 0
		for _, e := range entries {
			switch e.Action {
			case "app.created":
				created++
			case "app.secret_rotated":
				rotated++
				if e.SubjectID != first.App.ID {
					t.Fatalf("rotation audited on %q", e.SubjectID)
				}
			}
		}
		if created != developer.DefaultSandboxApps+developer.DefaultLiveApps || rotated != 1 {
			t.Fatalf("audit: %d created, %d rotated", created, rotated)
		}
	})
}

// Two creations racing for an account's last sandbox place: one wins.
func TestConcurrentCreationsKeepTheLimit(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newAppsFixture(t, d)
		f.signUp(t, "ana@example.com", developer.TypeIndividual)
		f.verify(t, "ana@example.com")
		a := f.signIn(t, "ana@example.com")
		for i := 1; i < developer.DefaultSandboxApps; i++ {
			if _, err := f.svc.CreateApp(ctx, caller, a, sandboxApp("App")); err != nil {
				t.Fatal(err)
			}
		}
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = f.svc.CreateApp(ctx, caller, a, sandboxApp("Racer"))
			}()
		}
		wg.Wait()
		won, refused := 0, 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case apierr.CodeOf(err) == errorsv1.ErrorCode_ERROR_CODE_SANDBOX_LIMIT_REACHED:
				refused++
			default:
				t.Fatal(err)
			}
		}
		if won != 1 || refused != 1 {
			t.Fatalf("%d created, %d refused: want one of each", won, refused)
		}
	})
}
