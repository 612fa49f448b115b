package auth_test

import (
	"cmp"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/auth"
)

// Every write of EntStore runs in the transaction the context carries: when
// the caller's transaction rolls back, nothing any of them wrote remains.
func TestEntStoreWritesRollBackWithTheCallersTransaction(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := auth.NewEntStore(d.Ent)
		now := time.Date(2026, 3, 10, 2, 0, 0, 0, time.UTC)
		newApp := func(id string) *auth.App {
			return &auth.App{ID: id, ClientID: "client_" + id, Name: id, AccountID: "acct_base", Environment: "sandbox",
				Scopes: []string{"orders.read"}, Active: true, SecretCiphertext: []byte("secret of " + id)}
		}
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(s.CreateAccount(ctx, &auth.Account{ID: "acct_base", Name: "Base", Email: "base@example.com"}, now))
		must(s.CreateApp(ctx, newApp("app_base"), now))
		must(s.CreateSeller(ctx, &auth.Seller{ID: "sel_base", Name: "Base", ShopName: "Base"}, now))
		must(s.CreateInternalCaller(ctx, &auth.InternalCaller{ID: "ic_base", Name: "base", TokenHash: auth.HashToken("base"), CreatedAt: now}))

		rollBack := errors.New("roll back")
		later := now.Add(time.Hour)
		// Fatal would end the test with the transaction open: a failing
		// write is returned instead. A write outside the transaction waits
		// for a row the transaction holds: the deadline turns that into an
		// error instead of a hang.
		txCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		err := db.InTx(txCtx, d.Ent, func(ctx context.Context) error {
			_, revokeErr := s.RevokeInternalCaller(ctx, "ic_base", later)
			return cmp.Or(
				s.CreateAccount(ctx, &auth.Account{ID: "acct_new", Name: "New", Email: "new@example.com"}, later),
				s.CreateApp(ctx, newApp("app_new"), later),
				s.CreateSeller(ctx, &auth.Seller{ID: "sel_new", Name: "New", ShopName: "New"}, later),
				s.CreateAuthorization(ctx, &auth.Authorization{ID: "sa_new", AppID: "app_base", SellerID: "sel_base",
					Scopes: []string{"orders.read"}, AccessTokenHash: auth.HashToken("access"), AccessExpiresAt: later,
					RefreshTokenHash: auth.HashToken("refresh"), RefreshExpiresAt: later}, later),
				s.CreateLogin(ctx, &auth.SellerLogin{ID: "login_new", SellerID: "sel_base", Username: "new",
					PasswordHash: "x", Destination: "+639171234567"}, later),
				s.RotateSecret(ctx, "app_base", []byte("rotated"), later, later),
				s.SetAppActive(ctx, "app_base", false, later),
				s.CreateInternalCaller(ctx, &auth.InternalCaller{ID: "ic_new", Name: "new", TokenHash: auth.HashToken("new"), CreatedAt: later}),
				revokeErr,
				rollBack)
		})
		if !errors.Is(err, rollBack) {
			t.Fatalf("transaction: %v", err)
		}

		for table, n := range map[string]int{
			"developer accounts":    d.Ent.DeveloperAccount.Query().CountX(ctx),
			"apps":                  d.Ent.App.Query().CountX(ctx),
			"sellers":               d.Ent.Seller.Query().CountX(ctx),
			"seller authorizations": d.Ent.SellerAuthorization.Query().CountX(ctx),
			"seller logins":         d.Ent.SellerLogin.Query().CountX(ctx),
			"internal callers":      d.Ent.InternalCaller.Query().CountX(ctx),
		} {
			want := 1
			if table == "seller authorizations" || table == "seller logins" {
				want = 0
			}
			if n != want {
				t.Errorf("%s: %d rows after the rollback, want %d", table, n, want)
			}
		}
		a := d.Ent.App.GetX(ctx, "app_base")
		if !a.Active || string(a.SecretCiphertext) != "secret of app_base" || a.PreviousSecretExpiresAt != nil {
			t.Errorf("app after the rollback: active %v, secret %q, previous expiring %v", a.Active, a.SecretCiphertext, a.PreviousSecretExpiresAt)
		}
		if c := d.Ent.InternalCaller.GetX(ctx, "ic_base"); c.RevokedAt != nil {
			t.Errorf("internal caller revoked at %v after the rollback", c.RevokedAt)
		}
	})
}
