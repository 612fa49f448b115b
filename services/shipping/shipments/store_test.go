package shipments_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
)

func pendingFor(sellerID, orderID string) shipments.Shipment {
	id := ids.New(shipments.IDPrefix)
	return shipments.Shipment{ID: id, SellerID: sellerID, OrderID: orderID, Method: carrier.Pickup,
		ChannelID: "standard", PickupDate: "2026-11-27", Window: carrier.Window{Start: "09:00", End: "17:00"},
		AddressID: "addr_1", Carrier: "simulated", Reference: carrier.Reference(id)}
}

// The store's contract, on PostgreSQL and SQLite.
func TestStore(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		addSeller(t, d, "sel_a")
		addSeller(t, d, "sel_b")
		st := shipments.NewEntStore(d)
		at := time.Date(2026, 11, 26, 3, 4, 5, 6e6, time.UTC)

		sh, err := st.CreatePending(ctx, pendingFor("sel_a", "ord_1"))
		if err != nil || sh.Status != shipments.Pending || sh.Booked() || sh.PickupDate != "2026-11-27" || sh.Window.End != "17:00" {
			t.Fatalf("create = %+v, %v", sh, err)
		}
		if _, err := st.CreatePending(ctx, pendingFor("sel_a", "ord_1")); !errors.Is(err, shipments.ErrAlreadyArranged) {
			t.Fatalf("a second live shipment of the order: %v", err)
		}
		if got, err := st.LiveByOrder(ctx, "sel_a", "ord_1"); err != nil || got.ID != sh.ID {
			t.Fatalf("live by order = %+v, %v", got, err)
		}
		// Another seller's shipment does not exist for it.
		if _, err := st.Get(ctx, "sel_b", sh.ID); !errors.Is(err, shipments.ErrNotFound) {
			t.Fatalf("another seller's get: %v", err)
		}
		if _, err := st.LiveByOrder(ctx, "sel_b", "ord_1"); !errors.Is(err, shipments.ErrNotFound) {
			t.Fatalf("another seller's live by order: %v", err)
		}
		if live, err := st.LiveByOrders(ctx, "sel_a", []string{"ord_1", "ord_none"}); err != nil || len(live) != 1 || live["ord_1"].ID != sh.ID {
			t.Fatalf("live by orders = %+v, %v", live, err)
		}
		if live, err := st.LiveByOrders(ctx, "sel_b", []string{"ord_1"}); err != nil || len(live) != 0 {
			t.Fatalf("another seller's live by orders = %+v, %v", live, err)
		}
		if _, err := st.RecordBooking(ctx, "sel_b", sh.ID, carrier.Booking{}, carrier.Event{Status: carrier.Booked, OccurredAt: at}); !errors.Is(err, shipments.ErrNotFound) {
			t.Fatalf("another seller's record: %v", err)
		}
		if _, _, err := st.AppendEvent(ctx, "sel_a", sh.ID, carrier.Event{Status: carrier.PickedUp, OccurredAt: at}); !errors.Is(err, shipments.ErrNotPending) {
			t.Fatalf("a step of a booking in doubt: %v", err)
		}

		b := carrier.Booking{Reference: sh.Reference, TrackingNumber: "MPX079927398713", TrackingCompany: "MPX Logistics",
			RouteCode: "13-07.306", BookedAt: at}
		booked, err := st.RecordBooking(ctx, "sel_a", sh.ID, b, carrier.Event{Status: carrier.Booked, CarrierStatus: "Shipment booked", OccurredAt: at})
		if err != nil || booked.Status != shipments.Status(carrier.Booked) || !booked.Booked() ||
			booked.TrackingNumber != b.TrackingNumber || booked.RouteCode != b.RouteCode || !booked.BookedAt.Equal(at) {
			t.Fatalf("record = %+v, %v", booked, err)
		}
		if _, err := st.RecordBooking(ctx, "sel_a", sh.ID, b, carrier.Event{Status: carrier.Booked, OccurredAt: at}); !errors.Is(err, shipments.ErrNotPending) {
			t.Fatalf("recording twice: %v", err)
		}
		if err := st.DeletePending(ctx, "sel_a", sh.ID); !errors.Is(err, shipments.ErrNotPending) {
			t.Fatalf("deleting a booked shipment: %v", err)
		}
		if got, err := st.ByTrackingNumber(ctx, "simulated", b.TrackingNumber); err != nil || got.ID != sh.ID {
			t.Fatalf("by tracking number = %+v, %v", got, err)
		}
		if _, err := st.ByTrackingNumber(ctx, "another courier", b.TrackingNumber); !errors.Is(err, shipments.ErrNotFound) {
			t.Fatalf("another courier's number: %v", err)
		}

		ev, moved, err := st.AppendEvent(ctx, "sel_a", sh.ID, carrier.Event{Status: carrier.PickedUp, CarrierStatus: "Picked up by rider",
			Location: "Quezon City", OccurredAt: at.Add(time.Hour)})
		if err != nil || ev.Sequence != 2 || moved.Status != shipments.Status(carrier.PickedUp) {
			t.Fatalf("append = %+v, %+v, %v", ev, moved, err)
		}
		if _, _, err := st.AppendEvent(ctx, "sel_a", sh.ID, carrier.Event{Status: "SHIPPED", OccurredAt: at}); err == nil {
			t.Fatal("an unknown status was recorded")
		}
		if _, _, err := st.AppendEvent(ctx, "sel_b", sh.ID, carrier.Event{Status: carrier.InTransit, OccurredAt: at}); !errors.Is(err, shipments.ErrNotFound) {
			t.Fatalf("another seller's append: %v", err)
		}
		if _, _, err := st.AppendEvent(ctx, "sel_a", sh.ID, carrier.Event{Status: carrier.Delivered, OccurredAt: at.Add(2 * time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := st.AppendEvent(ctx, "sel_a", sh.ID, carrier.Event{Status: carrier.Lost, OccurredAt: at}); !errors.Is(err, shipments.ErrFinal) {
			t.Fatalf("a step after delivery: %v", err)
		}
		events, err := st.Events(ctx, "sel_a", sh.ID)
		if err != nil || len(events) != 3 {
			t.Fatalf("events = %+v, %v", events, err)
		}
		for i, want := range []carrier.Status{carrier.Booked, carrier.PickedUp, carrier.Delivered} {
			if events[i].Sequence != i+1 || events[i].Status != want {
				t.Fatalf("event %d = %+v; want %s", i, events[i], want)
			}
		}
		if events[1].Location != "Quezon City" || events[1].CarrierStatus != "Picked up by rider" || !events[0].OccurredAt.Equal(at) {
			t.Fatalf("event fields = %+v", events[:2])
		}
		if _, err := st.Events(ctx, "sel_b", sh.ID); !errors.Is(err, shipments.ErrNotFound) {
			t.Fatalf("another seller's events: %v", err)
		}
	})
}

// A cancelled booking stays as history and frees the order for the next
// one; a refused one leaves nothing.
func TestStoreCancelAndDelete(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		addSeller(t, d, "sel_a")
		st := shipments.NewEntStore(d)
		at := time.Date(2026, 11, 26, 3, 0, 0, 0, time.UTC)

		// A booking in doubt can be voided (the order was cancelled).
		sh, _ := st.CreatePending(ctx, pendingFor("sel_a", "ord_2"))
		ev, cancelled, err := st.AppendEvent(ctx, "sel_a", sh.ID, carrier.Event{Status: carrier.Cancelled, OccurredAt: at})
		if err != nil || ev.Sequence != 1 || cancelled.Status != shipments.Status(carrier.Cancelled) ||
			cancelled.CancelledAt == nil || !cancelled.CancelledAt.Equal(at) || cancelled.Booked() {
			t.Fatalf("cancel = %+v, %+v, %v", ev, cancelled, err)
		}
		if _, err := st.LiveByOrder(ctx, "sel_a", "ord_2"); !errors.Is(err, shipments.ErrNotFound) {
			t.Fatalf("a cancelled shipment is live: %v", err)
		}
		if live, err := st.LiveByOrders(ctx, "sel_a", []string{"ord_2"}); err != nil || len(live) != 0 {
			t.Fatalf("a cancelled shipment is live in a batch: %+v, %v", live, err)
		}
		next, err := st.CreatePending(ctx, pendingFor("sel_a", "ord_2"))
		if err != nil {
			t.Fatalf("booking again after a cancellation: %v", err)
		}
		if err := st.DeletePending(ctx, "sel_a", next.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Get(ctx, "sel_a", next.ID); !errors.Is(err, shipments.ErrNotFound) {
			t.Fatalf("after delete: %v", err)
		}
		if err := st.DeletePending(ctx, "sel_a", next.ID); !errors.Is(err, shipments.ErrNotFound) {
			t.Fatalf("deleting twice: %v", err)
		}
		if _, err := st.Get(ctx, "sel_a", sh.ID); err != nil {
			t.Fatalf("the cancelled booking is gone: %v", err)
		}
	})
}
