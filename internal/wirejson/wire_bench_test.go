package wirejson_test

import (
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	"github.com/mallplatform/partnerapi/internal/wirejson"
)

// BenchmarkOrderAnswer renders an order answer as the gateway receives it,
// as its encoding: decoded with its generated code and rendered from the
// message (before), or rendered from the wire.
//
//	go test -run '^$' -bench OrderAnswer -benchmem ./internal/wirejson/
func BenchmarkOrderAnswer(b *testing.B) {
	ts := timestamppb.New(time.Date(2026, 11, 1, 2, 3, 4, 0, time.UTC))
	addr := &ordersv1.Address{Name: "Juan Dela Cruz", Line1: "12 Mabini St", City: "Quezon City", Province: "National Capital Region (NCR)", PostalCode: "1100", Country: "PH", Phone: "+639171234567"}
	o := &ordersv1.Order{Id: "ord_06gjg2etyjc8awks98ctbmc2wc", Status: ordersv1.OrderStatus_ORDER_STATUS_SHIPPED, SellerId: "slr_06h23sez77pkn3scvqr8sazkb4",
		CustomerId: "cus_1", BuyerEmail: new("juan@example.ph"), Currency: "PHP", Subtotal: 259800, Total: 269800, Shipping: 10000,
		PaymentStatus: "paid", FulfillmentStatus: "fulfilled", CreatedAt: ts, UpdatedAt: ts, ShipByDate: ts,
		ShippingAddress: addr, BillingAddress: addr}
	for range 3 {
		o.Items = append(o.Items, &ordersv1.OrderItem{Id: "itm_06gjg2etyjc8awks98ctbmc2wc", OrderId: o.Id, ProductId: "prd_06h23sez77pkn3scvqr8sazkb4",
			VariantId: new("var_06h23sez76a9m2scr9yx58acfw"), Title: "Barako coffee ground 250 g", Sku: "SBX-100081-1", Quantity: 1, UnitPrice: 129900,
			TotalPrice: 129900, Thumbnail: new("https://cdn.sandbox.example.ph/products/100081-1.jpg")})
	}
	o.Fulfillments = append(o.Fulfillments, &ordersv1.Fulfillment{Id: "ful_1", OrderId: o.Id, Status: ordersv1.FulfillmentStatus_FULFILLMENT_STATUS_SHIPPED,
		TrackingNumber: "JT0001", TrackingCompany: "J&T Express", CreatedAt: ts, UpdatedAt: ts,
		Items:    []*ordersv1.FulfillmentItem{{ItemId: "itm_06gjg2etyjc8awks98ctbmc2wc", Quantity: 1}},
		Metadata: &ordersv1.FulfillmentMetadata{TrackingNumber: "JT0001", TrackingCompany: "J&T Express"}})
	wire, err := (&ordersv1.OrderResponse{Data: o}).MarshalVT()
	if err != nil {
		b.Fatal(err)
	}
	md := (&ordersv1.OrderResponse{}).ProtoReflect().Descriptor()
	buf := make([]byte, 0, 4096)
	b.Run("decoded", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m := &ordersv1.OrderResponse{}
			if err := m.UnmarshalVT(wire); err != nil {
				b.Fatal(err)
			}
			if buf, _, err = wirejson.AppendFields(buf[:0], m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("wire", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var ok bool
			if buf, _, ok = wirejson.AppendFieldsWire(buf[:0], md, wire); !ok {
				b.Fatal("declined")
			}
		}
	})
}
