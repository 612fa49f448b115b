package orders

import (
	"context"
	"fmt"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// BenchmarkOrders measures the two reads against PostgreSQL with a shop of
// 5,000 orders beside a neighbour of the same size, vacuumed as autovacuum
// keeps a live table (index-only counts): once calling Service
// directly, once through core's full gRPC stack over bufconn.
//
//	go test -run '^$' -bench BenchmarkOrders -benchmem ./services/orders/
func BenchmarkOrders(b *testing.B) {
	d := dbtest.Postgres(b)
	createSellers(b, d.Ent, "sel_a", "sel_b")
	st := NewEntStore(d)
	ctx := context.Background()
	for _, seller := range []string{"sel_a", "sel_b"} {
		mustCreate(b, st, benchOrders(seller, 5000)...)
	}
	if _, err := d.SQL.ExecContext(ctx, "VACUUM ANALYZE"); err != nil {
		b.Fatal(err)
	}

	svc := NewService(Config{Store: st, Business: clock.NewManual(serviceNow)})
	p := partner("sel_a", "orders:read", ScopeBuyerEmail)
	sctx := principal.WithSeller(principal.NewContext(ctx, p), "sel_a")
	first, err := svc.ListOrders(sctx, ListParams{Limit: 100})
	if err != nil || len(first.Items) != 100 {
		b.Fatalf("prime: %v", err)
	}
	var ids []string
	for _, v := range first.Items {
		ids = append(ids, v.Order.ID)
	}
	deep, err := svc.ListOrders(sctx, ListParams{Limit: 20, Page: 100})
	if err != nil || deep.NextCursor == "" {
		b.Fatalf("deep page: %v", err)
	}

	b.Run("Service/GetOrder", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := svc.GetOrder(sctx, ids[i%len(ids)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	listCases := []struct {
		name string
		p    ListParams
	}{
		{"ListOrders_limit20", ListParams{Limit: 20}},
		{"ListOrders_limit20_status", ListParams{Limit: 20, Status: ptr(StatusDelivered)}},
		{"ListOrders_limit20_cursor_page101", ListParams{Limit: 20, Cursor: deep.NextCursor}},
	}
	for _, lc := range listCases {
		b.Run("Service/"+lc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if res, err := svc.ListOrders(sctx, lc.p); err != nil || len(res.Items) != 20 {
					b.Fatalf("%d orders, %v", len(res.Items), err)
				}
			}
		})
	}

	h := newHarness(b, d, serviceNow)
	gctx := as(p)
	b.Run("GRPC/GetOrder", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := h.client.GetOrder(gctx, &ordersv1.GetOrderRequest{Id: ids[i%len(ids)]}); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("GRPC/ListOrders_limit20", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if res, err := h.client.ListOrders(gctx, &ordersv1.ListOrdersRequest{Limit: proto.Int32(20)}); err != nil || len(res.GetData()) != 20 {
				b.Fatalf("%v", err)
			}
		}
	})
}

// benchOrders are n orders of seller over the 60 days before serviceNow,
// cycling through every stored status.
func benchOrders(seller string, n int) []*Order {
	out := make([]*Order, n)
	for i := range out {
		created := serviceNow.Add(-time.Duration(i) * 60 * 24 * time.Hour / time.Duration(n))
		out[i] = fixture(fmt.Sprintf("ord_%s_%05d", seller, i), seller, AllStatuses[i%len(AllStatuses)], created)
	}
	return out
}
