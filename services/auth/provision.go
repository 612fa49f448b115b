package auth

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/ids"
)

// Token lifetimes. Issued tokens of the consent flow use the first pair
// (and its grant GrantTTL); the sandbox's seeded tokens live longer so a
// developer's credential file stays useful for a while.
const (
	AccessTokenTTL         = 4 * time.Hour
	RefreshTokenTTL        = 30 * 24 * time.Hour
	SandboxAccessTokenTTL  = 365 * 24 * time.Hour
	SandboxRefreshTokenTTL = 2 * 365 * 24 * time.Hour
)

// KnownScopes are the scopes an app may be granted.
var KnownScopes = []string{"catalog:read", "catalog:write", "orders:read", "orders:write", "customer:email:read"}

// ClientIDPrefix is the credential-kind prefix of each environment: the
// gateway rejects a credential of the other kind before any lookup.
func ClientIDPrefix(environment string) string {
	if environment == EnvProduction {
		return "live_"
	}
	return "test_"
}

// NewAccount describes a developer account to create.
type NewAccount struct {
	Name               string
	Email              string
	RateLimitPerMinute *int
}

// CreateAccount creates a developer account.
func (s *Service) CreateAccount(ctx context.Context, in NewAccount) (*Account, error) {
	if strings.TrimSpace(in.Name) == "" || !strings.Contains(in.Email, "@") {
		return nil, apierr.New(apierr.ValidationError, "an account needs a name and an email address")
	}
	a := &Account{ID: ids.New("acc"), Name: in.Name, Email: strings.ToLower(in.Email), RateLimitPerMinute: in.RateLimitPerMinute}
	if err := s.store.CreateAccount(ctx, a, s.clock.Now()); err != nil {
		return nil, err
	}
	return a, nil
}

// NewApp describes an app to create.
type NewApp struct {
	AccountID          string
	Name               string
	Environment        string
	Scopes             []string
	RateLimitPerMinute *int
	RedirectURIs       []string
}

// CreatedApp is an app with its secret, shown once.
type CreatedApp struct {
	App          *App
	ClientSecret string
}

// CreateApp creates an app and its secret.
func (s *Service) CreateApp(ctx context.Context, in NewApp) (*CreatedApp, error) {
	if in.Environment != EnvSandbox && in.Environment != EnvProduction {
		return nil, apierr.New(apierr.ValidationError, "environment must be sandbox or production")
	}
	if err := CheckAppSettings(in.Environment, in.Scopes, in.RedirectURIs); err != nil {
		return nil, err
	}
	if in.RateLimitPerMinute != nil && *in.RateLimitPerMinute <= 0 {
		return nil, errors.New("auth: a rate-limit override must be positive")
	}
	secret := ids.Token(32)
	a := &App{
		ID:                 ids.New("app"),
		ClientID:           ClientIDPrefix(in.Environment) + ids.Token(15),
		Name:               in.Name,
		AccountID:          in.AccountID,
		Environment:        in.Environment,
		Scopes:             append([]string{}, in.Scopes...),
		Active:             true,
		RateLimitPerMinute: in.RateLimitPerMinute,
		RedirectURIs:       in.RedirectURIs,
	}
	sealed, err := s.sealer.Seal([]byte(secret), []byte(a.ID))
	if err != nil {
		return nil, err
	}
	a.SecretCiphertext = sealed
	if err := s.store.CreateApp(ctx, a, s.clock.Now()); err != nil {
		return nil, err
	}
	return &CreatedApp{App: a, ClientSecret: secret}, nil
}

func knownScope(sc string) bool {
	for _, k := range KnownScopes {
		if k == sc {
			return true
		}
	}
	return false
}

// CreateTestShop creates a seller flagged as a test shop.
func (s *Service) CreateTestShop(ctx context.Context, name, shopName string) (*Seller, error) {
	sl := &Seller{ID: ids.New("slr"), Name: name, ShopName: shopName, TestShop: true}
	if err := s.store.CreateSeller(ctx, sl, s.clock.Now()); err != nil {
		return nil, err
	}
	return sl, nil
}

// IssuedTokens are a grant's tokens, shown once.
type IssuedTokens struct {
	AuthorizationID string
	AccessToken     string
	RefreshToken    string
	AccessExpires   time.Time
	RefreshExpires  time.Time
}

// AuthorizeSeller records a seller's grant to an app and issues its tokens
// (what the consent flow ends with; operators use it for test shops).
func (s *Service) AuthorizeSeller(ctx context.Context, appID, sellerID string, scopes []string, accessTTL, refreshTTL time.Duration) (*IssuedTokens, error) {
	now := s.clock.Now()
	t := &IssuedTokens{
		AuthorizationID: ids.New("sau"),
		AccessToken:     "mpat_" + ids.Token(32),
		RefreshToken:    "mprt_" + ids.Token(32),
		AccessExpires:   now.Add(accessTTL),
		RefreshExpires:  now.Add(refreshTTL),
	}
	a := &Authorization{
		ID:               t.AuthorizationID,
		AppID:            appID,
		SellerID:         sellerID,
		Scopes:           scopes,
		AccessTokenHash:  HashToken(t.AccessToken),
		AccessExpiresAt:  t.AccessExpires,
		RefreshTokenHash: HashToken(t.RefreshToken),
		RefreshExpiresAt: t.RefreshExpires,
	}
	if err := s.store.CreateAuthorization(ctx, a, now); err != nil {
		return nil, err
	}
	return t, nil
}

// Empty reports whether no app exists yet (the dev role seeds only then).
func (s *Service) Empty(ctx context.Context) (bool, error) {
	n, err := s.store.CountApps(ctx)
	return n == 0, err
}

// MaxRotationGrace bounds how long a rotated-out secret keeps verifying.
const MaxRotationGrace = 7 * 24 * time.Hour

// RotateSecret issues a new secret for an app. The old secret keeps
// verifying for grace (at most MaxRotationGrace) so the partner can roll its
// deployments without failed requests; a previous secret from an earlier
// rotation stops verifying. Gateways verify the new secret at once (they
// fetch the app again when a signature does not verify) and drop an ended
// secret within their credential cache TTL.
func (s *Service) RotateSecret(ctx context.Context, appID string, grace time.Duration) (string, time.Time, error) {
	if grace < 0 || grace > MaxRotationGrace {
		return "", time.Time{}, apierr.Newf(apierr.ValidationError, "grace must be between 0 and %s", MaxRotationGrace)
	}
	secret := ids.Token(32)
	sealed, err := s.sealer.Seal([]byte(secret), []byte(appID))
	if err != nil {
		return "", time.Time{}, err
	}
	now := s.clock.Now()
	expires := now.Add(grace)
	if err := s.store.RotateSecret(ctx, appID, sealed, expires, now); err != nil {
		if isNotFound(err) {
			return "", time.Time{}, apierr.New(apierr.NotFound, "app not found")
		}
		return "", time.Time{}, err
	}
	return secret, expires, nil
}

// SetAppActive activates or deactivates an app; an inactive app's signed
// requests answer 403 FORBIDDEN.
func (s *Service) SetAppActive(ctx context.Context, appID string, active bool) error {
	err := s.store.SetAppActive(ctx, appID, active, s.clock.Now())
	if isNotFound(err) {
		return apierr.New(apierr.NotFound, "app not found")
	}
	return err
}
