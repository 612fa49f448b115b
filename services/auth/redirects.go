package auth

import (
	"net"
	"net/url"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// checkRedirectURI holds a redirect URI to what the consent flow can send a
// seller's browser to: absolute https, at most 2,048 characters, no
// fragment, no user info; a sandbox app may also use plain http on a
// loopback address (RFC 8252's local callback, partnerctl's among them).
// Matching at authorize is exact, so the URI is stored as given.
func checkRedirectURI(environment, raw string) error {
	bad := func(why string) error {
		return apierr.Newf(apierr.ValidationError, "redirect URI %q %s", raw, why)
	}
	if len(raw) > 2048 {
		return bad("is longer than 2,048 characters")
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		return bad("is not an absolute URL")
	}
	if u.Fragment != "" || u.RawFragment != "" || u.User != nil {
		return bad("may carry no fragment and no user info")
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if ip := net.ParseIP(u.Hostname()); environment == EnvSandbox && (u.Hostname() == "localhost" || ip != nil && ip.IsLoopback()) {
			return nil
		}
		return bad("must be https (a sandbox app may use http on a loopback address)")
	}
	return bad("must be https")
}
