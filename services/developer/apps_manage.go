package developer

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/auth"
)

// maxAppName bounds an app's name, in characters.
const maxAppName = 200

// AppChange is a console update of an app: each field replaces the app's.
type AppChange struct {
	Name         string
	Scopes       []string
	RedirectURIs []string
}

// UpdateApp changes an app's name, scopes and redirect URIs, checked as
// at creation.
func (s *Service) UpdateApp(ctx context.Context, c Caller, a Actor, appID string, in AppChange) (AppView, error) {
	if err := requireVerified(a); err != nil {
		return AppView{}, err
	}
	name := strings.TrimSpace(in.Name)
	if name == "" || utf8.RuneCountInString(name) > maxAppName {
		return AppView{}, validation("name must be 1 to 200 characters")
	}
	var out AppView
	now := s.business.Business(ctx)
	err := s.store.InTx(ctx, func(ctx context.Context) error {
		v, err := s.App(ctx, a, appID)
		if err != nil {
			return err
		}
		if err := authorize(a, appAction(v.Environment)); err != nil {
			return err
		}
		if err := auth.CheckAppSettings(v.Environment, in.Scopes, in.RedirectURIs); err != nil {
			return err
		}
		if err := s.appStore.UpdateApp(ctx, a.Member.AccountID, appID, AppChange{Name: name,
			Scopes: nonNil(in.Scopes), RedirectURIs: nonNil(in.RedirectURIs)}, s.clock.Now()); err != nil {
			return err
		}
		if out, err = s.appStore.App(ctx, a.Member.AccountID, appID); err != nil {
			return err
		}
		return s.audit(ctx, c, a.Member.AccountID, a.User.ID, "app.updated", appID, now)
	})
	return out, err
}

// DeactivateApp turns an app off: its signed calls answer FORBIDDEN. An
// inactive app is answered as it is, with no second audit entry.
func (s *Service) DeactivateApp(ctx context.Context, c Caller, a Actor, appID string) (AppView, error) {
	if err := requireVerified(a); err != nil {
		return AppView{}, err
	}
	var out AppView
	now := s.business.Business(ctx)
	err := s.store.InTx(ctx, func(ctx context.Context) error {
		v, err := s.App(ctx, a, appID)
		if err != nil {
			return err
		}
		if err := authorize(a, appAction(v.Environment)); err != nil {
			return err
		}
		if !v.Active {
			out = v
			return nil
		}
		if err := s.appStore.DeactivateApp(ctx, a.Member.AccountID, appID, s.clock.Now()); err != nil {
			return err
		}
		if out, err = s.appStore.App(ctx, a.Member.AccountID, appID); err != nil {
			return err
		}
		return s.audit(ctx, c, a.Member.AccountID, a.User.ID, "app.deactivated", appID, now)
	})
	return out, err
}

// DeleteApp deletes an app with its grants, consent flow rows and webhook
// subscriptions and deliveries.
func (s *Service) DeleteApp(ctx context.Context, c Caller, a Actor, appID string) error {
	if err := requireVerified(a); err != nil {
		return err
	}
	now := s.business.Business(ctx)
	return s.store.InTx(ctx, func(ctx context.Context) error {
		v, err := s.App(ctx, a, appID)
		if err != nil {
			return err
		}
		if err := authorize(a, appAction(v.Environment)); err != nil {
			return err
		}
		if err := s.appStore.DeleteApp(ctx, a.Member.AccountID, appID); err != nil {
			return err
		}
		return s.audit(ctx, c, a.Member.AccountID, a.User.ID, "app.deleted", appID, now)
	})
}

// AppCredentialsFile is an app's credentials file in the format partnerctl
// --credentials reads (sdk.Credentials): the API's base URL for the app's
// environment and, under the app's id, its client id, current secret
// (unsealed for this answer), scopes and redirect URIs. It holds no
// sellers. The download is audited.
func (s *Service) AppCredentialsFile(ctx context.Context, c Caller, a Actor, appID string) ([]byte, error) {
	if s.apps == nil || s.appStore == nil {
		return nil, errNoAppSteps
	}
	if err := requireVerified(a); err != nil {
		return nil, err
	}
	v, err := s.App(ctx, a, appID)
	if err != nil {
		return nil, err
	}
	if err := authorize(a, appAction(v.Environment)); err != nil {
		return nil, err
	}
	creds, err := s.apps.AppCredentials(ctx, v.ClientID)
	if err != nil {
		if e, ok := apierr.As(err); ok && e.Code == apierr.NotFound {
			return nil, errAppNotFound
		}
		return nil, err
	}
	if len(creds.Secrets) == 0 {
		return nil, errAppNotFound
	}
	file := sdk.Credentials{Environment: v.Environment, BaseURL: s.baseURL(v.Environment),
		Apps: map[string]sdk.AppCredentials{v.ID: {ClientID: v.ClientID, ClientSecret: string(creds.Secrets[0].Value),
			Scopes: nonNil(v.Scopes), RedirectURIs: v.RedirectURIs}},
		Sellers: []sdk.SellerCredentials{}}
	b, err := json.MarshalIndent(file, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := s.audit(ctx, c, a.Member.AccountID, a.User.ID, "app.credentials_downloaded", appID, s.business.Business(ctx)); err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// baseURL is the API's address for an environment: the configured one, or
// the console's own origin (the gateway serves the console and the API).
func (s *Service) baseURL(environment string) string {
	if u := s.apiURLs[environment]; u != "" {
		return u
	}
	u, _ := url.Parse(s.console)
	return u.Scheme + "://" + u.Host
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
