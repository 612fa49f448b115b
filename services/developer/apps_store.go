package developer

import (
	"context"
	"time"
)

// AppView is an app as the console lists it: never a secret.
type AppView struct {
	ID                      string
	ClientID                string
	Name                    string
	Environment             string
	Scopes                  []string
	RedirectURIs            []string
	Active                  bool
	SecretCreatedAt         time.Time
	PreviousSecretExpiresAt *time.Time
	CreatedAt               time.Time
}

// AppStore reads an account's apps; the auth domain's steps write them.
type AppStore interface {
	// LockAccount holds the account's row until the transaction ctx
	// carries ends, so two creations in one account count one after the
	// other (ErrNotFound for no account).
	LockAccount(ctx context.Context, accountID string) error
	// Apps lists the account's apps, oldest first.
	Apps(ctx context.Context, accountID string) ([]AppView, error)
	// App reads one of the account's apps (ErrNotFound for another
	// account's).
	App(ctx context.Context, accountID, appID string) (AppView, error)
	// UpdateApp replaces one of the account's apps' name, scopes and
	// redirect URIs (ErrNotFound for another account's).
	UpdateApp(ctx context.Context, accountID, appID string, in AppChange, now time.Time) error
	// DeactivateApp turns one of the account's apps off (ErrNotFound).
	DeactivateApp(ctx context.Context, accountID, appID string, now time.Time) error
	// DeleteApp removes one of the account's apps with the rows that name
	// it: grants and their retired refresh tokens, consent flow sessions
	// and codes, webhook subscriptions and deliveries (ErrNotFound).
	DeleteApp(ctx context.Context, accountID, appID string) error
}
