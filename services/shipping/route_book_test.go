package shipping_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mallplatform/partnerapi/ent/event"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/orders"
)

type wireShipment struct {
	ShipmentID string  `json:"shipmentId"`
	OrderID    string  `json:"orderId"`
	Status     string  `json:"status"`
	Method     string  `json:"method"`
	ChannelID  string  `json:"channelId"`
	PickupDate *string `json:"pickupDate"`
	TimeWindow *struct {
		Start string `json:"start"`
		End   string `json:"end"`
	} `json:"timeWindow"`
	AddressID       string `json:"addressId"`
	TrackingNumber  string `json:"trackingNumber"`
	TrackingCompany string `json:"trackingCompany"`
	CreatedAt       string `json:"created_at"`
}

// book posts a booking with key ("": none).
func book(t *testing.T, c *sdk.Client, order, key, body string) *sdk.Response {
	t.Helper()
	req := sdk.Request{Method: http.MethodPost, Path: "/open/v1/orders/" + order + "/shipment", Body: []byte(body)}
	if key != "" {
		req.ExtraHeaders = http.Header{sdk.HeaderIdempotencyKey: {key}}
	}
	resp, err := c.DoSigned(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func shipmentOf(t *testing.T, resp *sdk.Response) wireShipment {
	t.Helper()
	var env struct {
		Data wireShipment `json:"data"`
	}
	if err := json.Unmarshal(resp.Body, &env); err != nil {
		t.Fatalf("%s: %v", resp.Body, err)
	}
	return env.Data
}

type wireError struct {
	Code      string  `json:"code"`
	Message   string  `json:"message"`
	Reason    *string `json:"reason"`
	Retryable *bool   `json:"retryable"`
}

func errorOf(t *testing.T, resp *sdk.Response) wireError {
	t.Helper()
	var env struct {
		Error wireError `json:"error"`
	}
	_ = json.Unmarshal(resp.Body, &env)
	return env.Error
}

func TestBookingRoutes(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) { testBookingRoutes(t, pg) })
	}
}

func testBookingRoutes(t *testing.T, pg bool) {
	env := testenv.Start(t, testenv.Options{Postgres: pg, BusinessClock: true, Unlimited: true})
	ctx := context.Background()
	// Monday 2 March 2026, 10:00 in Manila.
	env.Business.Set(manila(2026, 3, 2, 10, 0))
	seller, other := env.Creds.Sellers[0].SellerID, env.Creds.Sellers[1].SellerID
	fixtures := []*orders.Order{
		pickupOrder("ord_book_rts", seller, orders.StatusReadyToShip, "JNT_STANDARD", nil),
		pickupOrder("ord_book_paid", seller, orders.StatusPaid, "", nil),
		pickupOrder("ord_book_pending", seller, orders.StatusPending, "JNT_STANDARD", nil),
		pickupOrder("ord_book_shipped", seller, orders.StatusShipped, "JNT_STANDARD", nil),
		pickupOrder("ord_book_other", other, orders.StatusReadyToShip, "JNT_STANDARD", nil),
		pickupOrder("ord_book_far", seller, orders.StatusReadyToShip, "JNT_STANDARD", nil),
		pickupOrder("ord_book_race", seller, orders.StatusReadyToShip, "JNT_STANDARD", nil),
		pickupOrder("ord_book_faults", seller, orders.StatusReadyToShip, "JNT_STANDARD", nil),
	}
	// The network does not reach Kalayaan (simulated.DefaultUnserviceable).
	fixtures[5].ShippingAddress.City, fixtures[5].ShippingAddress.Province = "Kalayaan", "Palawan"
	if err := orders.NewEntStore(env.DB).CreateOrders(ctx, fixtures); err != nil {
		t.Fatal(err)
	}
	c := env.Client(t, "full", 0)
	const pickup = `{"method":"PICKUP","pickupDate":"2026-03-03"}`

	// Before a booking: not arranged; another seller's order: not found.
	wantError(t, get(t, c, "/open/v1/orders/ord_book_rts/shipment", ""), http.StatusUnprocessableEntity, "SHIPMENT_NOT_ARRANGED")
	wantError(t, get(t, c, "/open/v1/orders/ord_book_other/shipment", ""), http.StatusNotFound, "NOT_FOUND")
	wantError(t, book(t, c, "ord_book_other", "k-other", pickup), http.StatusNotFound, "NOT_FOUND")

	// The request's form.
	wantError(t, book(t, c, "ord_book_rts", "", pickup), http.StatusBadRequest, "IDEMPOTENCY_KEY_REQUIRED")
	wantError(t, book(t, c, "ord_book_rts", "k-unknown", `{"method":"PICKUP","pickupDate":"2026-03-03","extra":1}`),
		http.StatusBadRequest, "VALIDATION_ERROR")
	wantError(t, book(t, c, "ord_book_rts", "k-nodate", `{"method":"PICKUP"}`), http.StatusBadRequest, "VALIDATION_ERROR")
	wantError(t, book(t, c, "ord_book_rts", "k-window", `{"method":"PICKUP","pickupDate":"2026-03-03","timeWindow":{"start":"06:00","end":"08:00"}}`),
		http.StatusBadRequest, "VALIDATION_ERROR")

	// A Sunday: the slot route's reason, in the error's reason.
	resp := book(t, c, "ord_book_rts", "k-sunday", `{"method":"PICKUP","pickupDate":"2026-03-08"}`)
	wantError(t, resp, http.StatusUnprocessableEntity, "INVALID_PICKUP_DATE")
	if e := errorOf(t, resp); e.Reason == nil || *e.Reason != "NON_WORKING_DAY" {
		t.Errorf("Sunday: %s, want reason NON_WORKING_DAY", resp.Body)
	}
	// The same key again replays the kept answer, its reason included.
	replayed := book(t, c, "ord_book_rts", "k-sunday", `{"method":"PICKUP","pickupDate":"2026-03-08"}`)
	wantError(t, replayed, http.StatusUnprocessableEntity, "INVALID_PICKUP_DATE")
	if e := errorOf(t, replayed); e.Reason == nil || *e.Reason != "NON_WORKING_DAY" {
		t.Errorf("Sunday replayed: %s, want reason NON_WORKING_DAY", replayed.Body)
	}
	if slot := slotOf(t, c, "ord_book_rts", "2026-03-08"); reasonOf(slot) != "NON_WORKING_DAY" {
		t.Errorf("the slot route says %q", reasonOf(slot))
	}

	// Orders that cannot be booked.
	wantError(t, book(t, c, "ord_book_pending", "k-pending", pickup), http.StatusUnprocessableEntity, "INVALID_TRANSITION")
	wantError(t, book(t, c, "ord_book_shipped", "k-shipped", pickup), http.StatusUnprocessableEntity, "INVALID_TRANSITION")

	// The carrier refuses an address it does not reach: SHIP_FAILED with
	// its reason, not retryable; nothing is booked.
	resp = book(t, c, "ord_book_far", "k-far", pickup)
	wantError(t, resp, http.StatusBadRequest, "SHIP_FAILED")
	if e := errorOf(t, resp); e.Reason == nil || *e.Reason != "ADDRESS_UNSERVICEABLE" || e.Retryable == nil || *e.Retryable {
		t.Errorf("unserviceable: %s, want reason ADDRESS_UNSERVICEABLE, retryable false", resp.Body)
	}
	wantError(t, get(t, c, "/open/v1/orders/ord_book_far/shipment", ""), http.StatusUnprocessableEntity, "SHIPMENT_NOT_ARRANGED")

	// The sandbox's faults: the shop's next carrier calls fail as asked,
	// one each, and nothing is booked meanwhile.
	for i, f := range []struct {
		kind   string
		status int
		reason string
	}{
		{"SHIP_FAILED", http.StatusBadRequest, "REJECTED"},
		{"UPSTREAM_ERROR", http.StatusBadGateway, ""},
		{"UPSTREAM_TIMEOUT", http.StatusGatewayTimeout, ""},
	} {
		setFaults(t, c, f.kind, 1)
		resp := book(t, c, "ord_book_faults", fmt.Sprintf("k-fault-%d", i), pickup)
		wantError(t, resp, f.status, f.kind)
		e := errorOf(t, resp)
		if e.Retryable == nil || *e.Retryable != (f.kind != "SHIP_FAILED") {
			t.Errorf("%s: %s, want retryable %v", f.kind, resp.Body, f.kind != "SHIP_FAILED")
		}
		if (e.Reason == nil) != (f.reason == "") || (e.Reason != nil && *e.Reason != f.reason) {
			t.Errorf("%s: %s, want reason %q", f.kind, resp.Body, f.reason)
		}
		wantError(t, get(t, c, "/open/v1/orders/ord_book_faults/shipment", ""), http.StatusUnprocessableEntity, "SHIPMENT_NOT_ARRANGED")
		if o := orderOf(t, c, "ord_book_faults"); o.BookingStatus != nil || len(o.Fulfillments) != 0 {
			t.Errorf("after %s the order shows a booking: %+v", f.kind, o)
		}
	}
	// The queue is spent: the next attempt books.
	if resp := book(t, c, "ord_book_faults", "k-fault-ok", pickup); resp.Status != http.StatusCreated {
		t.Errorf("after the faults: %d %s", resp.Status, resp.Body)
	}

	// The booking.
	resp = book(t, c, "ord_book_rts", "k-1", pickup)
	if resp.Status != http.StatusCreated {
		t.Fatalf("book: %d %s", resp.Status, resp.Body)
	}
	sh := shipmentOf(t, resp)
	if sh.OrderID != "ord_book_rts" || sh.Status != "BOOKED" || sh.Method != "PICKUP" || sh.ChannelID != "JNT_STANDARD" ||
		sh.PickupDate == nil || *sh.PickupDate != "2026-03-03" || sh.TimeWindow == nil || sh.TimeWindow.Start != "09:00" ||
		sh.TrackingNumber == "" || sh.TrackingCompany == "" || sh.AddressID == "" || sh.CreatedAt == "" || sh.ShipmentID == "" {
		t.Errorf("booking: %s", resp.Body)
	}
	// The same key replays the first answer; another key is refused.
	again := book(t, c, "ord_book_rts", "k-1", pickup)
	if again.Status != http.StatusCreated || shipmentOf(t, again).ShipmentID != sh.ShipmentID {
		t.Errorf("replay: %d %s", again.Status, again.Body)
	}
	wantError(t, book(t, c, "ord_book_rts", "k-2", pickup), http.StatusUnprocessableEntity, "SHIPMENT_ALREADY_ARRANGED")
	if read := get(t, c, "/open/v1/orders/ord_book_rts/shipment", ""); read.Status != http.StatusOK ||
		shipmentOf(t, read).TrackingNumber != sh.TrackingNumber {
		t.Errorf("read: %d %s", read.Status, read.Body)
	}

	// The order follows.
	o := orderOf(t, c, "ord_book_rts")
	if o.Status != "READY_TO_SHIP" || o.BookingStatus == nil || *o.BookingStatus != "READY_FOR_HANDOVER" ||
		o.ShippingChannel == nil || *o.ShippingChannel != "JNT_STANDARD" || len(o.Fulfillments) != 1 ||
		o.Fulfillments[0].Status != "pending" || o.Fulfillments[0].TrackingNumber != sh.TrackingNumber {
		t.Errorf("order after booking: %+v", o)
	}

	// A PAID order is booked too (a drop-off), and reads READY_TO_SHIP.
	resp = book(t, c, "ord_book_paid", "k-paid", `{"method":"DROPOFF","channelId":"JNT_STANDARD"}`)
	if resp.Status != http.StatusCreated {
		t.Errorf("paid drop-off: %d %s", resp.Status, resp.Body)
	} else if d := shipmentOf(t, resp); d.PickupDate != nil || d.TimeWindow != nil || d.Method != "DROPOFF" {
		t.Errorf("drop-off: %s", resp.Body)
	}

	// Cancelling the booked order voids the booking: the fulfillment is
	// cancelled, the shipment no longer arranged, the events recorded.
	cancel, err := c.DoSigned(ctx, sdk.Request{Method: http.MethodPost, Path: "/open/v1/orders/ord_book_rts/cancel", Body: []byte(`{}`)})
	if err != nil || cancel.Status != http.StatusOK {
		t.Fatalf("cancel: %v %v", cancel, err)
	}
	o = orderOf(t, c, "ord_book_rts")
	if o.Status != "CANCELLED" || o.BookingStatus != nil || len(o.Fulfillments) != 1 || o.Fulfillments[0].Status != "cancelled" {
		t.Errorf("order after cancel: %+v", o)
	}
	wantError(t, get(t, c, "/open/v1/orders/ord_book_rts/shipment", ""), http.StatusUnprocessableEntity, "SHIPMENT_NOT_ARRANGED")
	types, err := env.DB.Ent.Event.Query().Where(event.ResourceID(sh.ShipmentID)).Order(event.ByID()).Select(event.FieldType).Strings(ctx)
	if err != nil || len(types) != 2 || !strings.Contains(types[0], "booked") || !strings.Contains(types[1], "cancelled") {
		t.Errorf("shipment events: %v %v", types, err)
	}

	// A void the carrier does not confirm leaves the order as it was; the
	// retried cancellation voids and commits.
	setFaults(t, c, "UPSTREAM_ERROR", 1)
	failed, err := c.DoSigned(ctx, sdk.Request{Method: http.MethodPost, Path: "/open/v1/orders/ord_book_paid/cancel", Body: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	wantError(t, failed, http.StatusBadGateway, "UPSTREAM_ERROR")
	if o := orderOf(t, c, "ord_book_paid"); o.Status != "READY_TO_SHIP" || o.BookingStatus == nil || o.Fulfillments[0].Status != "pending" {
		t.Errorf("after a failed void: %+v", o)
	}
	if again, err := c.DoSigned(ctx, sdk.Request{Method: http.MethodPost, Path: "/open/v1/orders/ord_book_paid/cancel", Body: []byte(`{}`)}); err != nil || again.Status != http.StatusOK {
		t.Errorf("cancel again: %v %v", again, err)
	}

	// A bulk cancel voids too: the first attempt meets a void the carrier
	// does not confirm and reports the order with that error, the retry
	// (another key) cancels it.
	bulk := func(key string) *sdk.Response {
		resp, err := c.DoSigned(ctx, sdk.Request{Method: http.MethodPost, Path: "/open/v1/orders/bulk-cancel",
			Body: []byte(`{"orders":[{"orderId":"ord_book_faults"}]}`), ExtraHeaders: http.Header{sdk.HeaderIdempotencyKey: {key}}})
		if err != nil || resp.Status != http.StatusOK {
			t.Fatalf("bulk cancel: %v %v", resp, err)
		}
		return resp
	}
	setFaults(t, c, "UPSTREAM_TIMEOUT", 1)
	if resp := bulk("k-bulk-1"); !strings.Contains(string(resp.Body), `"code":"UPSTREAM_TIMEOUT"`) {
		t.Errorf("bulk cancel under a fault: %s", resp.Body)
	}
	if o := orderOf(t, c, "ord_book_faults"); o.Status != "READY_TO_SHIP" || o.BookingStatus == nil {
		t.Errorf("after a failed bulk void: %+v", o)
	}
	if resp := bulk("k-bulk-2"); !strings.Contains(string(resp.Body), `"orderId":"ord_book_faults","status":"cancelled"`) {
		t.Errorf("bulk cancel: %s", resp.Body)
	}
	if o := orderOf(t, c, "ord_book_faults"); o.Status != "CANCELLED" || len(o.Fulfillments) != 1 || o.Fulfillments[0].Status != "cancelled" {
		t.Errorf("after bulk cancel: %+v", o)
	}
	wantError(t, get(t, c, "/open/v1/orders/ord_book_faults/shipment", ""), http.StatusUnprocessableEntity, "SHIPMENT_NOT_ARRANGED")

	// Two keys racing on one order: exactly one booking.
	if pg {
		var wg sync.WaitGroup
		codes := make([]int, 6)
		for i := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i] = book(t, c, "ord_book_race", fmt.Sprintf("k-race-%d", i), pickup).Status
			}()
		}
		wg.Wait()
		created := 0
		for _, code := range codes {
			switch code {
			case http.StatusCreated:
				created++
			case http.StatusUnprocessableEntity:
			default:
				t.Errorf("racing booking answered %d", code)
			}
		}
		if created != 1 {
			t.Errorf("racing bookings: %v, want exactly one 201", codes)
		}
	}
}

type wireOrder struct {
	Status          string  `json:"status"`
	BookingStatus   *string `json:"bookingStatus"`
	ShippingChannel *string `json:"shippingChannel"`
	Fulfillments    []struct {
		Status         string `json:"status"`
		TrackingNumber string `json:"trackingNumber"`
	} `json:"fulfillments"`
}

func orderOf(t *testing.T, c *sdk.Client, id string) wireOrder {
	t.Helper()
	resp := get(t, c, "/open/v1/orders/"+id, "")
	var env struct {
		Data wireOrder `json:"data"`
	}
	if resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &env) != nil {
		t.Fatalf("order %s: %d %s", id, resp.Status, resp.Body)
	}
	return env.Data
}

func setFaults(t *testing.T, c *sdk.Client, kind string, n int) {
	t.Helper()
	body := fmt.Sprintf(`{"target":"carrier","error":%q,"count":%d}`, kind, n)
	resp, err := c.DoSigned(context.Background(), sdk.Request{Method: http.MethodPost, Path: "/open/v1/sandbox/faults", Body: []byte(body)})
	if err != nil || resp.Status != http.StatusOK {
		t.Fatalf("faults: %v %v", resp, err)
	}
	var env struct {
		Data struct {
			Target string `json:"target"`
			Error  string `json:"error"`
			Count  int    `json:"count"`
		} `json:"data"`
	}
	if json.Unmarshal(resp.Body, &env) != nil || env.Data.Count != n || env.Data.Error != kind || env.Data.Target != "carrier" {
		t.Fatalf("faults: %s", resp.Body)
	}
}
