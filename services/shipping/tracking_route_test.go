package shipping_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
	"github.com/mallplatform/partnerapi/services/shipping/carrier/simulated"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
)

func send(t *testing.T, c *sdk.Client, method, path, body string) *sdk.Response {
	t.Helper()
	req := sdk.Request{Method: method, Path: path}
	if body != "" {
		req.Body = []byte(body)
	}
	resp, err := c.DoSigned(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// bookFor writes a READY_TO_SHIP order of seller awaiting handover and books
// it with the simulated courier, as the booking route would (its pending
// Fulfillment carrying the tracking number).
func bookFor(t *testing.T, env *testenv.Env, seller, orderID string) shipments.Shipment {
	t.Helper()
	ctx := context.Background()
	o := pickupOrder(orderID, seller, orders.StatusReadyToShip, "JNT_STANDARD", nil)
	shipBy := env.Clock.Now().Add(48 * time.Hour)
	o.ShipByDate = &shipBy
	if err := orders.NewEntStore(env.DB).CreateOrders(ctx, []*orders.Order{o}); err != nil {
		t.Fatal(err)
	}
	booker := shipments.NewBooker(shipments.NewEntStore(env.DB), simulated.Name, simulated.New(simulated.Options{}), 0, env.Clock)
	sh, err := booker.Book(ctx, shipments.BookRequest{SellerID: seller, OrderID: orderID, ChannelID: "JNT_STANDARD",
		Method: carrier.Dropoff, AddressID: "addr_1",
		Sender:    carrier.Address{Name: "Tindahan", PSGCCode: "1381300000", PostalCode: "1100"},
		Recipient: carrier.Address{Name: "Ana Reyes", PSGCCode: "1380300000", PostalCode: "1200"},
		Parcel:    carrier.Parcel{WeightGrams: 1200},
		Recorded: func(ctx context.Context, s shipments.Shipment) error {
			_, err := orders.NewService(orders.Config{Store: orders.NewEntStore(env.DB), Business: env.Clock}).Book(ctx, s.SellerID, s.OrderID,
				orders.Booked{Channel: s.ChannelID, TrackingNumber: s.TrackingNumber, TrackingCompany: s.TrackingCompany})
			return err
		}})
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

type wireTracking struct {
	OrderID         string `json:"orderId"`
	ShipmentID      string `json:"shipmentId"`
	TrackingNumber  string `json:"trackingNumber"`
	TrackingCompany string `json:"trackingCompany"`
	Status          string `json:"status"`
	Events          []struct {
		Status        string `json:"status"`
		CarrierStatus string `json:"carrierStatus"`
		Description   string `json:"description"`
		Location      string `json:"location"`
		OccurredAt    string `json:"occurred_at"`
	} `json:"events"`
}

func trackingOf(t *testing.T, resp *sdk.Response) wireTracking {
	t.Helper()
	var env struct {
		Data wireTracking `json:"data"`
	}
	if resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &env) != nil {
		t.Fatalf("tracking: %d %s", resp.Status, resp.Body)
	}
	return env.Data
}

func TestTrackingRoutes(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) { testTrackingRoutes(t, pg) })
	}
}

func testTrackingRoutes(t *testing.T, pg bool) {
	env := testenv.Start(t, testenv.Options{Postgres: pg})
	ctx := context.Background()
	seller, other := env.Creds.Sellers[0].SellerID, env.Creds.Sellers[1].SellerID
	sh := bookFor(t, env, seller, "ord_trk_route")
	theirs := bookFor(t, env, other, "ord_trk_theirs")
	if err := orders.NewEntStore(env.DB).CreateOrders(ctx, []*orders.Order{
		pickupOrder("ord_trk_unbooked", seller, orders.StatusReadyToShip, "JNT_STANDARD", nil),
		pickupOrder("ord_trk_pending", seller, orders.StatusReadyToShip, "JNT_STANDARD", nil)}); err != nil {
		t.Fatal(err)
	}
	// A booking in doubt (the courier's answer not recorded) reads as none.
	if _, err := shipments.NewEntStore(env.DB).CreatePending(ctx, shipments.Shipment{ID: "shp_trk_pending", SellerID: seller,
		OrderID: "ord_trk_pending", Method: carrier.Dropoff, ChannelID: "JNT_STANDARD", AddressID: "addr_1",
		Carrier: simulated.Name, Reference: "ref-trk-pending"}); err != nil {
		t.Fatal(err)
	}
	c := env.Client(t, "full", 0)

	// The booked parcel: exactly the spec's fields, its first step BOOKED.
	resp := get(t, c, "/open/v1/orders/ord_trk_route/tracking", "")
	tr := trackingOf(t, resp)
	if tr.OrderID != "ord_trk_route" || tr.ShipmentID != sh.ID || tr.TrackingNumber != sh.TrackingNumber || tr.TrackingCompany != sh.TrackingCompany ||
		tr.Status != "BOOKED" || len(tr.Events) != 1 || tr.Events[0].Status != "BOOKED" || tr.Events[0].OccurredAt == "" {
		t.Fatalf("tracking of a booked parcel: %s", resp.Body)
	}
	var keys struct {
		Data map[string]json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(resp.Body, &keys)
	for _, k := range []string{"orderId", "shipmentId", "trackingNumber", "trackingCompany", "status", "events"} {
		if _, ok := keys.Data[k]; !ok {
			t.Errorf("tracking lacks %s: %s", k, resp.Body)
		}
	}
	if len(keys.Data) != 6 {
		t.Errorf("tracking has other fields: %s", resp.Body)
	}

	for _, id := range []string{"ord_trk_unbooked", "ord_trk_pending"} {
		wantError(t, get(t, c, "/open/v1/orders/"+id+"/tracking", ""), http.StatusUnprocessableEntity, "SHIPMENT_NOT_ARRANGED")
	}
	for _, id := range []string{"ord_trk_theirs", "ord_trk_missing"} {
		wantError(t, get(t, c, "/open/v1/orders/"+id+"/tracking", ""), http.StatusNotFound, "NOT_FOUND")
	}
	// Without the seller token.
	wantError(t, get(t, env.Client(t, "full", -1), "/open/v1/orders/ord_trk_route/tracking", ""), http.StatusUnauthorized, "SELLER_TOKEN_REQUIRED")

	// A subscription to shipment.tracking_updated.
	hook := send(t, env.Client(t, "full", -1), http.MethodPost, "/open/v1/webhooks",
		`{"eventType":"shipment.tracking_updated","callbackUrl":"https://hooks.acme.example/tracking"}`)
	var created struct {
		Data struct{ ID string } `json:"data"`
	}
	if hook.Status != http.StatusCreated || json.Unmarshal(hook.Body, &created) != nil {
		t.Fatalf("subscribe: %d %s", hook.Status, hook.Body)
	}

	// The sandbox courier picks the parcel up: the order ships.
	resp = send(t, c, http.MethodPost, "/open/v1/sandbox/shipments/"+sh.ID+"/tracking", `{"status":"PICKED_UP","location":"Makati Hub"}`)
	tr = trackingOf(t, resp)
	if tr.Status != "PICKED_UP" || len(tr.Events) != 2 || tr.Events[1].Status != "PICKED_UP" || tr.Events[1].Location != "Makati Hub" ||
		tr.Events[1].CarrierStatus == "" {
		t.Fatalf("sandbox PICKED_UP: %s", resp.Body)
	}
	resp = get(t, c, "/open/v1/orders/ord_trk_route", "")
	var order struct {
		Data struct {
			Status        string  `json:"status"`
			BookingStatus *string `json:"bookingStatus"`
			SLABreached   *bool   `json:"slaBreached"`
			Fulfillments  []struct {
				Status         string `json:"status"`
				TrackingNumber string `json:"trackingNumber"`
			} `json:"fulfillments"`
		} `json:"data"`
	}
	if resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &order) != nil {
		t.Fatalf("order: %d %s", resp.Status, resp.Body)
	}
	if o := order.Data; o.Status != "SHIPPED" || o.BookingStatus != nil || o.SLABreached == nil || *o.SLABreached ||
		len(o.Fulfillments) != 1 || o.Fulfillments[0].Status != "shipped" || o.Fulfillments[0].TrackingNumber != sh.TrackingNumber {
		t.Errorf("order after PICKED_UP: %s", resp.Body)
	}

	// The subscription has the step queued, with its sequence.
	resp = get(t, env.Client(t, "full", -1), "/open/v1/webhooks/"+created.Data.ID+"/deliveries", "")
	var log struct {
		Data []struct {
			EventID string `json:"eventId"`
		} `json:"data"`
	}
	if resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &log) != nil || len(log.Data) != 1 {
		t.Fatalf("deliveries: %d %s", resp.Status, resp.Body)
	}
	resp = get(t, c, "/open/v1/events/"+log.Data[0].EventID, "")
	var ev struct {
		Data struct {
			Type string `json:"type"`
			Data struct {
				ShipmentID string  `json:"shipmentId"`
				Sequence   float64 `json:"sequence"`
				Status     string  `json:"status"`
			} `json:"data"`
		} `json:"data"`
	}
	if resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &ev) != nil || ev.Data.Type != "shipment.tracking_updated" ||
		ev.Data.Data.ShipmentID != sh.ID || ev.Data.Data.Sequence != 2 || ev.Data.Data.Status != "PICKED_UP" {
		t.Errorf("the delivered event: %d %s", resp.Status, resp.Body)
	}

	// The sandbox's order transition of a booked order moves its parcel.
	resp = send(t, c, http.MethodPost, "/open/v1/sandbox/orders/ord_trk_route/transition", `{"to":"DELIVERED"}`)
	if resp.Status != http.StatusOK {
		t.Fatalf("transition to DELIVERED: %d %s", resp.Status, resp.Body)
	}
	tr = trackingOf(t, get(t, c, "/open/v1/orders/ord_trk_route/tracking", ""))
	if tr.Status != "DELIVERED" || len(tr.Events) != 3 || tr.Events[2].Status != "DELIVERED" {
		t.Errorf("tracking after the DELIVERED transition: %+v", tr)
	}
	if err := json.Unmarshal(resp.Body, &order); err != nil || order.Data.Status != "DELIVERED" || order.Data.Fulfillments[0].Status != "delivered" {
		t.Errorf("order after the DELIVERED transition: %s", resp.Body)
	}

	// The route's codes.
	for _, tc := range []struct {
		path, body string
		status     int
		code       string
	}{
		{"/open/v1/sandbox/shipments/" + sh.ID + "/tracking", `{"status":"IN_TRANSIT"}`, http.StatusUnprocessableEntity, "INVALID_TRANSITION"},
		{"/open/v1/sandbox/shipments/" + theirs.ID + "/tracking", `{"status":"PICKED_UP"}`, http.StatusNotFound, "NOT_FOUND"},
		{"/open/v1/sandbox/shipments/shp_trk_pending/tracking", `{"status":"PICKED_UP"}`, http.StatusUnprocessableEntity, "SHIPMENT_NOT_ARRANGED"},
		{"/open/v1/sandbox/shipments/" + theirs.ID + "/tracking", `{"status":"BOOKED"}`, http.StatusBadRequest, "VALIDATION_ERROR"},
		{"/open/v1/sandbox/shipments/" + theirs.ID + "/tracking", `{"status":"PICKED_UP","extra":1}`, http.StatusBadRequest, "VALIDATION_ERROR"},
		{"/open/v1/sandbox/shipments/" + theirs.ID + "/tracking", `{}`, http.StatusBadRequest, "VALIDATION_ERROR"},
	} {
		wantError(t, send(t, c, http.MethodPost, tc.path, tc.body), tc.status, tc.code)
	}

	// The courier's push: internal callers only.
	push := &shippingv1.PushTrackingEventsRequest{Carrier: simulated.Name, TrackingNumber: theirs.TrackingNumber,
		Events: []*shippingv1.CarrierEvent{{Status: shippingv1.TrackingStatus_TRACKING_STATUS_PICKED_UP, CarrierStatus: "Picked up",
			OccurredAt: timestamppb.New(env.Clock.Now())}}}
	adapter := shippingv1.NewCarrierPushServiceClient(env.DialCore(t, env.InternalCaller(t, "courier-adapter", "mp.shipping.v1.CarrierPushService")))
	for range 2 {
		got, err := adapter.PushTrackingEvents(ctx, push)
		if err != nil || got.GetShipmentId() != theirs.ID || got.GetStatus() != shippingv1.TrackingStatus_TRACKING_STATUS_PICKED_UP ||
			len(got.GetEvents()) != 1 || got.GetEvents()[0].GetSequence() != 2 {
			t.Fatalf("push: %v %v", got, err)
		}
	}
	if tr := trackingOf(t, get(t, env.Client(t, "full", 1), "/open/v1/orders/ord_trk_theirs/tracking", "")); len(tr.Events) != 2 {
		t.Errorf("a repeated push added a step: %+v", tr)
	}
	// A partner's credentials, or an internal caller granted other
	// services, do not reach it; nor does any partner route.
	for name, token := range map[string]string{"partner secret": env.Creds.Apps["full"].ClientSecret,
		"another service's caller": env.InternalCaller(t, "orders-only", "mp.orders.v1.OrdersService")} {
		_, err := shippingv1.NewCarrierPushServiceClient(env.DialCore(t, token)).PushTrackingEvents(ctx, push)
		if c := status.Code(err); c != codes.Unauthenticated && c != codes.PermissionDenied {
			t.Errorf("%s: %v, want refused", name, err)
		}
	}
	wantError(t, send(t, c, http.MethodPost, "/mp.shipping.v1.CarrierPushService/PushTrackingEvents", `{}`), http.StatusNotFound, "NOT_FOUND")
}
