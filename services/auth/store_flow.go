package auth

import (
	"context"
	"time"
)

// ConsentSession is one run of the consent pages (ent AuthorizationSession).
type ConsentSession struct {
	ID            string
	TokenHash     string
	AppID         string
	RedirectURI   string
	State         string
	Scopes        []string
	CodeChallenge string
	ExpiresAt     time.Time
	// Set by sign-in.
	SellerID      string
	CookieHash    *string
	OTPHash       *string
	OTPExpiresAt  *time.Time
	OTPVerifiedAt *time.Time
	ConsumedAt    *time.Time
}

// SellerLogin is how a seller signs in on the consent pages.
type SellerLogin struct {
	ID           string
	SellerID     string
	Username     string
	PasswordHash string
	Destination  string
	FixedOTPHash *string
	OTPFailures  int
	LockedUntil  *time.Time
	// TestShop is the seller's flag: test shops sign in to sandbox apps
	// only, real shops to production apps only.
	TestShop bool
}

// AuthCode is an authorization code as stored.
type AuthCode struct {
	ID              string
	CodeHash        string
	AppID           string
	SellerID        string
	RedirectURI     string
	Scopes          []string
	CodeChallenge   string
	ExpiresAt       time.Time
	UsedAt          *time.Time
	AuthorizationID string
}

// Grant is a seller authorization with its lifetime, as the flow reads it.
type Grant struct {
	Authorization
	ExpiresAt time.Time // the grant's end (365 days after consent)
	CreatedAt time.Time
}

// FlowStore is the consent flow's storage. Every method runs on the
// transaction the context carries, if any (internal/db).
type FlowStore interface {
	// InTx runs fn in a transaction (the one ctx carries, if any) that
	// the events fn records join.
	InTx(ctx context.Context, fn func(ctx context.Context) error) error
	AppByID(ctx context.Context, appID string) (*App, error)
	CreateSession(ctx context.Context, s *ConsentSession, now time.Time) error
	SessionByTokenHash(ctx context.Context, hash string) (*ConsentSession, error)
	SessionByCookieHash(ctx context.Context, hash string) (*ConsentSession, error)
	// SignIn binds a session to a seller with a new cookie and one-time
	// code, unless it was consumed meanwhile.
	SignIn(ctx context.Context, sessionID, sellerID, cookieHash, otpHash string, otpExpires time.Time) error
	// OTPVerified marks the session's code as entered (and clears it).
	OTPVerified(ctx context.Context, sessionID string, at time.Time) error
	// ConsumeSession ends a session; false when it had ended already.
	ConsumeSession(ctx context.Context, sessionID string, at time.Time) (bool, error)

	LoginByUsername(ctx context.Context, username string) (*SellerLogin, error)
	LoginBySeller(ctx context.Context, sellerID string) (*SellerLogin, error)
	CreateLogin(ctx context.Context, l *SellerLogin, now time.Time) error
	// OTPFailed counts a wrong code; at the limit it locks the login until
	// lockUntil and starts the count again. It returns the count after.
	OTPFailed(ctx context.Context, loginID string, limit int, lockUntil, now time.Time) (locked bool, err error)
	OTPSucceeded(ctx context.Context, loginID string, now time.Time) error

	CreateCode(ctx context.Context, c *AuthCode, now time.Time) error
	CodeByHash(ctx context.Context, hash string) (*AuthCode, error)
	// UseCode marks a code used by the grant it created; false when it had
	// been used already.
	UseCode(ctx context.Context, codeID, authorizationID string, at time.Time) (bool, error)

	CreateGrant(ctx context.Context, g *Grant, now time.Time) error
	GrantByID(ctx context.Context, id string) (*Grant, error)
	GrantByRefreshHash(ctx context.Context, hash string) (*Grant, error)
	// ActiveGrants lists an app's grants of a seller that are not revoked.
	ActiveGrants(ctx context.Context, appID, sellerID string) ([]*Grant, error)
	// RotateTokens replaces a grant's token pair if its refresh token is
	// still oldRefreshHash, and retires the old refresh token; false when a
	// concurrent refresh rotated it first.
	RotateTokens(ctx context.Context, id, oldRefreshHash string, oldRefreshExpires time.Time, accessHash string, accessExpires time.Time, refreshHash string, refreshExpires, now time.Time) (bool, error)
	// RetiredRefreshGrant names the grant a retired refresh token belonged
	// to ("" when the token is not a retired one).
	RetiredRefreshGrant(ctx context.Context, hash string) (string, error)
	// RevokeGrant revokes a grant; false when it was revoked already.
	RevokeGrant(ctx context.Context, id string, at time.Time) (bool, error)
}
