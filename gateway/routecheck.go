package gateway

import (
	"fmt"
	"net/http"

	"google.golang.org/protobuf/reflect/protoreflect"

	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
	"github.com/mallplatform/partnerapi/internal/policy"
)

// checkRoutes refuses to start on a route the gateway cannot guard as its
// policy says: one without a policy, or one whose policy names an
// authentication the gateway does not implement yet. A declared rule is
// either enforced or the gateway does not start; it never serves a route
// more openly than declared.
//
// Unsigned (AUTH_NONE) routes are implemented for the routes the gateway
// answers itself (owned, from services declared CALLERS_NONE_GATEWAY_OWNED)
// and for core's routes of the consent flow, as are session (AUTH_SESSION)
// routes for core's: such a route has no signed app, so its policy may name
// no scope, seller token, sandbox limit or idempotency, which would need
// one. Every gateway-owned method needs a handler in owned, and every
// handler a gateway-owned method.
//
// A response with a location field (fields) is a redirect: its route must
// declare a 3xx success status, and a 3xx route of core's must have such a
// field to send as the Location header (a gateway-owned route's handler
// writes its own).
func checkRoutes(routes []*policy.Route, owned map[string]http.HandlerFunc, fields map[protoreflect.FullName]*policy.ResponseFields) error {
	handled := map[string]bool{}
	for _, rt := range routes {
		p := rt.Method.Policy
		if p == nil {
			return fmt.Errorf("gateway: route %s %s has no policy", rt.HTTPMethod, rt.Template)
		}
		_, hasHandler := owned[rt.Method.FullMethod]
		isOwned := rt.Method.GatewayOwned()
		switch {
		case isOwned && !hasHandler:
			return fmt.Errorf("gateway: route %s %s is declared gateway-owned but the gateway has no handler for %s", rt.HTTPMethod, rt.Template, rt.Method.FullMethod)
		case hasHandler && !isOwned:
			return fmt.Errorf("gateway: the gateway has a handler for %s, whose service is not declared gateway-owned", rt.Method.FullMethod)
		}
		handled[rt.Method.FullMethod] = true
		switch a := p.GetAuth(); {
		case a == optionsv1.Auth_AUTH_HMAC_UNSPECIFIED && !isOwned:
		case a == optionsv1.Auth_AUTH_CONSOLE && !rt.OnConsole():
			return fmt.Errorf("gateway: console route %s %s is not under %s, where the console cookie is sent", rt.HTTPMethod, rt.Template, policy.ConsolePrefix)
		case a == optionsv1.Auth_AUTH_NONE, (a == optionsv1.Auth_AUTH_SESSION || a == optionsv1.Auth_AUTH_CONSOLE) && !isOwned:
			if p.GetScope() != "" || p.GetSellerToken() || p.GetSellerTokenOptional() || p.GetSandbox() || p.GetReportsRateLimits() || p.GetIdempotency() != optionsv1.Idempotency_IDEMPOTENCY_NONE_UNSPECIFIED {
				return fmt.Errorf("gateway: %s route %s %s declares a scope, seller token, sandbox limit, rate-limit report or idempotency, which need a signed app", a, rt.HTTPMethod, rt.Template)
			}
		default:
			return fmt.Errorf("gateway: route %s %s declares authentication %s, which this gateway does not implement for it", rt.HTTPMethod, rt.Template, a)
		}
	}
	for _, rt := range routes {
		var rf *policy.ResponseFields
		if rt.Method.Desc != nil {
			rf = fields[rt.Method.Desc.Output().FullName()]
		}
		redirect := rt.Method.SuccessStatus() >= 300 && rt.Method.SuccessStatus() < 400
		switch {
		case rf != nil && rf.Location != nil && !redirect:
			return fmt.Errorf("gateway: route %s %s answers a location field but declares success status %d, not a redirect", rt.HTTPMethod, rt.Template, rt.Method.SuccessStatus())
		case redirect && !rt.Method.GatewayOwned() && (rf == nil || rf.Location == nil):
			return fmt.Errorf("gateway: route %s %s declares success status %d but its response has no location field for the Location header", rt.HTTPMethod, rt.Template, rt.Method.SuccessStatus())
		}
	}
	for m := range owned {
		if !handled[m] {
			return fmt.Errorf("gateway: the handler for %s has no route", m)
		}
	}
	return nil
}
