package gateway

import (
	"net/http"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	authv1 "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	openapiv1 "github.com/mallplatform/partnerapi/gen/mp/openapi/v1"
	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
	"github.com/mallplatform/partnerapi/internal/policy"
)

func TestCheckRoutesRefusesWhatItCannotEnforce(t *testing.T) {
	route := func(p *optionsv1.Policy) *policy.Route {
		return &policy.Route{HTTPMethod: "POST", Template: "/open/v1/auth/seller-verify", Method: &policy.Method{Policy: p}}
	}
	for name, p := range map[string]*optionsv1.Policy{
		"signed":       {Scope: "orders:read"},
		"no signing":   {Auth: optionsv1.Auth_AUTH_NONE},
		"session auth": {Auth: optionsv1.Auth_AUTH_SESSION},
	} {
		if err := checkRoutes([]*policy.Route{route(p)}, nil, nil); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	refused := map[string]*optionsv1.Policy{
		"no policy":       nil,
		"an unknown auth": {Auth: optionsv1.Auth(99)},
	}
	for _, a := range []optionsv1.Auth{optionsv1.Auth_AUTH_NONE, optionsv1.Auth_AUTH_SESSION} {
		refused[a.String()+" with a scope"] = &optionsv1.Policy{Auth: a, Scope: "orders:read"}
		refused[a.String()+" with a seller token"] = &optionsv1.Policy{Auth: a, SellerToken: true}
		refused[a.String()+" with an optional seller token"] = &optionsv1.Policy{Auth: a, SellerTokenOptional: true}
		refused[a.String()+" with the sandbox limit"] = &optionsv1.Policy{Auth: a, Sandbox: true}
		refused[a.String()+" reporting rate limits"] = &optionsv1.Policy{Auth: a, ReportsRateLimits: true}
		refused[a.String()+" with idempotency"] = &optionsv1.Policy{Auth: a, Idempotency: optionsv1.Idempotency_IDEMPOTENCY_REQUIRED}
	}
	for name, p := range refused {
		err := checkRoutes([]*policy.Route{route(p)}, nil, nil)
		if err == nil || !strings.Contains(err.Error(), "/open/v1/auth/seller-verify") {
			t.Errorf("%s: %v, want a refusal naming the route", name, err)
		}
	}
}

// A response's location field makes its route a redirect: the route must
// declare a 3xx status, and a 3xx route must have the field.
func TestCheckRoutesRedirects(t *testing.T) {
	table, err := policy.Load()
	if err != nil {
		t.Fatal(err)
	}
	fields, err := responseFieldPlans(table.Routes())
	if err != nil {
		t.Fatal(err)
	}
	authorize := route0(table, authv1.AuthorizationService_Authorize_FullMethodName)
	if err := checkRoutes([]*policy.Route{authorize}, nil, fields); err != nil {
		t.Fatalf("authorize: %v", err)
	}
	with := func(rt *policy.Route, status int32) *policy.Route {
		m := *rt.Method
		m.Policy = proto.Clone(m.Policy).(*optionsv1.Policy)
		m.Policy.SuccessStatus = status
		r := *rt
		r.Method = &m
		return &r
	}
	if err := checkRoutes([]*policy.Route{with(authorize, 200)}, nil, fields); err == nil {
		t.Error("a location field on a 200 route was accepted")
	}
	if err := checkRoutes([]*policy.Route{with(route0(table, "/mp.auth.v1.AuthService/GetUsage"), 302)}, nil, fields); err == nil {
		t.Error("a 302 route without a location field was accepted")
	}
	rf := fields[authorize.Method.Desc.Output().FullName()]
	if rf == nil || len(rf.Location) != 2 || rf.Location[1].Name() != "location" {
		t.Errorf("authorize's location field: %+v", rf)
	}
	verify := route0(table, authv1.AuthorizationService_VerifySeller_FullMethodName)
	if rf := fields[verify.Method.Desc.Output().FullName()]; rf == nil || len(rf.Cookies) != 1 || rf.Location != nil {
		t.Errorf("seller-verify's cookie field: %+v", rf)
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
	if err := checkRoutes(m.Routes, handler, nil); err != nil {
		t.Fatalf("the document's route with its handler: %v", err)
	}
	if err := checkRoutes(m.Routes, nil, nil); err == nil {
		t.Error("a gateway-owned route without a handler was accepted")
	}
	if err := checkRoutes(nil, handler, nil); err == nil {
		t.Error("a handler without a route was accepted")
	}
	hmacRoute := route0(table, "/mp.auth.v1.AuthService/GetUsage")
	if err := checkRoutes([]*policy.Route{hmacRoute}, map[string]http.HandlerFunc{hmacRoute.Method.FullMethod: handler[m.FullMethod]}, nil); err == nil {
		t.Error("a handler for a method core serves was accepted")
	}
	for name, p := range map[string]*optionsv1.Policy{
		"signed":       {},
		"session":      {Auth: optionsv1.Auth_AUTH_SESSION},
		"scope":        {Auth: optionsv1.Auth_AUTH_NONE, Scope: "orders:read"},
		"seller token": {Auth: optionsv1.Auth_AUTH_NONE, SellerToken: true},
		"sandbox":      {Auth: optionsv1.Auth_AUTH_NONE, Sandbox: true},
		"idempotency":  {Auth: optionsv1.Auth_AUTH_NONE, Idempotency: optionsv1.Idempotency_IDEMPOTENCY_OPTIONAL},
	} {
		changed := *m
		changed.Policy = proto.Clone(p).(*optionsv1.Policy)
		rt := *m.Routes[0]
		rt.Method = &changed
		if err := checkRoutes([]*policy.Route{&rt}, handler, nil); err == nil {
			t.Errorf("%s: an owned route declaring it was accepted", name)
		}
	}
}

func route0(table *policy.Table, fullMethod string) *policy.Route {
	m, _ := table.Method(fullMethod)
	return m.Routes[0]
}
