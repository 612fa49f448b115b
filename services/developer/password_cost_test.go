package developer_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/developer"
)

// A sign-up's password is hashed at the production cost (OWASP's 19 MiB, 2
// passes) unless the service's config names another; a cost below
// production's is refused unless it is marked for tests
// (docs/decisions.md, "Seller password cost in tests").
func TestDeveloperPasswordCost(t *testing.T) {
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
			svc, err := developer.NewService(developer.Config{Store: developer.NewEntStore(d), Clock: clock.System{},
				Business: clock.System{}, ConsoleURL: "https://console.example/console/", PasswordCost: c.cost})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if _, err := svc.SignUp(ctx, caller, developer.SignUp{Email: "cost@example.ph", Password: password,
				Name: "Ana Cruz", DeveloperType: developer.TypeIndividual}); err != nil {
				t.Fatal(err)
			}
			rows := dbtest.Query(t, d.SQL, "SELECT password_hash FROM developer_users")
			if len(rows) != 1 {
				t.Fatalf("%d people, want 1", len(rows))
			}
			if h := dbtest.Text(rows[0]["password_hash"]); !strings.HasPrefix(h, c.want) {
				t.Fatalf("stored hash %q, want the prefix %q", h, c.want)
			}
			// The password signs in; a wrong one and an unknown address
			// are the same refusal.
			if _, err := svc.SignIn(ctx, caller, "cost@example.ph", password, ""); err != nil {
				t.Fatalf("sign-in: %v", err)
			}
			_, wrong := svc.SignIn(ctx, caller, "cost@example.ph", "not the password at all", "")
			_, unknown := svc.SignIn(ctx, caller, "nobody@example.ph", password, "")
			if wrong == nil || unknown == nil || wrong.Error() != unknown.Error() {
				t.Fatalf("wrong password: %v; unknown address: %v", wrong, unknown)
			}
		})
	}
	for _, bad := range []auth.PasswordCost{
		{MemoryKiB: 64, Passes: 1},
		{MemoryKiB: 19 * 1024, Passes: 1},
		{MemoryKiB: 64 * 1024},
	} {
		if _, err := developer.NewService(developer.Config{Store: developer.NewEntStore(dbtest.SQLite(t)), Clock: clock.System{},
			Business: clock.System{}, ConsoleURL: "https://console.example/console/", PasswordCost: bad}); err == nil {
			t.Errorf("cost %+v accepted", bad)
		}
	}
}
