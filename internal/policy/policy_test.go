package policy_test

import (
	"net/http"
	"strings"
	"testing"

	_ "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/credentials/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/payouts/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/sandbox/v1"
	"github.com/mallplatform/partnerapi/internal/policy"
)

func TestSpecEndpointPolicies(t *testing.T) {
	table, err := policy.Load()
	if err != nil {
		t.Fatal(err)
	}
	// Scope and seller-token columns of the spec's endpoint table.
	cases := []struct {
		verb, path, scope string
		seller            bool
		status            int
	}{
		{"GET", "/open/v1/categories", "catalog:read", false, 200},
		{"GET", "/open/v1/categories/100017/attributes", "catalog:read", false, 200},
		{"POST", "/open/v1/products", "catalog:write", true, 201},
		{"PUT", "/open/v1/products/prd_1", "catalog:write", true, 200},
		{"GET", "/open/v1/products", "catalog:read", true, 200},
		{"GET", "/open/v1/orders", "orders:read", true, 200},
		{"GET", "/open/v1/orders/ord_1", "orders:read", true, 200},
		{"GET", "/open/v1/usage", "", false, 200},
		{"GET", "/open/v1/payouts", "", false, 200},
		{"POST", "/open/v1/products/bulk", "catalog:write", true, 200},
		{"POST", "/open/v1/orders/bulk-cancel", "orders:write", true, 200},
	}
	for _, c := range cases {
		match := table.Match(c.verb, c.path)
		r, status := match.Route, match.Status
		if status != http.StatusOK || r == nil {
			t.Errorf("%s %s: no route (status %d)", c.verb, c.path, status)
			continue
		}
		m := r.Method
		if m.Scope() != c.scope || m.SellerToken() != c.seller || m.SuccessStatus() != c.status {
			t.Errorf("%s %s: scope=%q seller=%v status=%d, want %q %v %d", c.verb, c.path, m.Scope(), m.SellerToken(), m.SuccessStatus(), c.scope, c.seller, c.status)
		}
		if m.MaxBodyBytes() != 1048576 {
			t.Errorf("%s %s: body cap %d", c.verb, c.path, m.MaxBodyBytes())
		}
	}
}

func TestMatchMisses(t *testing.T) {
	table, err := policy.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		verb, path string
		status     int
	}{
		{"GET", "/open/v1/nothing", 404},
		{"GET", "/open/v1/orders/", 404},
		{"GET", "/open/v1/orders//", 404},
		{"GET", "/open/v1/categories/x/attributes/y", 404},
		{"DELETE", "/open/v1/orders/ord_1", 405},
		{"POST", "/open/v1/categories", 405},
		{"GET", "open/v1/orders", 404},
	} {
		if status := table.Match(c.verb, c.path).Status; status != c.status {
			t.Errorf("%s %s: status %d, want %d", c.verb, c.path, status, c.status)
		}
	}
}

// TestLiteralSegmentsWin checks that a literal segment owns its path over a
// variable in the same position, whatever the verb: bulk-cancel is never an
// order id, and the verbs allowed there are the literal route's.
func TestLiteralSegmentsWin(t *testing.T) {
	table, err := policy.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		verb, path, method string
		status             int
		allowed            string
	}{
		{"POST", "/open/v1/products/bulk", "/mp.catalog.v1.CatalogService/BulkCreateProducts", 200, ""},
		{"POST", "/open/v1/orders/bulk-cancel", "/mp.orders.v1.OrdersService/BulkCancelOrders", 200, ""},
		{"PUT", "/open/v1/products/bulk", "", 405, "POST"},
		{"GET", "/open/v1/orders/bulk-cancel", "", 405, "POST"},
		{"PUT", "/open/v1/products/prd_1", "/mp.catalog.v1.CatalogService/UpdateProduct", 200, ""},
		{"GET", "/open/v1/orders/ord_1", "/mp.orders.v1.OrdersService/GetOrder", 200, ""},
		{"POST", "/open/v1/orders/ord_1", "", 405, "GET"},
	} {
		match := table.Match(c.verb, c.path)
		r, status, allowed := match.Route, match.Status, match.Allowed
		if status != c.status {
			t.Errorf("%s %s: status %d, want %d", c.verb, c.path, status, c.status)
			continue
		}
		if c.method != "" && r.Method.FullMethod != c.method {
			t.Errorf("%s %s: routed to %s, want %s", c.verb, c.path, r.Method.FullMethod, c.method)
		}
		if got := strings.Join(allowed, ","); got != c.allowed {
			t.Errorf("%s %s: allowed %q, want %q", c.verb, c.path, got, c.allowed)
		}
	}
}

func TestInternalMethodsHaveEmptyPolicy(t *testing.T) {
	table, err := policy.Load()
	if err != nil {
		t.Fatal(err)
	}
	m, ok := table.Method("/mp.credentials.v1.CredentialService/GetAppCredentials")
	if !ok || len(m.Routes) != 0 || m.Policy == nil {
		t.Fatalf("internal method: %+v %v", m, ok)
	}
}

// TestPathRoutesBack: a route's template with each variable written as a
// segment no template has as a literal is a path the table routes to that
// route, with those segments as its variables' values.
func TestPathRoutesBack(t *testing.T) {
	table, err := policy.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range table.Routes() {
		path := rt.Path(func(name string) string { return "_" + name })
		match := table.Match(rt.HTTPMethod, path)
		if match.Route != rt {
			t.Errorf("%s %s: %s routes to %v (%d)", rt.HTTPMethod, rt.Template, path, match.Route, match.Status)
			continue
		}
		vars := rt.Variables()
		got := match.Bind(nil)
		if len(got) != len(vars) {
			t.Errorf("%s %s: bound %q for %q", rt.HTTPMethod, rt.Template, got, vars)
			continue
		}
		for i, name := range vars {
			if got[i] != "_"+name {
				t.Errorf("%s %s: variable %s bound %q", rt.HTTPMethod, rt.Template, name, got[i])
			}
		}
	}
}
