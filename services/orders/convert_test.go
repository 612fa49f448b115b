package orders

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/wirejson"
)

// TestWireShape renders views the way the gateway does and checks what a
// partner's JSON parser meets: absent, null and present are distinct.
func TestWireShape(t *testing.T) {
	svc := NewService(Config{Business: clock.NewManual(serviceNow)})
	withScope := principal.NewContext(context.Background(), partner("sel_a", "orders:read", ScopeBuyerEmail))
	withoutScope := principal.NewContext(context.Background(), partner("sel_a", "orders:read"))

	render := func(ctx context.Context, o *Order) map[string]any {
		t.Helper()
		b, err := wirejson.Marshal(OrderToProto(svc.view(ctx, o, serviceNow)))
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("unmarshal %s: %v", b, err)
		}
		return m
	}

	paid := fixture("ord_paid", "sel_a", StatusPaid, serviceNow.Add(-time.Hour))
	m := render(withoutScope, paid)
	if m["status"] != "READY_TO_SHIP" || m["currency"] != "PHP" || m["sellerId"] != "sel_a" {
		t.Errorf("status/currency/sellerId: %v %v %v", m["status"], m["currency"], m["sellerId"])
	}
	for _, absent := range []string{"buyerEmail", "slaBreached", "bookingStatus", "shippingChannel"} {
		if _, ok := m[absent]; ok {
			t.Errorf("%s present: %v", absent, m[absent])
		}
	}
	if v, ok := m["shipByDate"]; !ok || v != nil {
		t.Errorf("shipByDate should be null, got %v (present %v)", v, ok)
	}
	// Money is a JSON number, never a string.
	if v, ok := m["total"].(float64); !ok || v != 145000 {
		t.Errorf("total %#v", m["total"])
	}
	items := m["items"].([]any)
	first, second := items[0].(map[string]any), items[1].(map[string]any)
	if first["variantId"] != "var_1" || first["thumbnail"] == nil || first["unitPrice"].(float64) != 50000 {
		t.Errorf("first item %v", first)
	}
	if _, ok := second["variantId"]; ok {
		t.Errorf("variantId present on a line without variant: %v", second)
	}
	if _, ok := second["thumbnail"]; ok {
		t.Errorf("thumbnail present on a line without one: %v", second)
	}
	if _, ok := m["shippingAddress"].(map[string]any)["line2"]; ok {
		t.Error("line2 present on an address without it")
	}
	if m["billingAddress"].(map[string]any)["line2"] != "Unit 5B" || m["billingAddress"].(map[string]any)["postalCode"] != "1200" {
		t.Errorf("billing address %v", m["billingAddress"])
	}

	late := fixture("ord_late", "sel_a", StatusReadyToShip, serviceNow.Add(-96*time.Hour))
	late.ShipByDate = ptr(serviceNow.Add(-time.Hour))
	late.BookingStatus = ptr(BookingPendingArrange)
	late.ShippingChannel = ptr("FLASH_STANDARD")
	m = render(withScope, late)
	if m["buyerEmail"] != "ord_late@example.ph" || m["slaBreached"] != true || m["bookingStatus"] != "PENDING_ARRANGE" || m["shippingChannel"] != "FLASH_STANDARD" {
		t.Errorf("late order: %v %v %v %v", m["buyerEmail"], m["slaBreached"], m["bookingStatus"], m["shippingChannel"])
	}
	if s, _ := m["shipByDate"].(string); s == "" {
		t.Errorf("shipByDate %v", m["shipByDate"])
	}

	shipped := fixture("ord_shipped", "sel_a", StatusShipped, serviceNow.Add(-96*time.Hour))
	shipped.ShipByDate = ptr(serviceNow.Add(-50 * time.Hour))
	m = render(withScope, shipped)
	if m["slaBreached"] != false {
		t.Errorf("shipped: slaBreached %v, want false", m["slaBreached"])
	}
	f := m["fulfillments"].([]any)[0].(map[string]any)
	md := f["metadata"].(map[string]any)
	if f["status"] != "shipped" || f["trackingNumber"] != "JT0001" || md["tracking_number"] != "JT0001" || md["tracking_company"] != "J&T Express" || f["orderId"] != "ord_shipped" {
		t.Errorf("fulfillment %v", f)
	}
	if fi := f["items"].([]any)[0].(map[string]any); fi["itemId"] != "ord_shipped_i1" || fi["quantity"].(float64) != 2 {
		t.Errorf("fulfillment item %v", fi)
	}
}
