package developer

import (
	"context"
	"fmt"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/app"
	"github.com/mallplatform/partnerapi/ent/developeraccount"
)

var _ AppStore = (*EntStore)(nil)

// LockAccount implements AppStore: an UPDATE of the row to itself takes
// PostgreSQL's row lock until the transaction ends; SQLite's transactions
// already run one writer at a time.
func (s *EntStore) LockAccount(ctx context.Context, accountID string) error {
	c := s.db(ctx)
	r, err := c.DeveloperAccount.Query().Where(developeraccount.ID(accountID)).Only(ctx)
	if ent.IsNotFound(err) {
		return ErrNotFound
	}
	if err == nil {
		err = c.DeveloperAccount.UpdateOneID(accountID).SetName(r.Name).Exec(ctx)
	}
	if err != nil {
		return fmt.Errorf("developer: lock account: %w", err)
	}
	return nil
}

// Apps implements AppStore.
func (s *EntStore) Apps(ctx context.Context, accountID string) ([]AppView, error) {
	rows, err := s.db(ctx).App.Query().Where(app.AccountID(accountID)).Order(app.ByCreatedAt(), app.ByID()).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("developer: apps: %w", err)
	}
	out := make([]AppView, len(rows))
	for i, r := range rows {
		out[i] = appView(r)
	}
	return out, nil
}

// App implements AppStore.
func (s *EntStore) App(ctx context.Context, accountID, appID string) (AppView, error) {
	r, err := s.db(ctx).App.Query().Where(app.AccountID(accountID), app.ID(appID)).Only(ctx)
	if ent.IsNotFound(err) {
		return AppView{}, ErrNotFound
	}
	if err != nil {
		return AppView{}, fmt.Errorf("developer: app: %w", err)
	}
	return appView(r), nil
}

func appView(r *ent.App) AppView {
	v := AppView{ID: r.ID, ClientID: r.ClientID, Name: r.Name, Environment: string(r.Environment), Scopes: r.Scopes,
		RedirectURIs: r.RedirectUris, Active: r.Active, SecretCreatedAt: r.CreatedAt, CreatedAt: r.CreatedAt}
	if r.SecretCreatedAt != nil {
		v.SecretCreatedAt = *r.SecretCreatedAt
	}
	if r.PreviousSecretCiphertext != nil && r.PreviousSecretExpiresAt != nil {
		v.PreviousSecretExpiresAt = r.PreviousSecretExpiresAt
	}
	return v
}
