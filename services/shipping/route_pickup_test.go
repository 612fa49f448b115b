package shipping_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/orders"
)

type wireSlot struct {
	Date       string  `json:"date"`
	Available  bool    `json:"available"`
	Reason     *string `json:"reason"`
	Holiday    *string `json:"holiday"`
	Tentative  *bool   `json:"tentative"`
	CutoffTime string  `json:"cutoffTime"`
	TimeWindow struct {
		Start string `json:"start"`
		End   string `json:"end"`
	} `json:"timeWindow"`
	Recommended *bool  `json:"recommended"`
	Channel     string `json:"channel"`
}

func get(t *testing.T, c *sdk.Client, path, query string) *sdk.Response {
	t.Helper()
	resp, err := c.DoSigned(context.Background(), sdk.Request{Method: http.MethodGet, Path: path, RawQuery: query})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func slotOf(t *testing.T, c *sdk.Client, order, day string) wireSlot {
	t.Helper()
	resp := get(t, c, "/open/v1/orders/"+order+"/shipment/pickup-slots", "date="+day)
	var env struct {
		Data wireSlot `json:"data"`
	}
	if resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &env) != nil {
		t.Fatalf("%s on %s: %d %s", order, day, resp.Status, resp.Body)
	}
	return env.Data
}

func reasonOf(s wireSlot) string {
	if s.Reason == nil {
		return ""
	}
	return *s.Reason
}

// pickupOrder is a paid order of seller to Makati, routed to channel ("":
// none), due by shipBy (nil: no deadline).
func pickupOrder(id, seller string, st orders.Status, channel string, shipBy *time.Time) *orders.Order {
	created := time.Date(2026, 2, 27, 2, 0, 0, 0, time.UTC)
	addr := orders.Address{Name: "Ana Reyes", Line1: "12 Rizal St., Brgy. Poblacion", City: "City of Makati",
		Province: "National Capital Region (NCR)", PostalCode: "1200", Country: "PH", Phone: "+639171234567"}
	o := &orders.Order{ID: id, SellerID: seller, CustomerID: "cus_" + id, Status: st, Currency: "PHP",
		Subtotal: 100000, Total: 100000, PaymentStatus: "paid", FulfillmentStatus: "unfulfilled",
		ShippingAddress: addr, BillingAddress: addr, ShipByDate: shipBy, CreatedAt: created, UpdatedAt: created,
		Items: []orders.Item{{ID: id + "_i1", OrderID: id, ProductID: "prd_1", Title: "Power Bank", SKU: "PB-1",
			Quantity: 2, UnitPrice: 50000, TotalPrice: 100000}}}
	if channel != "" {
		o.ShippingChannel = &channel
	}
	return o
}

func TestPickupSlotRoutes(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) { testPickupSlotRoutes(t, pg) })
	}
}

func testPickupSlotRoutes(t *testing.T, pg bool) {
	env := testenv.Start(t, testenv.Options{Postgres: pg, BusinessClock: true})
	ctx := context.Background()
	// Monday 2 March 2026, 10:00 in Manila, on the shops' business clock;
	// the wall clock (request signing) stays where it is.
	env.Business.Set(manila(2026, 3, 2, 10, 0))
	seller, other := env.Creds.Sellers[0].SellerID, env.Creds.Sellers[1].SellerID
	shipBy := manila(2026, 3, 4, 23, 59).UTC()
	fixtures := []*orders.Order{
		pickupOrder("ord_slots_jnt", seller, orders.StatusPaid, "JNT_STANDARD", &shipBy),
		pickupOrder("ord_slots_none", seller, orders.StatusReadyToShip, "", nil),
		pickupOrder("ord_slots_unknown", seller, orders.StatusPending, "NINJAVAN_STANDARD", nil),
		pickupOrder("ord_slots_cancelled", seller, orders.StatusCancelled, "JNT_STANDARD", nil),
		pickupOrder("ord_slots_shipped", seller, orders.StatusShipped, "JNT_STANDARD", nil),
		pickupOrder("ord_slots_delivered", seller, orders.StatusDelivered, "JNT_STANDARD", nil),
		pickupOrder("ord_slots_other", other, orders.StatusPaid, "JNT_STANDARD", nil),
		pickupOrder("ord_slots_nowhere", seller, orders.StatusPaid, "", nil),
	}
	// An address no channel can quote to: no channel, no pickup.
	fixtures[len(fixtures)-1].ShippingAddress.City, fixtures[len(fixtures)-1].ShippingAddress.Province = "Atlantis", "Nowhere"
	if err := orders.NewEntStore(env.DB).CreateOrders(ctx, fixtures); err != nil {
		t.Fatal(err)
	}
	c := env.Client(t, "full", 0)

	// The whole answer of an available date: exactly these fields.
	resp := get(t, c, "/open/v1/orders/ord_slots_jnt/shipment/pickup-slots", "date=2026-03-02")
	want := `{"available":true,"channel":"JNT_STANDARD","cutoffTime":"16:00","date":"2026-03-02","timeWindow":{"end":"17:00","start":"09:00"}}`
	var body struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
	}
	if resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &body) != nil || !body.Success || canonical(t, body.Data) != want {
		t.Fatalf("slot: %d %s\nwant data %s", resp.Status, resp.Body, want)
	}

	// The cut-off follows the business clock, a minute either side.
	env.Business.Set(manila(2026, 3, 2, 15, 59))
	if s := slotOf(t, c, "ord_slots_jnt", "2026-03-02"); !s.Available {
		t.Errorf("15:59: %+v, want available", s)
	}
	env.Business.Set(manila(2026, 3, 2, 16, 1))
	if s := slotOf(t, c, "ord_slots_jnt", "2026-03-02"); s.Available || reasonOf(s) != "PAST_CUTOFF" {
		t.Errorf("16:01: %+v, want PAST_CUTOFF", s)
	}

	for _, tc := range []struct{ order, date, reason string }{
		{"ord_slots_jnt", "2026-03-04", ""},
		{"ord_slots_jnt", "2026-03-05", "AFTER_SHIP_BY"},
		{"ord_slots_none", "2026-03-01", "PAST_DATE"},
		{"ord_slots_none", "2026-03-08", "NON_WORKING_DAY"},
		{"ord_slots_none", "2026-03-16", ""},
		{"ord_slots_none", "2026-03-17", "BEYOND_WINDOW"},
	} {
		s := slotOf(t, c, tc.order, tc.date)
		if s.Available != (tc.reason == "") || reasonOf(s) != tc.reason || s.Holiday != nil {
			t.Errorf("%s on %s: %+v, want reason %q", tc.order, tc.date, s, tc.reason)
		}
	}

	// No channel on the order, or one the platform does not hold: the
	// cheapest channel that collects, the same for both.
	none, unknown := slotOf(t, c, "ord_slots_none", "2026-03-03"), slotOf(t, c, "ord_slots_unknown", "2026-03-03")
	// (Flash is the cheapest for this parcel in the seeded tables.)
	if none.Channel != "FLASH_STANDARD" || none.Channel != unknown.Channel || !none.Available {
		t.Errorf("cheapest channel: %+v and %+v", none, unknown)
	}

	// An operator's edit closes a date at once; a local day closes it only
	// where it applies (the shop's default pickup address is in Makati,
	// Metro Manila).
	admin := shippingv1.NewCalendarAdminServiceClient(env.DialCore(t, env.InternalCaller(t, "logistics-ops")))
	for _, d := range []*shippingv1.CalendarDayInput{
		{Date: "2026-03-10", Kind: shippingv1.CalendarDayKind_CALENDAR_DAY_KIND_SPECIAL_NON_WORKING, Name: "Operator's day"},
		{Date: "2026-03-11", Kind: shippingv1.CalendarDayKind_CALENDAR_DAY_KIND_SPECIAL_NON_WORKING, Name: "Cavite Day", Scope: "0402100000"},
		{Date: "2026-03-12", Kind: shippingv1.CalendarDayKind_CALENDAR_DAY_KIND_SPECIAL_NON_WORKING, Name: "Metro Manila Day", Scope: "1300000000"},
	} {
		if s := slotOf(t, c, "ord_slots_none", d.Date); !s.Available {
			t.Fatalf("%s before the edit: %+v", d.Date, s)
		}
		if _, err := admin.SetCalendarDay(ctx, &shippingv1.SetCalendarDayRequest{Day: d}); err != nil {
			t.Fatal(err)
		}
	}
	for day, holiday := range map[string]string{"2026-03-10": "Operator's day", "2026-03-11": "", "2026-03-12": "Metro Manila Day"} {
		s := slotOf(t, c, "ord_slots_none", day)
		switch {
		case holiday == "" && !s.Available:
			t.Errorf("%s: %+v, want available (the local day is Cavite's)", day, s)
		case holiday != "" && (s.Available || reasonOf(s) != "HOLIDAY" || s.Holiday == nil || *s.Holiday != holiday || s.Tentative == nil || *s.Tentative):
			t.Errorf("%s: %+v, want HOLIDAY %q", day, s, holiday)
		}
	}
	// A tentative holiday says so.
	env.Business.Set(manila(2026, 3, 16, 9, 0))
	if s := slotOf(t, c, "ord_slots_none", "2026-03-20"); reasonOf(s) != "HOLIDAY" || s.Tentative == nil || !*s.Tentative {
		t.Errorf("Eid'l Fitr: %+v, want a tentative HOLIDAY", s)
	}

	// Eligible dates: 14 days from the business today, in order, the first
	// available one recommended. Monday 30 March after Flash's 17:00
	// cut-off: today is gone, Tuesday is recommended, Holy Week follows.
	env.Business.Set(manila(2026, 3, 30, 17, 1))
	resp = get(t, c, "/open/v1/orders/ord_slots_none/shipment/eligible-dates", "")
	var list struct {
		Data []wireSlot `json:"data"`
	}
	if resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &list) != nil || len(list.Data) != 14 {
		t.Fatalf("eligible dates: %d %s", resp.Status, resp.Body)
	}
	for i, s := range list.Data {
		if want := date(2026, 3, 30).AddDays(i).String(); s.Date != want || s.Recommended == nil || *s.Recommended != (i == 1) {
			t.Errorf("eligible date %d: %+v, want %s recommended %v", i, s, want, i == 1)
		}
	}
	if reasonOf(list.Data[0]) != "PAST_CUTOFF" || reasonOf(list.Data[3]) != "HOLIDAY" || reasonOf(list.Data[6]) != "NON_WORKING_DAY" {
		t.Errorf("eligible dates' reasons: %s", resp.Body)
	}
	// The single slot carries no recommended flag.
	if s := slotOf(t, c, "ord_slots_none", "2026-03-31"); s.Recommended != nil {
		t.Errorf("a single slot flagged recommended: %+v", s)
	}

	// Codes: the date checked first, then the order.
	for _, q := range []string{"", "date=", "date=2026-3-2", "date=2026-02-30", "date=02-03-2026", "date=2026-03-02T10:00:00Z", "date=tomorrow"} {
		wantError(t, get(t, c, "/open/v1/orders/ord_slots_none/shipment/pickup-slots", q), http.StatusBadRequest, "VALIDATION_ERROR")
	}
	for _, id := range []string{"ord_slots_other", "ord_missing", "not-an-order"} {
		wantError(t, get(t, c, "/open/v1/orders/"+id+"/shipment/pickup-slots", "date=2026-03-31"), http.StatusNotFound, "NOT_FOUND")
		wantError(t, get(t, c, "/open/v1/orders/"+id+"/shipment/eligible-dates", ""), http.StatusNotFound, "NOT_FOUND")
	}
	for _, id := range []string{"ord_slots_cancelled", "ord_slots_shipped", "ord_slots_delivered"} {
		wantError(t, get(t, c, "/open/v1/orders/"+id+"/shipment/pickup-slots", "date=2026-03-31"), http.StatusUnprocessableEntity, "INVALID_TRANSITION")
		wantError(t, get(t, c, "/open/v1/orders/"+id+"/shipment/eligible-dates", ""), http.StatusUnprocessableEntity, "INVALID_TRANSITION")
	}
	wantError(t, get(t, c, "/open/v1/orders/ord_slots_nowhere/shipment/pickup-slots", "date=2026-03-31"), http.StatusUnprocessableEntity, "PICKUP_DATES_UNAVAILABLE")
	wantError(t, get(t, c, "/open/v1/orders/ord_slots_nowhere/shipment/eligible-dates", ""), http.StatusUnprocessableEntity, "PICKUP_DATES_UNAVAILABLE")
	// The routes need a seller token.
	noSeller := env.Client(t, "full", -1)
	if resp := get(t, noSeller, "/open/v1/orders/ord_slots_none/shipment/eligible-dates", ""); resp.Status != http.StatusUnauthorized && resp.Status != http.StatusForbidden {
		t.Errorf("without a seller token: %d %s", resp.Status, resp.Body)
	}
}

// canonical re-encodes JSON with sorted keys.
func canonical(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
