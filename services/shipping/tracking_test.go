package shipping_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/ent"
	entevent "github.com/mallplatform/partnerapi/ent/event"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/shipping"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
	"github.com/mallplatform/partnerapi/services/shipping/carrier/simulated"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
)

// failingRecorder records through r, and fails instead when fail is set:
// the last write of a tracking step, after the order's move.
type failingRecorder struct {
	r    *events.Recorder
	fail bool
}

func (f *failingRecorder) Record(ctx context.Context, c events.Change) (events.Event, error) {
	if f.fail {
		return events.Event{}, errors.New("recorder down")
	}
	return f.r.Record(ctx, c)
}

// trackingFixture is a booked order of seller sel_t on d: a READY_TO_SHIP
// order awaiting handover, booked with the simulated courier, whose booking
// left a pending Fulfillment with the tracking number (what the orders
// service's booking step writes).
type trackingFixture struct {
	d        *db.DB
	clk      *clock.Manual
	store    *shipments.EntStore
	orders   *orders.Service
	recorder *failingRecorder
	tracker  *shipping.Tracker
}

func newTrackingFixture(t *testing.T, d *db.DB) *trackingFixture {
	t.Helper()
	ctx := context.Background()
	if err := d.Ent.Seller.Create().SetID("sel_t").SetName("sel_t").SetShopName("T shop").Exec(ctx); err != nil {
		t.Fatal(err)
	}
	clk := clock.NewManual(time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC))
	rec := events.NewRecorder(events.NewEntStore(d), clk)
	f := &trackingFixture{d: d, clk: clk, store: shipments.NewEntStore(d), recorder: &failingRecorder{r: rec},
		orders: orders.NewService(orders.Config{Store: orders.NewEntStore(d), Business: clk, Events: rec})}
	f.tracker = shipping.NewTracker(shipping.TrackerConfig{Shipments: f.store, Orders: f.orders, Events: f.recorder, Business: clk})
	return f
}

func (f *trackingFixture) book(t *testing.T, orderID string) shipments.Shipment {
	t.Helper()
	ctx := context.Background()
	o := pickupOrder(orderID, "sel_t", orders.StatusReadyToShip, "JNT_STANDARD", nil)
	if err := orders.NewEntStore(f.d).CreateOrders(ctx, []*orders.Order{o}); err != nil {
		t.Fatal(err)
	}
	booker := shipments.NewBooker(f.store, simulated.Name, simulated.New(simulated.Options{}), 0, f.clk)
	sh, err := booker.Book(ctx, shipments.BookRequest{SellerID: "sel_t", OrderID: orderID, ChannelID: "JNT_STANDARD",
		Method: carrier.Pickup, PickupDate: "2026-03-03", Window: carrier.Window{Start: "09:00", End: "17:00"}, AddressID: "addr_1",
		Sender:    carrier.Address{Name: "Tindahan", PSGCCode: "1381300000", PostalCode: "1100"},
		Recipient: carrier.Address{Name: "Ana Reyes", PSGCCode: "1380300000", PostalCode: "1200"},
		Parcel:    carrier.Parcel{WeightGrams: 1200},
		Recorded: func(ctx context.Context, s shipments.Shipment) error {
			_, err := f.orders.Book(ctx, s.SellerID, s.OrderID,
				orders.Booked{Channel: s.ChannelID, TrackingNumber: s.TrackingNumber, TrackingCompany: s.TrackingCompany})
			return err
		}})
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

func (f *trackingFixture) order(t *testing.T, id string) orders.View {
	t.Helper()
	o, err := orders.NewEntStore(f.d).GetOrder(context.Background(), "sel_t", id)
	if err != nil {
		t.Fatal(err)
	}
	return orders.View{Order: o, Status: o.Status}
}

// eventsOf is every event recorded on resource, oldest first, with its
// data's sequence when it has one.
type recordedEvent struct {
	Type     string
	Sequence float64
	Status   string
}

func (f *trackingFixture) eventsOf(t *testing.T, resource string) []recordedEvent {
	t.Helper()
	rows, err := f.d.Ent.Event.Query().Where(entevent.ResourceID(resource)).Order(ent.Asc(entevent.FieldSequence)).All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := make([]recordedEvent, 0, len(rows))
	for _, r := range rows {
		var data map[string]any
		_ = json.Unmarshal(r.Data, &data)
		seq, _ := data["sequence"].(float64)
		st, _ := data["status"].(string)
		out = append(out, recordedEvent{Type: r.Type, Sequence: seq, Status: st})
	}
	return out
}

func step(st carrier.Status, at time.Time) carrier.Event {
	return carrier.Event{Status: st, CarrierStatus: "courier: " + string(st), Description: string(st), Location: "Makati Hub", OccurredAt: at}
}

func codeOf(err error) string {
	var e *apierr.Error
	if errors.As(err, &e) {
		return e.Code.String()
	}
	return ""
}

// The order follows its parcel: PICKED_UP ships it (Fulfillment pending ->
// shipped, booking status gone), DELIVERED delivers it, each step with its
// shipment.tracking_updated in the same transaction; a repeated step
// changes nothing, and a failure rolls the step, the order and the events
// back together.
func TestTrackingMovesTheOrder(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newTrackingFixture(t, d)
		sh := f.book(t, "ord_trk_1")
		at := f.clk.Now().Add(time.Hour)

		got, steps, err := f.tracker.Push(ctx, simulated.Name, sh.TrackingNumber, []carrier.Event{step(carrier.PickedUp, at)})
		if err != nil || len(steps) != 1 || steps[0].Event.Sequence != 2 || steps[0].Duplicate || got.Status != shipments.Status(carrier.PickedUp) {
			t.Fatalf("push PICKED_UP: %+v %+v %v", got, steps, err)
		}
		o := f.order(t, "ord_trk_1")
		if o.Order.Status != orders.StatusShipped || o.Order.BookingStatus != nil || o.Order.ShippedAt == nil {
			t.Errorf("after PICKED_UP: status %s booking %v shipped_at %v", o.Order.Status, o.Order.BookingStatus, o.Order.ShippedAt)
		}
		if fs := o.Order.Fulfillments; len(fs) != 1 || fs[0].Status != orders.FulfillmentShipped || fs[0].TrackingNumber != sh.TrackingNumber {
			t.Errorf("fulfillments after PICKED_UP: %+v, want the booking's, shipped", fs)
		}
		if ev := f.eventsOf(t, sh.ID); len(ev) != 1 || ev[0] != (recordedEvent{"shipment.tracking_updated", 2, "PICKED_UP"}) {
			t.Errorf("shipment events: %+v", ev)
		}
		if ev := f.eventsOf(t, "ord_trk_1"); len(ev) != 1 || ev[0].Type != "order.shipped" {
			t.Errorf("order events: %+v", ev)
		}

		// The courier resends the same step (its webhook retried): the
		// first sequence, nothing written. Timestamps are compared at the
		// stored precision.
		_, steps, err = f.tracker.Push(ctx, simulated.Name, sh.TrackingNumber, []carrier.Event{step(carrier.PickedUp, at.Add(300*time.Microsecond))})
		if err != nil || len(steps) != 1 || !steps[0].Duplicate || steps[0].Event.Sequence != 2 {
			t.Fatalf("repeated PICKED_UP: %+v %v", steps, err)
		}
		if evs, _ := f.store.Events(ctx, "sel_t", sh.ID); len(evs) != 2 {
			t.Errorf("after a repeated step: %d events, want 2", len(evs))
		}
		if ev := f.eventsOf(t, sh.ID); len(ev) != 1 {
			t.Errorf("a repeated step recorded events: %+v", ev)
		}

		// In transit: a step, no order move.
		if _, steps, err = f.tracker.Push(ctx, simulated.Name, sh.TrackingNumber, []carrier.Event{step(carrier.InTransit, at.Add(time.Hour))}); err != nil || steps[0].Event.Sequence != 3 {
			t.Fatalf("IN_TRANSIT: %+v %v", steps, err)
		}
		if ev := f.eventsOf(t, "ord_trk_1"); len(ev) != 1 {
			t.Errorf("IN_TRANSIT moved the order: %+v", ev)
		}

		// DELIVERED while the event recorder fails: the order's move and
		// its order.delivered were written before the failure, and all of
		// it rolls back with the step.
		f.recorder.fail = true
		if _, _, err := f.tracker.Push(ctx, simulated.Name, sh.TrackingNumber, []carrier.Event{step(carrier.Delivered, at.Add(2*time.Hour))}); err == nil {
			t.Fatal("DELIVERED with the recorder down succeeded")
		}
		f.recorder.fail = false
		if o := f.order(t, "ord_trk_1"); o.Order.Status != orders.StatusShipped || o.Order.Fulfillments[0].Status != orders.FulfillmentShipped {
			t.Errorf("after a failed DELIVERED: %s %+v", o.Order.Status, o.Order.Fulfillments)
		}
		if evs, _ := f.store.Events(ctx, "sel_t", sh.ID); len(evs) != 3 {
			t.Errorf("after a failed DELIVERED: %d steps, want 3", len(evs))
		}
		if ev := f.eventsOf(t, "ord_trk_1"); len(ev) != 1 {
			t.Errorf("after a failed DELIVERED: order events %+v", ev)
		}

		got, steps, err = f.tracker.Push(ctx, simulated.Name, sh.TrackingNumber, []carrier.Event{step(carrier.Delivered, at.Add(2*time.Hour))})
		if err != nil || steps[0].Event.Sequence != 4 || got.Status != shipments.Status(carrier.Delivered) {
			t.Fatalf("DELIVERED: %+v %+v %v", got, steps, err)
		}
		o = f.order(t, "ord_trk_1")
		if o.Order.Status != orders.StatusDelivered || len(o.Order.Fulfillments) != 1 || o.Order.Fulfillments[0].Status != orders.FulfillmentDelivered {
			t.Errorf("after DELIVERED: %s %+v", o.Order.Status, o.Order.Fulfillments)
		}
		if ev := f.eventsOf(t, "ord_trk_1"); len(ev) != 2 || ev[1].Type != "order.delivered" {
			t.Errorf("order events after DELIVERED: %+v", ev)
		}
		if ev := f.eventsOf(t, sh.ID); len(ev) != 3 || ev[2] != (recordedEvent{"shipment.tracking_updated", 4, "DELIVERED"}) {
			t.Errorf("shipment events after DELIVERED: %+v", ev)
		}

		// Nothing follows a delivered parcel but its own repeat.
		if _, _, err := f.tracker.Push(ctx, simulated.Name, sh.TrackingNumber, []carrier.Event{step(carrier.Lost, at.Add(3*time.Hour))}); codeOf(err) != "ERROR_CODE_INVALID_TRANSITION" {
			t.Errorf("LOST after DELIVERED: %v", err)
		}
		if _, steps, err := f.tracker.Push(ctx, simulated.Name, sh.TrackingNumber, []carrier.Event{step(carrier.Delivered, at.Add(2*time.Hour))}); err != nil || !steps[0].Duplicate {
			t.Errorf("repeated DELIVERED: %+v %v", steps, err)
		}
	})
}

// A courier that skips the pick-up scan still ships the order before it
// delivers it; the booking's own steps are refused; a parcel lost on the
// way leaves the order SHIPPED; an unknown number is NOT_FOUND.
func TestTrackingStatusMapping(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newTrackingFixture(t, d)
		direct := f.book(t, "ord_trk_direct")
		at := f.clk.Now().Add(time.Hour)
		// Two steps in one push: one transaction.
		if _, steps, err := f.tracker.Push(ctx, simulated.Name, direct.TrackingNumber,
			[]carrier.Event{step(carrier.OutForDelivery, at), step(carrier.Delivered, at.Add(time.Hour))}); err != nil || len(steps) != 2 || steps[1].Event.Sequence != 3 {
			t.Fatalf("OUT_FOR_DELIVERY, DELIVERED: %+v %v", steps, err)
		}
		if o := f.order(t, "ord_trk_direct"); o.Order.Status != orders.StatusDelivered || o.Order.Fulfillments[0].Status != orders.FulfillmentDelivered {
			t.Errorf("delivered without a pick-up scan: %s %+v", o.Order.Status, o.Order.Fulfillments)
		}
		if ev := f.eventsOf(t, "ord_trk_direct"); len(ev) != 2 || ev[0].Type != "order.shipped" || ev[1].Type != "order.delivered" {
			t.Errorf("order events: %+v", ev)
		}

		lost := f.book(t, "ord_trk_lost")
		for _, st := range []carrier.Status{carrier.Booked, carrier.Cancelled, "TELEPORTED"} {
			if _, _, err := f.tracker.Push(ctx, simulated.Name, lost.TrackingNumber, []carrier.Event{step(st, at)}); codeOf(err) != "ERROR_CODE_VALIDATION_ERROR" {
				t.Errorf("push %s: %v", st, err)
			}
		}
		if _, _, err := f.tracker.Push(ctx, simulated.Name, lost.TrackingNumber,
			[]carrier.Event{step(carrier.PickedUp, at), step(carrier.Lost, at.Add(time.Hour))}); err != nil {
			t.Fatal(err)
		}
		if o := f.order(t, "ord_trk_lost"); o.Order.Status != orders.StatusShipped {
			t.Errorf("a lost parcel's order: %s, want SHIPPED", o.Order.Status)
		}

		// An order the step cannot move (cancelled while its booking
		// stood) refuses the step, and nothing of it stays.
		refused := f.book(t, "ord_trk_refused")
		if err := d.Ent.Order.UpdateOneID("ord_trk_refused").SetStatus("CANCELLED").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.tracker.Push(ctx, simulated.Name, refused.TrackingNumber, []carrier.Event{step(carrier.PickedUp, at)}); codeOf(err) != "ERROR_CODE_INVALID_TRANSITION" {
			t.Errorf("PICKED_UP of a cancelled order: %v", err)
		}
		if evs, _ := f.store.Events(ctx, "sel_t", refused.ID); len(evs) != 1 {
			t.Errorf("a refused step stayed: %d steps", len(evs))
		}
		if ev := f.eventsOf(t, refused.ID); len(ev) != 0 {
			t.Errorf("a refused step recorded %+v", ev)
		}

		if _, _, err := f.tracker.Push(ctx, simulated.Name, "NOPE123", []carrier.Event{step(carrier.PickedUp, at)}); codeOf(err) != "ERROR_CODE_NOT_FOUND" {
			t.Errorf("unknown number: %v", err)
		}
		if _, _, err := f.tracker.Push(ctx, "another-courier", lost.TrackingNumber, []carrier.Event{step(carrier.PickedUp, at)}); codeOf(err) != "ERROR_CODE_NOT_FOUND" {
			t.Errorf("another courier's number: %v", err)
		}
		// Another seller's shipment through the seller-scoped Append.
		if _, _, err := f.tracker.Append(ctx, "sel_other", lost.ID, step(carrier.Delivered, at)); codeOf(err) != "ERROR_CODE_NOT_FOUND" {
			t.Errorf("another seller's shipment: %v", err)
		}
	})
}
