package gateway

import (
	"net/http"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	openapiv1 "github.com/mallplatform/partnerapi/gen/mp/openapi/v1"
	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
	"github.com/mallplatform/partnerapi/internal/policy"
)

func TestCheckRoutesRefusesWhatItCannotEnforce(t *testing.T) {
	route := func(p *optionsv1.Policy) *policy.Route {
		return &policy.Route{HTTPMethod: "POST", Template: "/open/v1/auth/seller-verify", Method: &policy.Method{Policy: p}}
	}
	if err := checkRoutes([]*policy.Route{route(&optionsv1.Policy{Scope: "orders:read"})}, nil); err != nil {
		t.Fatalf("an HMAC route: %v", err)
	}
	for name, p := range map[string]*optionsv1.Policy{
		"no policy":    nil,
		"no signing":   {Auth: optionsv1.Auth_AUTH_NONE},
		"session auth": {Auth: optionsv1.Auth_AUTH_SESSION},
	} {
		err := checkRoutes([]*policy.Route{route(p)}, nil)
		if err == nil || !strings.Contains(err.Error(), "/open/v1/auth/seller-verify") {
			t.Errorf("%s: %v, want a refusal naming the route", name, err)
		}
	}
}

// The gateway answers the routes of gateway-owned services itself, unsigned:
// only with a handler, and only when the policy asks for nothing an unsigned
// request cannot give.
func TestCheckRoutesGatewayOwned(t *testing.T) {
	table, err := policy.Load()
	if err != nil {
		t.Fatal(err)
	}
	m, ok := table.Method(openapiv1.OpenAPIService_GetDocument_FullMethodName)
	if !ok || len(m.Routes) != 1 || !m.GatewayOwned() {
		t.Fatalf("the document's method is not a gateway-owned route: %+v", m)
	}
	handler := map[string]http.HandlerFunc{m.FullMethod: func(http.ResponseWriter, *http.Request) {}}
	if err := checkRoutes(m.Routes, handler); err != nil {
		t.Fatalf("the document's route with its handler: %v", err)
	}
	if err := checkRoutes(m.Routes, nil); err == nil {
		t.Error("a gateway-owned route without a handler was accepted")
	}
	if err := checkRoutes(nil, handler); err == nil {
		t.Error("a handler without a route was accepted")
	}
	hmacRoute := route0(table, "/mp.auth.v1.AuthService/GetUsage")
	if err := checkRoutes([]*policy.Route{hmacRoute}, map[string]http.HandlerFunc{hmacRoute.Method.FullMethod: handler[m.FullMethod]}); err == nil {
		t.Error("a handler for a method core serves was accepted")
	}
	for name, p := range map[string]*optionsv1.Policy{
		"signed":       {},
		"scope":        {Auth: optionsv1.Auth_AUTH_NONE, Scope: "orders:read"},
		"seller token": {Auth: optionsv1.Auth_AUTH_NONE, SellerToken: true},
		"sandbox":      {Auth: optionsv1.Auth_AUTH_NONE, Sandbox: true},
		"idempotency":  {Auth: optionsv1.Auth_AUTH_NONE, Idempotency: optionsv1.Idempotency_IDEMPOTENCY_OPTIONAL},
	} {
		changed := *m
		changed.Policy = proto.Clone(p).(*optionsv1.Policy)
		rt := *m.Routes[0]
		rt.Method = &changed
		if err := checkRoutes([]*policy.Route{&rt}, handler); err == nil {
			t.Errorf("%s: an owned route declaring it was accepted", name)
		}
	}
}

func route0(table *policy.Table, fullMethod string) *policy.Route {
	m, _ := table.Method(fullMethod)
	return m.Routes[0]
}
