package auth

import (
	"context"
	"errors"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/app"
	"github.com/mallplatform/partnerapi/ent/sellerauthorization"
	"github.com/mallplatform/partnerapi/internal/db"
)

// EntStore is Store on ent. Every method runs in the transaction ctx
// carries, if any (db.Client), so its writes commit or roll back with the
// caller's.
type EntStore struct {
	client *ent.Client
}

// NewEntStore returns the ent-backed store.
func NewEntStore(client *ent.Client) *EntStore { return &EntStore{client: client} }

func (s *EntStore) db(ctx context.Context) *ent.Client { return db.Client(ctx, s.client) }

// AppByClientID loads an app and its account's rate override.
func (s *EntStore) AppByClientID(ctx context.Context, clientID string) (*App, error) {
	row, err := s.db(ctx).App.Query().Where(app.ClientID(clientID)).WithAccount().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, notFoundError{"app"}
	}
	if err != nil {
		return nil, err
	}
	a := &App{
		ID:                 row.ID,
		ClientID:           row.ClientID,
		Name:               row.Name,
		AccountID:          row.AccountID,
		Environment:        string(row.Environment),
		Scopes:             row.Scopes,
		Active:             row.Active,
		RateLimitPerMinute: row.RateLimitPerMinute,
		SecretCiphertext:   row.SecretCiphertext,
		PreviousExpiresAt:  row.PreviousSecretExpiresAt,
		SecretCreatedAt:    row.SecretCreatedAt,
		CreatedAt:          row.CreatedAt,
		RedirectURIs:       row.RedirectUris,
	}
	if row.PreviousSecretCiphertext != nil {
		a.PreviousCiphertext = *row.PreviousSecretCiphertext
	}
	if row.Edges.Account != nil {
		a.AccountRateLimitPerMinute = row.Edges.Account.RateLimitPerMinute
	}
	return a, nil
}

// AuthorizationByAccessHash finds a grant by its access token's hash.
func (s *EntStore) AuthorizationByAccessHash(ctx context.Context, hash string) (*Authorization, error) {
	row, err := s.db(ctx).SellerAuthorization.Query().Where(sellerauthorization.AccessTokenHash(hash)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, notFoundError{"authorization"}
	}
	if err != nil {
		return nil, err
	}
	return &Authorization{
		ID:               row.ID,
		AppID:            row.AppID,
		SellerID:         row.SellerID,
		Scopes:           row.Scopes,
		AccessTokenHash:  row.AccessTokenHash,
		AccessExpiresAt:  row.AccessExpiresAt,
		RefreshTokenHash: row.RefreshTokenHash,
		RefreshExpiresAt: row.RefreshExpiresAt,
		RevokedAt:        row.RevokedAt,
	}, nil
}

// CreateAccount inserts a developer account.
func (s *EntStore) CreateAccount(ctx context.Context, a *Account, now time.Time) error {
	return s.db(ctx).DeveloperAccount.Create().
		SetID(a.ID).SetName(a.Name).SetEmail(a.Email).
		SetNillableRateLimitPerMinute(a.RateLimitPerMinute).
		SetCreatedAt(now).Exec(ctx)
}

// CreateApp inserts an app (the developer console counts an account's apps
// and creates one in one transaction).
func (s *EntStore) CreateApp(ctx context.Context, a *App, now time.Time) error {
	c := s.db(ctx).App.Create().
		SetID(a.ID).SetClientID(a.ClientID).SetName(a.Name).SetAccountID(a.AccountID).
		SetEnvironment(app.Environment(a.Environment)).SetScopes(a.Scopes).SetActive(a.Active).
		SetNillableRateLimitPerMinute(a.RateLimitPerMinute).
		SetSecretCiphertext(a.SecretCiphertext).SetSecretCreatedAt(now).
		SetRedirectUris(nonNil(a.RedirectURIs)).
		SetCreatedAt(now).SetUpdatedAt(now)
	return c.Exec(ctx)
}

// CreateSeller inserts a shop.
func (s *EntStore) CreateSeller(ctx context.Context, sl *Seller, now time.Time) error {
	return s.db(ctx).Seller.Create().
		SetID(sl.ID).SetName(sl.Name).SetShopName(sl.ShopName).SetTestShop(sl.TestShop).
		SetCreatedAt(now).Exec(ctx)
}

// CreateAuthorization inserts a grant.
func (s *EntStore) CreateAuthorization(ctx context.Context, a *Authorization, now time.Time) error {
	return s.db(ctx).SellerAuthorization.Create().
		SetID(a.ID).SetAppID(a.AppID).SetSellerID(a.SellerID).SetScopes(a.Scopes).
		SetAccessTokenHash(a.AccessTokenHash).SetAccessExpiresAt(a.AccessExpiresAt).
		SetRefreshTokenHash(a.RefreshTokenHash).SetRefreshExpiresAt(a.RefreshExpiresAt).
		// An operator's grant ends with its refresh token.
		SetGrantExpiresAt(a.RefreshExpiresAt).
		SetCreatedAt(now).Exec(ctx)
}

// CountApps counts every app (the dev role seeds only an empty database).
func (s *EntStore) CountApps(ctx context.Context) (int, error) {
	return s.db(ctx).App.Query().Count(ctx)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func isNotFound(err error) bool {
	var nf notFoundError
	return errors.As(err, &nf)
}

// RotateSecret moves the current secret to the previous slot and stores the
// new one in one UPDATE whose previous secret is the row's secret_ciphertext
// as the statement finds it: no request sees neither secret, and of two
// concurrent rotations the second (PostgreSQL re-reads the row it waited
// for; SQLite runs one writer at a time) keeps the first one's secret as
// its previous one rather than a secret read before the first committed.
func (s *EntStore) RotateSecret(ctx context.Context, appID string, newCiphertext []byte, previousExpires, now time.Time) error {
	n, err := s.db(ctx).App.Update().Where(app.ID(appID)).
		Modify(func(u *sql.UpdateBuilder) {
			u.Set(app.FieldPreviousSecretCiphertext, sql.ExprFunc(func(b *sql.Builder) { b.Ident(app.FieldSecretCiphertext) }))
		}).
		SetPreviousSecretExpiresAt(previousExpires).
		SetSecretCiphertext(newCiphertext).
		SetSecretCreatedAt(now).
		SetUpdatedAt(now).Save(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return notFoundError{"app"}
	}
	return nil
}

// SetAppActive flips an app's active flag.
func (s *EntStore) SetAppActive(ctx context.Context, appID string, active bool, now time.Time) error {
	err := s.db(ctx).App.UpdateOneID(appID).SetActive(active).SetUpdatedAt(now).Exec(ctx)
	if ent.IsNotFound(err) {
		return notFoundError{"app"}
	}
	return err
}
