package developer

import (
	"context"
	"fmt"
	"time"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/app"
	"github.com/mallplatform/partnerapi/ent/authorizationcode"
	"github.com/mallplatform/partnerapi/ent/authorizationsession"
	"github.com/mallplatform/partnerapi/ent/developeraccount"
	"github.com/mallplatform/partnerapi/ent/retiredrefreshtoken"
	"github.com/mallplatform/partnerapi/ent/sellerauthorization"
	"github.com/mallplatform/partnerapi/ent/webhookdelivery"
	"github.com/mallplatform/partnerapi/ent/webhooksubscription"
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

// UpdateApp implements AppStore.
func (s *EntStore) UpdateApp(ctx context.Context, accountID, appID string, in AppChange, now time.Time) error {
	n, err := s.db(ctx).App.Update().Where(app.AccountID(accountID), app.ID(appID)).
		SetName(in.Name).SetScopes(in.Scopes).SetRedirectUris(in.RedirectURIs).SetUpdatedAt(now).Save(ctx)
	if err != nil {
		return fmt.Errorf("developer: update app: %w", err)
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// DeactivateApp implements AppStore.
func (s *EntStore) DeactivateApp(ctx context.Context, accountID, appID string, now time.Time) error {
	n, err := s.db(ctx).App.Update().Where(app.AccountID(accountID), app.ID(appID)).
		SetActive(false).SetUpdatedAt(now).Save(ctx)
	if err != nil {
		return fmt.Errorf("developer: deactivate app: %w", err)
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// DeleteApp implements AppStore: the rows that name the app go first (the
// grants are the app's foreign keys), then the app, all in the caller's
// transaction when ctx carries one.
func (s *EntStore) DeleteApp(ctx context.Context, accountID, appID string) error {
	c := s.db(ctx)
	n, err := c.App.Query().Where(app.AccountID(accountID), app.ID(appID)).Count(ctx)
	if err != nil {
		return fmt.Errorf("developer: delete app: %w", err)
	}
	if n == 0 {
		return ErrNotFound
	}
	grants, err := c.SellerAuthorization.Query().Where(sellerauthorization.AppID(appID)).IDs(ctx)
	if err != nil {
		return fmt.Errorf("developer: delete app: %w", err)
	}
	steps := []func() (int, error){
		func() (int, error) {
			return c.WebhookDelivery.Delete().Where(webhookdelivery.AppID(appID)).Exec(ctx)
		},
		func() (int, error) {
			return c.WebhookSubscription.Delete().Where(webhooksubscription.AppID(appID)).Exec(ctx)
		},
		func() (int, error) {
			return c.AuthorizationCode.Delete().Where(authorizationcode.AppID(appID)).Exec(ctx)
		},
		func() (int, error) {
			return c.AuthorizationSession.Delete().Where(authorizationsession.AppID(appID)).Exec(ctx)
		},
		func() (int, error) {
			return c.RetiredRefreshToken.Delete().Where(retiredrefreshtoken.AuthorizationIDIn(grants...)).Exec(ctx)
		},
		func() (int, error) {
			return c.SellerAuthorization.Delete().Where(sellerauthorization.AppID(appID)).Exec(ctx)
		},
		func() (int, error) { return c.App.Delete().Where(app.ID(appID)).Exec(ctx) },
	}
	for _, step := range steps {
		if _, err := step(); err != nil {
			return fmt.Errorf("developer: delete app: %w", err)
		}
	}
	return nil
}
