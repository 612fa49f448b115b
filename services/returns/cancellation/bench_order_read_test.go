package cancellation_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/pagination"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/returns/cancellation"
)

// BenchmarkOrderRead is the order read (GetOrder, ListOrders of 20)
// without the cancellation requests' port and with it, over 2,000 orders
// of which one in four has a request: what carrying cancellationRequest
// costs the platform's hot path.
func BenchmarkOrderRead(b *testing.B) {
	d := dbtest.Postgres(b)
	ctx := context.Background()
	const seller = "sel_bench"
	if err := d.Ent.Seller.Create().SetID(seller).SetName(seller).SetShopName(seller).Exec(ctx); err != nil {
		b.Fatal(err)
	}
	now := time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC)
	var fixtures []*orders.Order
	for i := range 2000 {
		id := fmt.Sprintf("ord_bench_%05d", i)
		created := now.Add(-time.Duration(i) * time.Minute)
		addr := orders.Address{Name: "Ana Reyes", Line1: "12 Rizal St.", City: "City of Makati", Province: "NCR",
			PostalCode: "1200", Country: "PH", Phone: "+639171234567"}
		fixtures = append(fixtures, &orders.Order{ID: id, SellerID: seller, CustomerID: "cus_" + id, Status: orders.StatusReadyToShip,
			Currency: "PHP", Subtotal: 100000, Total: 100000, PaymentStatus: "paid", FulfillmentStatus: "unfulfilled",
			ShippingAddress: addr, BillingAddress: addr, CreatedAt: created, UpdatedAt: created,
			Items: []orders.Item{{ID: id + "_i1", OrderID: id, ProductID: "prd_1", Title: "Power Bank", SKU: "PB-1",
				Quantity: 2, UnitPrice: 50000, TotalPrice: 100000}}})
	}
	if err := orders.NewEntStore(d).CreateOrders(ctx, fixtures); err != nil {
		b.Fatal(err)
	}
	st := cancellation.NewEntStore(d)
	orderStore := orders.NewEntStore(d)
	for i := 0; i < len(fixtures); i += 4 {
		if err := st.Create(ctx, request(fmt.Sprintf("ccr_bench_%05d", i), seller, fixtures[i].ID, now)); err != nil {
			b.Fatal(err)
		}
		// The stamp the orders' CancellationRequested step leaves with a
		// request.
		if err := orderStore.MarkCancellationRequested(ctx, seller, fixtures[i].ID, now); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := d.SQL.ExecContext(ctx, "VACUUM ANALYZE"); err != nil {
		b.Fatal(err)
	}
	business := clock.NewManual(now.Add(time.Hour))
	cursors := pagination.RandomCursors()
	plain := orders.NewService(orders.Config{Store: orders.NewEntStore(d), Business: business, Cursors: cursors})
	withRequests := orders.NewService(orders.Config{Store: orders.NewEntStore(d), Business: business, Cursors: cursors})
	svc, err := cancellation.NewService(cancellation.Config{Store: st, Orders: withRequests, Business: business, Cursors: cursors,
		Events: events.NewRecorder(events.NewEntStore(d), business),
		InTx:   func(ctx context.Context, fn func(ctx context.Context) error) error { return db.InTx(ctx, d.Ent, fn) }})
	if err != nil {
		b.Fatal(err)
	}
	withRequests.UseCancellationRequests(svc.OrderRequests())
	sctx := principal.WithSeller(ctx, seller)

	for _, c := range []struct {
		name string
		svc  *orders.Service
	}{{"without", plain}, {"with_requests", withRequests}} {
		b.Run(c.name+"/GetOrder", func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := c.svc.GetOrder(sctx, fixtures[i%len(fixtures)].ID); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		b.Run(c.name+"/ListOrders_limit20", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if res, err := c.svc.ListOrders(sctx, orders.ListParams{Limit: 20}); err != nil || len(res.Items) != 20 {
					b.Fatalf("%d orders, %v", len(res.Items), err)
				}
			}
		})
	}
}
