package gateway

import (
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/mallplatform/partnerapi/internal/policy"
)

// Every route of core's services is called from the gateway's own match:
// grpc-gateway's registrations serve each with the table's template, and
// each path variable fills its field whether set directly or through
// protoreflect.
func TestEveryCoreRouteResolvesToACall(t *testing.T) {
	table, err := policy.Load()
	if err != nil {
		t.Fatal(err)
	}
	conn, err := grpc.NewClient("passthrough:///core", grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	owned := map[string]bool{}
	for _, rt := range table.Routes() {
		if rt.Method.GatewayOwned() {
			owned[rt.Method.FullMethod] = true
		}
	}
	calls, err := coreCalls(table.Routes(), nil, conn)
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range table.Routes() {
		c, ok := calls[rt]
		if owned[rt.Method.FullMethod] {
			continue
		}
		if !ok {
			t.Errorf("%s %s: no call to core", rt.HTTPMethod, rt.Template)
			continue
		}
		if len(c.vars) != len(rt.Variables()) {
			t.Errorf("%s %s: %d path fields for %d variables", rt.HTTPMethod, rt.Template, len(c.vars), len(rt.Variables()))
		}
		for _, pv := range c.vars {
			if pv.index < 0 {
				t.Errorf("%s %s: %s is set through protoreflect, not its Go field", rt.HTTPMethod, rt.Template, pv.fd.Name())
			}
			for _, v := range []pathVar{pv, {fd: pv.fd, index: -1}} {
				m := c.input.New()
				v.set(m, "value-1")
				if got := m.Get(pv.fd).String(); got != "value-1" {
					t.Errorf("%s %s: %s = %q after set", rt.HTTPMethod, rt.Template, pv.fd.Name(), got)
				}
			}
		}
	}
}

func TestBindReadsVariablesInPathOrder(t *testing.T) {
	table, err := policy.Load()
	if err != nil {
		t.Fatal(err)
	}
	match := table.Match("GET", "/open/v1/orders/ord_42")
	if match.Status != 200 {
		t.Fatalf("status %d", match.Status)
	}
	if got := match.Bind(nil); len(got) != 1 || got[0] != "ord_42" {
		t.Errorf("Bind = %q", got)
	}
}
