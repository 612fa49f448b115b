package auth_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/auth"
)

// A service writes seller password hashes at the production cost unless its
// config names another; a cost below production's is refused unless it is
// marked for tests.
func TestSellerLoginPasswordCost(t *testing.T) {
	sealer, err := auth.NewSealer(auth.NewKey())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		cost auth.PasswordCost
		want string
	}{
		{"production", auth.PasswordCost{}, "$argon2id$v=19$m=19456,t=2,p=1$"},
		{"tests", auth.TestPasswordCost, "$argon2id$v=19$m=64,t=1,p=1$"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := dbtest.SQLite(t)
			svc, err := auth.NewService(auth.Config{Store: auth.NewEntStore(d.Ent), Sealer: sealer, Clock: clock.System{}, PasswordCost: c.cost})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			seller, err := svc.CreateTestShop(ctx, "Cost Shop", "cost-shop")
			if err != nil {
				t.Fatal(err)
			}
			if err := svc.CreateSellerLogin(ctx, auth.NewSellerLogin{SellerID: seller.ID, Username: "cost@example.ph",
				Password: "correct horse battery", Destination: "+639170000001"}, true); err != nil {
				t.Fatal(err)
			}
			rows := dbtest.Query(t, d.SQL, "SELECT password_hash FROM seller_logins")
			if len(rows) != 1 {
				t.Fatalf("%d logins, want 1", len(rows))
			}
			h := dbtest.Text(rows[0]["password_hash"])
			if !strings.HasPrefix(h, c.want) {
				t.Fatalf("stored hash %q, want the prefix %q", h, c.want)
			}
			if ok, err := auth.CheckPassword(h, "correct horse battery"); !ok || err != nil {
				t.Fatalf("the password does not check: %v %v", ok, err)
			}
		})
	}
	for _, bad := range []auth.PasswordCost{
		{MemoryKiB: 64, Passes: 1},
		{MemoryKiB: 19 * 1024, Passes: 1},
		{MemoryKiB: 64 * 1024},
	} {
		if _, err := auth.NewService(auth.Config{Store: auth.NewEntStore(nil), Sealer: sealer, PasswordCost: bad}); err == nil {
			t.Errorf("cost %+v accepted", bad)
		}
	}
	if _, err := auth.NewService(auth.Config{Store: auth.NewEntStore(nil), Sealer: sealer,
		PasswordCost: auth.PasswordCost{MemoryKiB: 64 * 1024, Passes: 3}}); err != nil {
		t.Errorf("a cost above production's refused: %v", err)
	}
}
