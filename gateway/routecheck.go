package gateway

import (
	"fmt"

	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
	"github.com/mallplatform/partnerapi/internal/policy"
)

// checkRoutes refuses to start on a route the gateway cannot guard as its
// policy says: one without a policy, or one whose policy names an
// authentication the gateway does not implement yet. A declared rule is
// either enforced or the gateway does not start; it never serves a route
// more openly than declared.
func checkRoutes(routes []*policy.Route) error {
	for _, rt := range routes {
		p := rt.Method.Policy
		if p == nil {
			return fmt.Errorf("gateway: route %s %s has no policy", rt.HTTPMethod, rt.Template)
		}
		if a := p.GetAuth(); a != optionsv1.Auth_AUTH_HMAC_UNSPECIFIED {
			return fmt.Errorf("gateway: route %s %s declares authentication %s, which this gateway does not implement", rt.HTTPMethod, rt.Template, a)
		}
	}
	return nil
}
