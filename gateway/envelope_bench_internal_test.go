package gateway

import (
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
)

// BenchmarkEnvelopeOrder is the envelope writer on an order answer, as the
// gateway writes GET /open/v1/orders/{id}.
func BenchmarkEnvelopeOrder(b *testing.B) {
	ts := timestamppb.New(time.Date(2026, 11, 1, 2, 3, 4, 0, time.UTC))
	addr := &ordersv1.Address{Name: "Juan Dela Cruz", Line1: "12 Mabini St", City: "Quezon City", Province: "National Capital Region (NCR)", PostalCode: "1100", Country: "PH", Phone: "+639171234567"}
	o := &ordersv1.Order{Id: "ord_1", Status: ordersv1.OrderStatus_ORDER_STATUS_SHIPPED, SellerId: "slr_1", CustomerId: "cus_1", Currency: "PHP",
		Subtotal: 259800, Total: 269800, Shipping: 10000, PaymentStatus: "paid", FulfillmentStatus: "fulfilled", CreatedAt: ts, UpdatedAt: ts,
		ShippingAddress: addr, BillingAddress: addr}
	for range 2 {
		o.Items = append(o.Items, &ordersv1.OrderItem{Id: "itm", OrderId: "ord_1", ProductId: "prd_1", Title: "Ceramic mug", Sku: "MUG-1", Quantity: 1, UnitPrice: 129900, TotalPrice: 129900})
	}
	resp := &ordersv1.OrderResponse{Data: o}
	b.ReportAllocs()
	for b.Loop() {
		// As writeAnswer renders every answer of core: into a pooled
		// buffer, written from there (no copy).
		bp := bufPool.Get().(*[]byte)
		if _, err := (envelope{}).render(bp, resp); err != nil {
			b.Fatal(err)
		}
		bufPool.Put(bp)
	}
}
