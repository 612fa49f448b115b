package orders

import (
	"context"
	"net"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/core"
	"github.com/mallplatform/partnerapi/internal/grpcmetrics"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// oneOrderStore answers GetOrder with one order from memory; any other
// method panics (the embedded nil Store), so the benchmark fails loudly if
// the read path starts calling something else.
type oneOrderStore struct {
	Store
	order *Order
}

func (s oneOrderStore) GetOrder(_ context.Context, sellerID, orderID string) (*Order, error) {
	if sellerID != s.order.SellerID || orderID != s.order.ID {
		return nil, ErrNotFound
	}
	return s.order, nil
}

// BenchmarkGetOrderStubStore is the order read without a database: the
// service alone, and through core's whole interceptor chain (internal
// credential, principal, seller token, scope, validation, deadline, access
// log, error conversion) over bufconn. Its allocations are held to
// docs/alloc-budget.txt by make alloc-check.
func BenchmarkGetOrderStubStore(b *testing.B) {
	o := fixture("ord_01kaq3m8v5yq6b7c9d0e1f2g3h", "sel_a", StatusShipped, serviceNow)
	svc := NewService(Config{Store: oneOrderStore{order: o}, Business: clock.NewManual(serviceNow)})
	p := partner("sel_a", "orders:read")
	sctx := principal.WithSeller(principal.NewContext(context.Background(), p), "sel_a")

	b.Run("Service", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := svc.GetOrder(sctx, o.ID); err != nil {
				b.Fatal(err)
			}
		}
	})

	gctx := as(p)
	throughChain := func(b *testing.B, metrics bool) {
		client := chainClient(b, svc, metrics)
		read := func() {
			if _, err := client.GetOrder(gctx, &ordersv1.GetOrderRequest{Id: o.ID}); err != nil {
				b.Fatal(err)
			}
		}
		// One call before the timer opens the connection, whose handshake a
		// short run would otherwise count.
		read()
		b.ReportAllocs()
		for b.Loop() {
			read()
		}
	}
	b.Run("Core", func(b *testing.B) { throughChain(b, false) })
	// With the metrics core records in production: the standard gRPC
	// server metrics and core's own latency histogram.
	b.Run("CoreWithMetrics", func(b *testing.B) { throughChain(b, true) })
}

// chainClient is a client of core serving svc over bufconn, core's whole
// chain in between, with or without core's metrics.
func chainClient(b *testing.B, svc *Service, metrics bool) ordersv1.OrdersServiceClient {
	b.Helper()
	cfg := core.Config{GatewayToken: internalToken, Services: []core.Registrar{NewServer(svc).Register}, Sellers: testSellers}
	if metrics {
		reg := prometheus.NewRegistry()
		cfg.Metrics, cfg.ServerOptions = core.NewMetrics(reg), grpcmetrics.ServerOptions(reg)
	}
	srv, err := core.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	lis := bufconn.Listen(1 << 20)
	go func() { _ = srv.Serve(lis) }()
	b.Cleanup(srv.GRPC.Stop)
	conn, err := grpc.NewClient("passthrough:///core",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.Close() })
	return ordersv1.NewOrdersServiceClient(conn)
}
