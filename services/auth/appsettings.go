package auth

import "github.com/mallplatform/partnerapi/internal/apierr"

// CheckAppSettings checks an app's scopes and redirect URIs (known scopes;
// https redirect URIs, or http on a loopback address for a sandbox app),
// when an app is created and when a caller changes them on an existing one.
func CheckAppSettings(environment string, scopes, redirectURIs []string) error {
	for _, sc := range scopes {
		if !knownScope(sc) {
			return apierr.Newf(apierr.ValidationError, "unknown scope %q", sc)
		}
	}
	for _, u := range redirectURIs {
		if err := checkRedirectURI(environment, u); err != nil {
			return err
		}
	}
	return nil
}
