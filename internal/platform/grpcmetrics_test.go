package platform_test

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	"github.com/mallplatform/partnerapi/internal/testenv"
)

// The standard gRPC metrics count every call on both ends of the link, a
// call that core's own checks refuse included, with the code it got.
func TestGRPCServerAndClientMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	env := testenv.Start(t, testenv.Options{Metrics: reg})
	if r, err := env.Client(t, "full", 0).Call(context.Background(), "GET", "/open/v1/orders?limit=1", nil, nil); err != nil || r.Status != 200 {
		t.Fatalf("list: %v %v", r, err)
	}
	// A caller without a credential core knows.
	stranger := env.DialCore(t, "not-a-token-of-this-platform")
	_, err := ordersv1.NewOrdersServiceClient(stranger).ListOrders(context.Background(), &ordersv1.ListOrdersRequest{})
	if status.Code(err) != codes.Unauthenticated {
		t.Fatalf("stranger: %v", err)
	}
	const service, method = "mp.orders.v1.OrdersService", "ListOrders"
	for _, c := range []struct {
		metric, code string
		want         float64
	}{
		{"grpc_server_handled_total", "OK", 1},
		{"grpc_server_handled_total", "Unauthenticated", 1},
		{"grpc_client_handled_total", "OK", 1},
	} {
		got := sumOf(t, reg, c.metric, map[string]string{"grpc_service": service, "grpc_method": method, "grpc_code": c.code})
		if got != c.want {
			t.Errorf("%s{grpc_code=%q} = %v, want %v", c.metric, c.code, got, c.want)
		}
	}
	if got := sumOf(t, reg, "mp_core_rpc_duration_seconds", map[string]string{"method": "/" + service + "/" + method}); got != 2 {
		t.Errorf("mp_core_rpc_duration_seconds counts %v ListOrders calls, want 2", got)
	}
	if problems, err := testutil.GatherAndLint(reg); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}

func sumOf(t *testing.T, reg *prometheus.Registry, name string, want map[string]string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	next:
		for _, m := range f.GetMetric() {
			have := map[string]string{}
			for _, lp := range m.GetLabel() {
				have[lp.GetName()] = lp.GetValue()
			}
			for k, v := range want {
				if have[k] != v {
					continue next
				}
			}
			total += m.GetCounter().GetValue() + float64(m.GetHistogram().GetSampleCount())
		}
	}
	return total
}
