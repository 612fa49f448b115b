package main

import (
	"context"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/services/auth"
)

// The operator registers an app's redirect URIs (repeatable, checked) and
// gives shops consent-page logins, the password read from stdin and stored
// hashed only.
func TestAdminRedirectURIsAndSellerLogins(t *testing.T) {
	t.Setenv("MP_SECRET_KEY", auth.NewKey())
	path := sqliteFile(t)
	acct, err := admin(t, path, "create-account", "--name", "Partner", "--email", "dev@partner.example")
	if err != nil {
		t.Fatal(err)
	}
	app, err := admin(t, path, "create-app", "--account", acct["account_id"].(string), "--name", "OMS", "--scopes", "orders:read",
		"--redirect-uri", "https://partner.example/cb", "--redirect-uri", "http://127.0.0.1:9000/cb")
	if err != nil {
		t.Fatal(err)
	}
	if got := app["redirect_uris"].([]any); len(got) != 2 || got[1] != "http://127.0.0.1:9000/cb" {
		t.Fatalf("redirect_uris %v", got)
	}
	for _, bad := range []string{"http://partner.example/cb", "https://partner.example/cb#x", "/cb"} {
		if _, err := admin(t, path, "create-app", "--account", acct["account_id"].(string), "--name", "Bad",
			"--scopes", "orders:read", "--redirect-uri", bad); err == nil {
			t.Errorf("redirect URI %q was accepted", bad)
		}
	}
	if _, err := admin(t, path, "create-app", "--account", acct["account_id"].(string), "--name", "Live", "--environment", "production",
		"--scopes", "orders:read", "--redirect-uri", "http://127.0.0.1:9000/cb"); err == nil {
		t.Error("a production app registered a plain http redirect URI")
	}

	shop, err := adminWithInput(t, path, "s3cret-passw0rd\n", "create-test-shop", "--name", "Ana", "--shop-name", "Ana's",
		"--username", "Ana.Cruz", "--otp-destination", "+639171112222", "--otp", "135790")
	if err != nil {
		t.Fatal(err)
	}
	if shop["username"] != "ana.cruz" {
		t.Fatalf("shop %v", shop)
	}
	if _, err := adminWithInput(t, path, "short\n", "create-test-shop", "--name", "B", "--shop-name", "B",
		"--username", "b", "--otp-destination", "+639171112223"); err == nil {
		t.Error("a short password was accepted")
	}
	d, err := db.Open(context.Background(), db.Config{Driver: db.DriverSQLite, DSN: path})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	logins, err := d.Ent.SellerLogin.Query().All(context.Background())
	if err != nil || len(logins) != 1 {
		t.Fatalf("logins %v %v", logins, err)
	}
	if l := logins[0]; strings.Contains(l.PasswordHash, "s3cret") || !strings.HasPrefix(l.PasswordHash, "$argon2id$") ||
		l.FixedOtpHash == nil || strings.Contains(*l.FixedOtpHash, "135790") {
		t.Fatalf("the login is not stored hashed: %+v", l)
	}
	if ok, _ := auth.CheckPassword(logins[0].PasswordHash, "s3cret-passw0rd"); !ok || logins[0].Username != "ana.cruz" {
		t.Fatal("the stored hash does not check the password")
	}
}
