// Package sandboxseed fills an empty database with a working sandbox: a
// developer account with three apps (a full one, a limited one and a live one
// for the credential-kind check), two test shops (each with its two pickup
// addresses) that granted both sandbox apps, the category tree, products and
// orders across every status.
package sandboxseed

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/sellers"
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

// withDefaults fills the unset fields (30 orders per seller, the system
// clock) and returns the generator Seed's value makes repeatable.
func (d Deps) withDefaults() (Deps, *rand.Rand) {
	if d.OrdersPerSeller == 0 {
		d.OrdersPerSeller = 30
	}
	if d.Clock == nil {
		d.Clock = clock.System{}
	}
	return d, rand.New(rand.NewPCG(d.Seed, d.Seed^0x5eed))
}

type appSpec struct {
	name, environment string
	scopes            []string
	redirectURIs      []string
}

// sandboxRedirectURIs are the sandbox apps' registered redirect URIs: a
// partner's https callback, and the loopback one `partnerctl authorize`
// listens on.
var sandboxRedirectURIs = []string{"https://partner.example.ph/oauth/callback", "http://127.0.0.1:8765/callback"}

var apps = []appSpec{
	{"full", auth.EnvSandbox, []string{"catalog:read", "catalog:write", "orders:read", "orders:write", "customer:email:read"}, sandboxRedirectURIs},
	{"limited", auth.EnvSandbox, []string{"catalog:read", "orders:read"}, sandboxRedirectURIs},
	{"live", auth.EnvProduction, []string{"catalog:read"}, nil},
}

var shops = []struct{ name, shop, username, mobile string }{
	{"Maria Santos", "Santos Home & Living", "maria.santos", "+639171234567"},
	{"Jose Reyes", "Reyes Gadget Hub", "jose.reyes", "+639281234567"},
}

// Seed writes the sandbox and returns its credentials (base URL and gRPC
// address are left for the caller). It must run on an empty database.
func Seed(ctx context.Context, d Deps) (*sdk.Credentials, error) {
	d, rng := d.withDefaults()
	shopProfiles := sellers.NewService(sellers.Config{Store: sellers.NewEntStore(d.DB), Business: clock.Uniform{C: d.Clock}})
	creds := &sdk.Credentials{Environment: auth.EnvSandbox, Apps: map[string]sdk.AppCredentials{}}

	account, err := d.Auth.CreateAccount(ctx, auth.NewAccount{Name: "Sandbox Developer", Email: "sandbox-developer@example.ph"})
	if err != nil {
		return nil, fmt.Errorf("seed account: %w", err)
	}
	appIDs := map[string]string{}
	for _, a := range apps {
		created, err := d.Auth.CreateApp(ctx, auth.NewApp{AccountID: account.ID, Name: "Sandbox " + a.name + " app", Environment: a.environment,
			Scopes: a.scopes, RedirectURIs: a.redirectURIs})
		if err != nil {
			return nil, fmt.Errorf("seed app %s: %w", a.name, err)
		}
		appIDs[a.name] = created.App.ID
		creds.Apps[a.name] = sdk.AppCredentials{ClientID: created.App.ClientID, ClientSecret: created.ClientSecret, Scopes: a.scopes,
			RedirectURIs: a.redirectURIs}
	}
	for _, s := range shops {
		seller, login, err := createShop(ctx, d, shopProfiles, ShopSpec{Name: s.name, ShopName: s.shop, Username: s.username,
			Mobile: s.mobile}, rng)
		if err != nil {
			return nil, err
		}
		sc := sdk.SellerCredentials{SellerID: seller.ID, Tokens: map[string]sdk.TokenPair{}, Login: login}
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

// ShopSpec names a test shop and its consent-page login.
type ShopSpec struct {
	Name, ShopName string
	// Username of the login; Mobile is where its codes would go (a test
	// shop's fixed code makes sending needless).
	Username, Mobile string
}

// TestShop is a test shop made on its own, with its login (password and
// fixed one-time code in the clear, to show once).
type TestShop struct {
	SellerID string
	Login    sdk.SellerLogin
}

// NewTestShop makes one test shop as Seed makes its own, on a platform whose
// category tree and channels are in place (Seed or the migrate step wrote
// them): the seller, its login with a fixed one-time code, its two pickup
// addresses, products and orders across every status.
func NewTestShop(ctx context.Context, d Deps, spec ShopSpec) (*TestShop, error) {
	d, rng := d.withDefaults()
	profiles := sellers.NewService(sellers.Config{Store: sellers.NewEntStore(d.DB), Business: clock.Uniform{C: d.Clock}})
	seller, login, err := createShop(ctx, d, profiles, spec, rng)
	if err != nil {
		return nil, err
	}
	svc, orderStore := commerceSteps(d)
	if err := seedShopCommerce(ctx, d, svc, orderStore, seller.ID, rng.IntN(len(sellerProducts)), rng); err != nil {
		return nil, err
	}
	return &TestShop{SellerID: seller.ID, Login: *login}, nil
}

// createShop makes a test shop's seller, its pickup addresses and its
// consent-page login: a random password and a fixed code.
func createShop(ctx context.Context, d Deps, profiles *sellers.Service, spec ShopSpec, rng *rand.Rand) (*auth.Seller, *sdk.SellerLogin, error) {
	seller, err := d.Auth.CreateTestShop(ctx, spec.Name, spec.ShopName)
	if err != nil {
		return nil, nil, fmt.Errorf("seed seller: %w", err)
	}
	if err := profiles.SeedTestShop(ctx, seller.ID); err != nil {
		return nil, nil, fmt.Errorf("seed seller: %w", err)
	}
	login := &sdk.SellerLogin{Username: spec.Username, Password: ids.Token(12), OTP: fmt.Sprintf("%06d", rng.IntN(1_000_000))}
	if err := d.Auth.CreateSellerLogin(ctx, auth.NewSellerLogin{SellerID: seller.ID, Username: login.Username,
		Password: login.Password, Destination: spec.Mobile, FixedOTP: login.OTP}, true); err != nil {
		return nil, nil, fmt.Errorf("seed seller login: %w", err)
	}
	return seller, login, nil
}
