package auth

import (
	"context"
	"fmt"
	"time"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/authorizationcode"
	"github.com/mallplatform/partnerapi/ent/authorizationsession"
	"github.com/mallplatform/partnerapi/ent/retiredrefreshtoken"
	"github.com/mallplatform/partnerapi/ent/sellerauthorization"
	"github.com/mallplatform/partnerapi/ent/sellerlogin"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/ids"
)

// FlowEntStore is FlowStore on ent, on the transaction in the context when
// there is one.
type FlowEntStore struct {
	client *ent.Client
}

// NewFlowEntStore returns the ent-backed flow store.
func NewFlowEntStore(client *ent.Client) *FlowEntStore { return &FlowEntStore{client: client} }

func (s *FlowEntStore) db(ctx context.Context) *ent.Client { return db.Client(ctx, s.client) }

// InTx runs fn in a transaction.
func (s *FlowEntStore) InTx(ctx context.Context, fn func(ctx context.Context) error) error {
	return db.InTx(ctx, s.client, fn)
}

// AppByID loads an app.
func (s *FlowEntStore) AppByID(ctx context.Context, appID string) (*App, error) {
	row, err := s.db(ctx).App.Get(ctx, appID)
	if ent.IsNotFound(err) {
		return nil, notFoundError{"app"}
	}
	if err != nil {
		return nil, err
	}
	return &App{ID: row.ID, ClientID: row.ClientID, Name: row.Name, AccountID: row.AccountID,
		Environment: string(row.Environment), Scopes: row.Scopes, Active: row.Active, RedirectURIs: row.RedirectUris}, nil
}

// CreateSession inserts a consent session.
func (s *FlowEntStore) CreateSession(ctx context.Context, cs *ConsentSession, now time.Time) error {
	return s.db(ctx).AuthorizationSession.Create().
		SetID(cs.ID).SetTokenHash(cs.TokenHash).SetAppID(cs.AppID).SetRedirectURI(cs.RedirectURI).
		SetState(cs.State).SetScopes(nonNil(cs.Scopes)).SetCodeChallenge(cs.CodeChallenge).
		SetExpiresAt(cs.ExpiresAt).SetCreatedAt(now).Exec(ctx)
}

func sessionFromEnt(r *ent.AuthorizationSession) *ConsentSession {
	return &ConsentSession{ID: r.ID, TokenHash: r.TokenHash, AppID: r.AppID, RedirectURI: r.RedirectURI, State: r.State,
		Scopes: r.Scopes, CodeChallenge: r.CodeChallenge, ExpiresAt: r.ExpiresAt, SellerID: r.SellerID,
		CookieHash: r.CookieHash, OTPHash: r.OtpHash, OTPExpiresAt: r.OtpExpiresAt, OTPVerifiedAt: r.OtpVerifiedAt,
		ConsumedAt: r.ConsumedAt}
}

// SessionByTokenHash finds a session by its link's token.
func (s *FlowEntStore) SessionByTokenHash(ctx context.Context, hash string) (*ConsentSession, error) {
	r, err := s.db(ctx).AuthorizationSession.Query().Where(authorizationsession.TokenHash(hash)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, notFoundError{"session"}
	}
	if err != nil {
		return nil, fmt.Errorf("auth: session: %w", err)
	}
	return sessionFromEnt(r), nil
}

// SessionByCookieHash finds a session by its cookie.
func (s *FlowEntStore) SessionByCookieHash(ctx context.Context, hash string) (*ConsentSession, error) {
	r, err := s.db(ctx).AuthorizationSession.Query().Where(authorizationsession.CookieHash(hash)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, notFoundError{"session"}
	}
	if err != nil {
		return nil, fmt.Errorf("auth: session: %w", err)
	}
	return sessionFromEnt(r), nil
}

// SignIn binds the session to the seller.
func (s *FlowEntStore) SignIn(ctx context.Context, sessionID, sellerID, cookieHash, otpHash string, otpExpires time.Time) error {
	n, err := s.db(ctx).AuthorizationSession.Update().
		Where(authorizationsession.ID(sessionID), authorizationsession.ConsumedAtIsNil()).
		SetSellerID(sellerID).SetCookieHash(cookieHash).SetOtpHash(otpHash).SetOtpExpiresAt(otpExpires).
		ClearOtpVerifiedAt().Save(ctx)
	if err != nil {
		return fmt.Errorf("auth: sign in: %w", err)
	}
	if n == 0 {
		return notFoundError{"session"}
	}
	return nil
}

// OTPVerified marks the code entered.
func (s *FlowEntStore) OTPVerified(ctx context.Context, sessionID string, at time.Time) error {
	return s.db(ctx).AuthorizationSession.UpdateOneID(sessionID).SetOtpVerifiedAt(at).ClearOtpHash().Exec(ctx)
}

// ConsumeSession ends a session once.
func (s *FlowEntStore) ConsumeSession(ctx context.Context, sessionID string, at time.Time) (bool, error) {
	n, err := s.db(ctx).AuthorizationSession.Update().
		Where(authorizationsession.ID(sessionID), authorizationsession.ConsumedAtIsNil()).
		SetConsumedAt(at).Save(ctx)
	if err != nil {
		return false, fmt.Errorf("auth: consume session: %w", err)
	}
	return n == 1, nil
}

func (s *FlowEntStore) loginFrom(ctx context.Context, r *ent.SellerLogin) (*SellerLogin, error) {
	seller, err := s.db(ctx).Seller.Get(ctx, r.SellerID)
	if err != nil {
		return nil, fmt.Errorf("auth: login's seller: %w", err)
	}
	return &SellerLogin{ID: r.ID, SellerID: r.SellerID, Username: r.Username, PasswordHash: r.PasswordHash,
		Destination: r.OtpDestination, FixedOTPHash: r.FixedOtpHash, OTPFailures: r.OtpFailures,
		LockedUntil: r.LockedUntil, TestShop: seller.TestShop}, nil
}

// LoginByUsername finds a login by its lowercased username.
func (s *FlowEntStore) LoginByUsername(ctx context.Context, username string) (*SellerLogin, error) {
	r, err := s.db(ctx).SellerLogin.Query().Where(sellerlogin.Username(username)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, notFoundError{"login"}
	}
	if err != nil {
		return nil, fmt.Errorf("auth: login: %w", err)
	}
	return s.loginFrom(ctx, r)
}

// LoginBySeller finds a seller's login.
func (s *FlowEntStore) LoginBySeller(ctx context.Context, sellerID string) (*SellerLogin, error) {
	r, err := s.db(ctx).SellerLogin.Query().Where(sellerlogin.SellerID(sellerID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, notFoundError{"login"}
	}
	if err != nil {
		return nil, fmt.Errorf("auth: login: %w", err)
	}
	return s.loginFrom(ctx, r)
}

// CreateLogin inserts a seller's login.
func (s *FlowEntStore) CreateLogin(ctx context.Context, l *SellerLogin, now time.Time) error {
	return s.db(ctx).SellerLogin.Create().
		SetID(l.ID).SetSellerID(l.SellerID).SetUsername(l.Username).SetPasswordHash(l.PasswordHash).
		SetOtpDestination(l.Destination).SetNillableFixedOtpHash(l.FixedOTPHash).
		SetCreatedAt(now).SetUpdatedAt(now).Exec(ctx)
}

// OTPFailed counts a wrong code, locking the login at the limit.
func (s *FlowEntStore) OTPFailed(ctx context.Context, loginID string, limit int, lockUntil, now time.Time) (bool, error) {
	c := s.db(ctx)
	if err := c.SellerLogin.UpdateOneID(loginID).AddOtpFailures(1).SetUpdatedAt(now).Exec(ctx); err != nil {
		return false, fmt.Errorf("auth: count wrong code: %w", err)
	}
	n, err := c.SellerLogin.Update().
		Where(sellerlogin.ID(loginID), sellerlogin.OtpFailuresGTE(limit)).
		SetOtpFailures(0).SetLockedUntil(lockUntil).SetUpdatedAt(now).Save(ctx)
	if err != nil {
		return false, fmt.Errorf("auth: lock login: %w", err)
	}
	return n == 1, nil
}

// OTPSucceeded clears the count of wrong codes.
func (s *FlowEntStore) OTPSucceeded(ctx context.Context, loginID string, now time.Time) error {
	return s.db(ctx).SellerLogin.UpdateOneID(loginID).SetOtpFailures(0).SetUpdatedAt(now).Exec(ctx)
}

// CreateCode inserts an authorization code.
func (s *FlowEntStore) CreateCode(ctx context.Context, c *AuthCode, now time.Time) error {
	return s.db(ctx).AuthorizationCode.Create().
		SetID(c.ID).SetCodeHash(c.CodeHash).SetAppID(c.AppID).SetSellerID(c.SellerID).SetRedirectURI(c.RedirectURI).
		SetScopes(nonNil(c.Scopes)).SetCodeChallenge(c.CodeChallenge).SetExpiresAt(c.ExpiresAt).
		SetCreatedAt(now).Exec(ctx)
}

// CodeByHash finds a code.
func (s *FlowEntStore) CodeByHash(ctx context.Context, hash string) (*AuthCode, error) {
	r, err := s.db(ctx).AuthorizationCode.Query().Where(authorizationcode.CodeHash(hash)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, notFoundError{"code"}
	}
	if err != nil {
		return nil, fmt.Errorf("auth: code: %w", err)
	}
	return &AuthCode{ID: r.ID, CodeHash: r.CodeHash, AppID: r.AppID, SellerID: r.SellerID, RedirectURI: r.RedirectURI,
		Scopes: r.Scopes, CodeChallenge: r.CodeChallenge, ExpiresAt: r.ExpiresAt, UsedAt: r.UsedAt,
		AuthorizationID: r.AuthorizationID}, nil
}

// UseCode marks a code used, once.
func (s *FlowEntStore) UseCode(ctx context.Context, codeID, authorizationID string, at time.Time) (bool, error) {
	n, err := s.db(ctx).AuthorizationCode.Update().
		Where(authorizationcode.ID(codeID), authorizationcode.UsedAtIsNil()).
		SetUsedAt(at).SetAuthorizationID(authorizationID).Save(ctx)
	if err != nil {
		return false, fmt.Errorf("auth: use code: %w", err)
	}
	return n == 1, nil
}

// CreateGrant inserts a grant and its first token pair.
func (s *FlowEntStore) CreateGrant(ctx context.Context, g *Grant, now time.Time) error {
	return s.db(ctx).SellerAuthorization.Create().
		SetID(g.ID).SetAppID(g.AppID).SetSellerID(g.SellerID).SetScopes(nonNil(g.Scopes)).
		SetAccessTokenHash(g.AccessTokenHash).SetAccessExpiresAt(g.AccessExpiresAt).
		SetRefreshTokenHash(g.RefreshTokenHash).SetRefreshExpiresAt(g.RefreshExpiresAt).
		SetGrantExpiresAt(g.ExpiresAt).SetCreatedAt(now).Exec(ctx)
}

func grantFromEnt(r *ent.SellerAuthorization) *Grant {
	g := &Grant{Authorization: Authorization{ID: r.ID, AppID: r.AppID, SellerID: r.SellerID, Scopes: r.Scopes,
		AccessTokenHash: r.AccessTokenHash, AccessExpiresAt: r.AccessExpiresAt, RefreshTokenHash: r.RefreshTokenHash,
		RefreshExpiresAt: r.RefreshExpiresAt, RevokedAt: r.RevokedAt}, ExpiresAt: r.RefreshExpiresAt, CreatedAt: r.CreatedAt}
	if r.GrantExpiresAt != nil {
		g.ExpiresAt = *r.GrantExpiresAt
	}
	return g
}

// GrantByID loads a grant.
func (s *FlowEntStore) GrantByID(ctx context.Context, id string) (*Grant, error) {
	r, err := s.db(ctx).SellerAuthorization.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, notFoundError{"authorization"}
	}
	if err != nil {
		return nil, fmt.Errorf("auth: grant: %w", err)
	}
	return grantFromEnt(r), nil
}

// GrantByRefreshHash finds the grant whose current refresh token this is.
func (s *FlowEntStore) GrantByRefreshHash(ctx context.Context, hash string) (*Grant, error) {
	r, err := s.db(ctx).SellerAuthorization.Query().Where(sellerauthorization.RefreshTokenHash(hash)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, notFoundError{"authorization"}
	}
	if err != nil {
		return nil, fmt.Errorf("auth: grant: %w", err)
	}
	return grantFromEnt(r), nil
}

// ActiveGrants lists an app's unrevoked grants of a seller.
func (s *FlowEntStore) ActiveGrants(ctx context.Context, appID, sellerID string) ([]*Grant, error) {
	rows, err := s.db(ctx).SellerAuthorization.Query().
		Where(sellerauthorization.AppID(appID), sellerauthorization.SellerID(sellerID), sellerauthorization.RevokedAtIsNil()).
		Order(ent.Asc(sellerauthorization.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("auth: grants: %w", err)
	}
	out := make([]*Grant, len(rows))
	for i, r := range rows {
		out[i] = grantFromEnt(r)
	}
	return out, nil
}

// RotateTokens swaps a grant's token pair if it is still the one refreshed.
func (s *FlowEntStore) RotateTokens(ctx context.Context, id, oldRefreshHash string, oldRefreshExpires time.Time, accessHash string, accessExpires time.Time, refreshHash string, refreshExpires, now time.Time) (bool, error) {
	c := s.db(ctx)
	n, err := c.SellerAuthorization.Update().
		Where(sellerauthorization.ID(id), sellerauthorization.RefreshTokenHash(oldRefreshHash), sellerauthorization.RevokedAtIsNil()).
		SetAccessTokenHash(accessHash).SetAccessExpiresAt(accessExpires).
		SetRefreshTokenHash(refreshHash).SetRefreshExpiresAt(refreshExpires).Save(ctx)
	if err != nil {
		return false, fmt.Errorf("auth: rotate tokens: %w", err)
	}
	if n == 0 {
		return false, nil
	}
	if err := c.RetiredRefreshToken.Create().SetID(ids.NewAt("rrt", now)).SetTokenHash(oldRefreshHash).
		SetAuthorizationID(id).SetExpiresAt(oldRefreshExpires).SetCreatedAt(now).Exec(ctx); err != nil {
		return false, fmt.Errorf("auth: retire refresh token: %w", err)
	}
	return true, nil
}

// RetiredRefreshGrant names the grant of a retired refresh token.
func (s *FlowEntStore) RetiredRefreshGrant(ctx context.Context, hash string) (string, error) {
	r, err := s.db(ctx).RetiredRefreshToken.Query().Where(retiredrefreshtoken.TokenHash(hash)).Only(ctx)
	if ent.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("auth: retired refresh token: %w", err)
	}
	return r.AuthorizationID, nil
}

// RevokeGrant revokes a grant once.
func (s *FlowEntStore) RevokeGrant(ctx context.Context, id string, at time.Time) (bool, error) {
	n, err := s.db(ctx).SellerAuthorization.Update().
		Where(sellerauthorization.ID(id), sellerauthorization.RevokedAtIsNil()).
		SetRevokedAt(at).Save(ctx)
	if err != nil {
		return false, fmt.Errorf("auth: revoke: %w", err)
	}
	return n == 1, nil
}

// FlowRetention is how long the flow's spent rows are kept past their own
// expiry: consent sessions, authorization codes (a code presented again
// within it still revokes what it issued) and retired refresh tokens.
const FlowRetention = 24 * time.Hour

// Purge deletes the flow's rows that expired before the given time (the
// worker's retention job, with FlowRetention).
func (s *FlowEntStore) Purge(ctx context.Context, before time.Time) (int, error) {
	c := s.db(ctx)
	sessions, err := c.AuthorizationSession.Delete().Where(authorizationsession.ExpiresAtLT(before)).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("auth: purge sessions: %w", err)
	}
	codes, err := c.AuthorizationCode.Delete().Where(authorizationcode.ExpiresAtLT(before)).Exec(ctx)
	if err != nil {
		return sessions, fmt.Errorf("auth: purge codes: %w", err)
	}
	retired, err := c.RetiredRefreshToken.Delete().Where(retiredrefreshtoken.ExpiresAtLT(before)).Exec(ctx)
	if err != nil {
		return sessions + codes, fmt.Errorf("auth: purge retired refresh tokens: %w", err)
	}
	return sessions + codes + retired, nil
}
