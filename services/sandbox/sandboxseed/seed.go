// Package sandboxseed fills an empty database with a working sandbox: a
// developer account with three apps (a full one, a limited one and a live one
// for the credential-kind check), two test shops that granted both sandbox
// apps, the category tree, products and orders across every status.
package sandboxseed

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/auth"
)

// Deps are what seeding writes through.
type Deps struct {
	DB    *db.DB
	Auth  *auth.Service
	Clock clock.Clock
	// Seed makes the generated data repeatable.
	Seed uint64
	// OrdersPerSeller is at least 25 (default 30).
	OrdersPerSeller int
}

type appSpec struct {
	name, environment string
	scopes            []string
}

var apps = []appSpec{
	{"full", auth.EnvSandbox, []string{"catalog:read", "catalog:write", "orders:read", "orders:write", "customer:email:read"}},
	{"limited", auth.EnvSandbox, []string{"catalog:read", "orders:read"}},
	{"live", auth.EnvProduction, []string{"catalog:read"}},
}

var shops = []struct{ name, shop string }{
	{"Maria Santos", "Santos Home & Living"},
	{"Jose Reyes", "Reyes Gadget Hub"},
}

// Seed writes the sandbox and returns its credentials (base URL and gRPC
// address are left for the caller). It must run on an empty database.
func Seed(ctx context.Context, d Deps) (*sdk.Credentials, error) {
	if d.OrdersPerSeller == 0 {
		d.OrdersPerSeller = 30
	}
	if d.Clock == nil {
		d.Clock = clock.System{}
	}
	rng := rand.New(rand.NewPCG(d.Seed, d.Seed^0x5eed))
	creds := &sdk.Credentials{Environment: auth.EnvSandbox, Apps: map[string]sdk.AppCredentials{}}

	account, err := d.Auth.CreateAccount(ctx, auth.NewAccount{Name: "Sandbox Developer", Email: "sandbox-developer@example.ph"})
	if err != nil {
		return nil, fmt.Errorf("seed account: %w", err)
	}
	appIDs := map[string]string{}
	for _, a := range apps {
		created, err := d.Auth.CreateApp(ctx, auth.NewApp{AccountID: account.ID, Name: "Sandbox " + a.name + " app", Environment: a.environment, Scopes: a.scopes})
		if err != nil {
			return nil, fmt.Errorf("seed app %s: %w", a.name, err)
		}
		appIDs[a.name] = created.App.ID
		creds.Apps[a.name] = sdk.AppCredentials{ClientID: created.App.ClientID, ClientSecret: created.ClientSecret, Scopes: a.scopes}
	}
	for _, s := range shops {
		seller, err := d.Auth.CreateTestShop(ctx, s.name, s.shop)
		if err != nil {
			return nil, fmt.Errorf("seed seller: %w", err)
		}
		sc := sdk.SellerCredentials{SellerID: seller.ID, Tokens: map[string]sdk.TokenPair{}}
		for _, name := range []string{"full", "limited"} {
			t, err := d.Auth.AuthorizeSeller(ctx, appIDs[name], seller.ID, creds.Apps[name].Scopes, auth.SandboxAccessTokenTTL, auth.SandboxRefreshTokenTTL)
			if err != nil {
				return nil, fmt.Errorf("seed tokens: %w", err)
			}
			sc.Tokens[name] = sdk.TokenPair{AccessToken: t.AccessToken, RefreshToken: t.RefreshToken}
		}
		creds.Sellers = append(creds.Sellers, sc)
	}
	if err := seedCommerce(ctx, d, creds, rng); err != nil {
		return nil, err
	}
	return creds, nil
}
