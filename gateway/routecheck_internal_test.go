package gateway

import (
	"strings"
	"testing"

	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
	"github.com/mallplatform/partnerapi/internal/policy"
)

func TestCheckRoutesRefusesWhatItCannotEnforce(t *testing.T) {
	route := func(p *optionsv1.Policy) *policy.Route {
		return &policy.Route{HTTPMethod: "POST", Template: "/open/v1/auth/seller-verify", Method: &policy.Method{Policy: p}}
	}
	if err := checkRoutes([]*policy.Route{route(&optionsv1.Policy{Scope: "orders:read"})}); err != nil {
		t.Fatalf("an HMAC route: %v", err)
	}
	for name, p := range map[string]*optionsv1.Policy{
		"no policy":    nil,
		"no signing":   {Auth: optionsv1.Auth_AUTH_NONE},
		"session auth": {Auth: optionsv1.Auth_AUTH_SESSION},
	} {
		err := checkRoutes([]*policy.Route{route(p)})
		if err == nil || !strings.Contains(err.Error(), "/open/v1/auth/seller-verify") {
			t.Errorf("%s: %v, want a refusal naming the route", name, err)
		}
	}
}
