// Package auth holds the platform's app and seller credentials: the secrets
// the gateway verifies signatures with, the seller tokens core verifies on
// seller-scoped calls, and the operator's provisioning of accounts, apps and
// test shops.
package auth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/ttlcache"
)

// Environments.
const (
	EnvSandbox    = "sandbox"
	EnvProduction = "production"
)

// DefaultRotationOverlap is how long a secret a partner rotated out keeps
// verifying unless the operator sets another overlap.
const DefaultRotationOverlap = 24 * time.Hour

// Config configures the auth service.
type Config struct {
	Store  Store
	Sealer *Sealer
	Clock  clock.Clock
	// RotationOverlap is how long the previous secret keeps verifying after
	// a partner rotates its secret (POST /open/v1/credentials/rotate):
	// default DefaultRotationOverlap, at most MaxRotationGrace.
	RotationOverlap time.Duration
	// PasswordCost is the cost of new seller password hashes (zero: the
	// production cost).
	PasswordCost PasswordCost
}

// Validate reports missing dependencies and a rotation overlap out of range.
func (c Config) Validate() error {
	if c.Store == nil || c.Sealer == nil {
		return errors.New("auth: a store and a sealer are required")
	}
	if c.RotationOverlap < 0 || c.RotationOverlap > MaxRotationGrace {
		return fmt.Errorf("auth: the secret rotation overlap must be positive and at most %s", MaxRotationGrace)
	}
	return c.PasswordCost.Validate()
}

// Service implements the auth use cases.
type Service struct {
	store   Store
	sealer  *Sealer
	clock   clock.Clock
	overlap time.Duration
	cost    PasswordCost
	tokens  *ttlcache.Cache[tokenEntry]
	// callers holds verified internal callers by their token's hash.
	callers *ttlcache.Cache[*InternalCaller]
}

// NewService builds the service.
func NewService(cfg Config) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	if cfg.RotationOverlap == 0 {
		cfg.RotationOverlap = DefaultRotationOverlap
	}
	return &Service{store: cfg.Store, sealer: cfg.Sealer, clock: cfg.Clock, overlap: cfg.RotationOverlap, cost: cfg.PasswordCost, tokens: ttlcache.New[tokenEntry](tokenCacheMax), callers: ttlcache.New[*InternalCaller](internalCallerCacheMax)}, nil
}

// Credentials is what the gateway needs to verify and meter one app.
type Credentials struct {
	App                  *App
	Secrets              []Secret
	AppRatePerMinute     int64
	AccountRatePerMinute int64
}

// Secret is one secret that currently verifies signatures.
type Secret struct {
	Value     []byte
	ExpiresAt *time.Time
}

// AppCredentials returns an app's verification material. An unknown client
// id is NOT_FOUND here; the gateway answers it as INVALID_CREDENTIALS.
func (s *Service) AppCredentials(ctx context.Context, clientID string) (*Credentials, error) {
	a, err := s.store.AppByClientID(ctx, clientID)
	if isNotFound(err) {
		return nil, apierr.New(apierr.NotFound, "unknown client id")
	}
	if err != nil {
		return nil, err
	}
	current, err := s.sealer.Open(a.SecretCiphertext, []byte(a.ID))
	if err != nil {
		return nil, err
	}
	c := &Credentials{App: a, Secrets: []Secret{{Value: current}}}
	if a.PreviousCiphertext != nil && a.PreviousExpiresAt != nil && s.clock.Now().Before(*a.PreviousExpiresAt) {
		previous, err := s.sealer.Open(a.PreviousCiphertext, []byte(a.ID))
		if err != nil {
			return nil, err
		}
		c.Secrets = append(c.Secrets, Secret{Value: previous, ExpiresAt: a.PreviousExpiresAt})
	}
	if a.RateLimitPerMinute != nil {
		c.AppRatePerMinute = int64(*a.RateLimitPerMinute)
	}
	if a.AccountRateLimitPerMinute != nil {
		c.AccountRatePerMinute = int64(*a.AccountRateLimitPerMinute)
	}
	return c, nil
}

// HashToken is how tokens are stored: lowercase hex SHA-256.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// VerifySellerToken implements core.SellerTokenVerifier: it returns the
// scopes the seller granted. Every failure is the same NOT_FOUND: the spec
// answers a revoked authorization or an expired token like a missing
// resource, so nothing tells a caller which part was wrong or whether the
// seller exists.
func (s *Service) VerifySellerToken(ctx context.Context, appID, sellerID, accessToken string) ([]string, error) {
	notFound := apierr.New(apierr.NotFound, "seller not found or not authorized for this app")
	if len(accessToken) < 16 || len(accessToken) > 512 {
		return nil, notFound
	}
	hash := HashToken(accessToken)
	now := s.clock.Now()
	e, cached := s.tokens.Get(hash, now)
	if !cached {
		a, err := s.store.AuthorizationByAccessHash(ctx, hash)
		if isNotFound(err) {
			return nil, notFound
		}
		if err != nil {
			return nil, err
		}
		if a.RevokedAt != nil {
			return nil, notFound
		}
		e = tokenEntry{appID: a.AppID, sellerID: a.SellerID, scopes: a.Scopes, expires: a.AccessExpiresAt}
		s.tokens.Put(hash, e, now.Add(TokenCacheTTL))
	}
	// The hash lookup already matched; the comparisons below are on ids, but
	// keep them constant-time so no timing tells which one differed.
	appOK := subtle.ConstantTimeCompare([]byte(e.appID), []byte(appID))
	sellerOK := subtle.ConstantTimeCompare([]byte(e.sellerID), []byte(sellerID))
	if appOK&sellerOK != 1 || !now.Before(e.expires) {
		return nil, notFound
	}
	return e.scopes, nil
}
