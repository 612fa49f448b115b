package auth

import (
	"context"
	"time"
)

// App is a partner app as the auth service sees it.
type App struct {
	ID                 string
	ClientID           string
	Name               string
	AccountID          string
	Environment        string
	Scopes             []string
	Active             bool
	RateLimitPerMinute *int
	SecretCiphertext   []byte
	PreviousCiphertext []byte
	PreviousExpiresAt  *time.Time
	// SecretCreatedAt is when the current secret was issued; nil on apps
	// from before it was kept (their secret dates from CreatedAt).
	SecretCreatedAt *time.Time
	CreatedAt       time.Time
	RedirectURIs    []string
	// AccountRateLimitPerMinute is the owning account's override, if any.
	AccountRateLimitPerMinute *int
}

// Account is a developer account.
type Account struct {
	ID                 string
	Name               string
	Email              string
	RateLimitPerMinute *int
}

// Seller is a shop.
type Seller struct {
	ID       string
	Name     string
	ShopName string
	TestShop bool
}

// Authorization is a seller's grant to an app.
type Authorization struct {
	ID               string
	AppID            string
	SellerID         string
	Scopes           []string
	AccessTokenHash  string
	AccessExpiresAt  time.Time
	RefreshTokenHash string
	RefreshExpiresAt time.Time
	RevokedAt        *time.Time
}

// Store is the auth service's storage.
type Store interface {
	AppByClientID(ctx context.Context, clientID string) (*App, error)
	AuthorizationByAccessHash(ctx context.Context, hash string) (*Authorization, error)
	CreateAccount(ctx context.Context, a *Account, now time.Time) error
	CreateApp(ctx context.Context, a *App, now time.Time) error
	CreateSeller(ctx context.Context, s *Seller, now time.Time) error
	CreateAuthorization(ctx context.Context, a *Authorization, now time.Time) error
	CountApps(ctx context.Context) (int, error)
	// RotateSecret replaces an app's secret, keeping the one it replaces as
	// the previous secret until previousExpires (whatever previous secret
	// there was is gone), and records now as the new secret's issue time.
	// Concurrent rotations of one app each keep the secret the other
	// issued: none is lost.
	RotateSecret(ctx context.Context, appID string, newCiphertext []byte, previousExpires, now time.Time) error
	// SetAppActive activates or deactivates an app.
	SetAppActive(ctx context.Context, appID string, active bool, now time.Time) error
	// CreateLogin gives a seller a consent-page login.
	CreateLogin(ctx context.Context, l *SellerLogin, now time.Time) error
	InternalCallerStore
}

// errNotFound is what stores return for a missing row.
type notFoundError struct{ what string }

func (e notFoundError) Error() string { return e.what + " not found" }
