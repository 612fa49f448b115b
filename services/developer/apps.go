package developer

import (
	"context"
	"errors"
	"time"

	"github.com/mallplatform/partnerapi/services/auth"
)

// Default limits per account (MP_CONSOLE_SANDBOX_APPS, MP_CONSOLE_LIVE_APPS).
const (
	DefaultSandboxApps = 5
	DefaultLiveApps    = 3
)

// Apps are the auth domain's steps the console creates and rotates apps
// through: sealing, the secret's form and the rotation overlap stay there.
type Apps interface {
	CreateApp(ctx context.Context, in auth.NewApp) (*auth.CreatedApp, error)
	RotateClientSecret(ctx context.Context, appID string) (string, time.Time, error)
	// AppCredentials unseals an app's secret (for its credentials file).
	AppCredentials(ctx context.Context, clientID string) (*auth.Credentials, error)
}

// NewApp is a console request for an app.
type NewApp struct {
	Name         string
	Environment  string
	Scopes       []string
	RedirectURIs []string
}

// CreatedApp is a new app with its secret, shown once.
type CreatedApp struct {
	App          AppView
	ClientSecret string
}

var errNoAppSteps = errors.New("developer: the service was built without the auth domain's app steps")

// CreateApp creates an app in the actor's account, within the account's
// limits; a live app needs an approved profile.
func (s *Service) CreateApp(ctx context.Context, c Caller, a Actor, in NewApp) (CreatedApp, error) {
	if s.apps == nil || s.appStore == nil {
		return CreatedApp{}, errNoAppSteps
	}
	if err := requireVerified(a); err != nil {
		return CreatedApp{}, err
	}
	if in.Environment != auth.EnvSandbox && in.Environment != auth.EnvProduction {
		return CreatedApp{}, validation("environment must be sandbox or production")
	}
	if err := authorize(a, appAction(in.Environment)); err != nil {
		return CreatedApp{}, err
	}
	if in.Environment == auth.EnvProduction {
		acct, err := s.store.Account(ctx, a.Member.AccountID)
		if err != nil {
			return CreatedApp{}, err
		}
		if acct.ProfileStatus != ProfileApproved {
			return CreatedApp{}, errNeedsApproval
		}
	}
	var out CreatedApp
	now := s.business.Business(ctx)
	err := s.store.InTx(ctx, func(ctx context.Context) error {
		if err := s.appStore.LockAccount(ctx, a.Member.AccountID); err != nil {
			return err
		}
		sandbox, live, err := s.store.CountApps(ctx, a.Member.AccountID)
		if err != nil {
			return err
		}
		switch {
		case in.Environment == auth.EnvSandbox && sandbox >= s.limits.SandboxApps:
			return errSandboxLimit
		case in.Environment == auth.EnvProduction && live >= s.limits.LiveApps:
			return errLiveLimit
		}
		made, err := s.apps.CreateApp(ctx, auth.NewApp{AccountID: a.Member.AccountID, Name: in.Name,
			Environment: in.Environment, Scopes: in.Scopes, RedirectURIs: in.RedirectURIs})
		if err != nil {
			return err
		}
		view, err := s.appStore.App(ctx, a.Member.AccountID, made.App.ID)
		if err != nil {
			return err
		}
		out = CreatedApp{App: view, ClientSecret: made.ClientSecret}
		return s.audit(ctx, c, a.Member.AccountID, a.User.ID, "app.created", made.App.ID, now)
	})
	return out, err
}

// Apps lists the actor's account's apps.
func (s *Service) Apps(ctx context.Context, a Actor) ([]AppView, error) {
	return s.appStore.Apps(ctx, a.Member.AccountID)
}

// App reads one of the actor's account's apps: APP_NOT_FOUND for any other.
func (s *Service) App(ctx context.Context, a Actor, appID string) (AppView, error) {
	v, err := s.appStore.App(ctx, a.Member.AccountID, appID)
	if errors.Is(err, ErrNotFound) {
		return AppView{}, errAppNotFound
	}
	return v, err
}

// RotateSecret rotates an app's secret with the platform's overlap: the
// previous one keeps verifying until the answer's time.
func (s *Service) RotateSecret(ctx context.Context, c Caller, a Actor, appID string) (string, time.Time, error) {
	if s.apps == nil || s.appStore == nil {
		return "", time.Time{}, errNoAppSteps
	}
	if err := requireVerified(a); err != nil {
		return "", time.Time{}, err
	}
	var secret string
	var expires time.Time
	now := s.business.Business(ctx)
	err := s.store.InTx(ctx, func(ctx context.Context) error {
		v, err := s.App(ctx, a, appID)
		if err != nil {
			return err
		}
		if err := authorize(a, appAction(v.Environment)); err != nil {
			return err
		}
		if secret, expires, err = s.apps.RotateClientSecret(ctx, appID); err != nil {
			return err
		}
		return s.audit(ctx, c, a.Member.AccountID, a.User.ID, "app.secret_rotated", appID, now)
	})
	return secret, expires, err
}
