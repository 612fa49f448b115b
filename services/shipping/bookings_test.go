package shipping_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/ent/event"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/psgc"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/shipping"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
	"github.com/mallplatform/partnerapi/services/shipping/carrier/simulated"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
)

// A cancellation's two halves: Void reaches the courier (the simulated
// courier's own record shows the booking cancelled), Voided closes the
// shipment with shipment.cancelled in the caller's transaction; a void the
// courier does not confirm is reported per order, and nothing is closed.
func TestOrderBookingsVoid(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) {
			var d *db.DB
			if pg {
				d = dbtest.Postgres(t)
			} else {
				d = dbtest.SQLite(t)
			}
			ctx := context.Background()
			const seller = "slr_void"
			if err := d.Ent.Seller.Create().SetID(seller).SetName(seller).SetShopName("Void shop").Exec(ctx); err != nil {
				t.Fatal(err)
			}
			faults := carrier.NewMemoryFaults()
			courier := simulated.New(simulated.Options{Faults: faults})
			store := shipments.NewEntStore(d)
			svc := shipping.NewService(shipping.Config{Store: shipping.NewEntStore(d), Shipments: store, Carrier: courier,
				CarrierName: simulated.Name, Events: events.NewRecorder(events.NewEntStore(d), clock.System{})})
			booker := shipments.NewBooker(store, simulated.Name, courier, 0, clock.System{})
			loc, ok, err := psgc.Resolve("", "", "National Capital Region (NCR)", "City of Makati")
			if !ok || err != nil || loc.City == nil {
				t.Fatalf("Makati: %v %v", ok, err)
			}
			addr := carrier.Address{Name: "A", Line1: "1 Rizal St.", City: "City of Makati", PostalCode: "1200", PSGCCode: loc.City.Code}
			booked := map[string]shipments.Shipment{}
			for _, id := range []string{"ord_void_a", "ord_void_b"} {
				sh, err := booker.Book(ctx, shipments.BookRequest{SellerID: seller, OrderID: id, ChannelID: "JNT_STANDARD",
					Method: carrier.Dropoff, AddressID: "pad_1", Sender: addr, Recipient: addr,
					Parcel: carrier.Parcel{WeightGrams: 500}})
				if err != nil {
					t.Fatal(err)
				}
				booked[id] = sh
			}
			b := svc.OrderBookings()

			// The courier does not answer for b: b is reported, a is voided.
			if err := faults.Set(ctx, seller, carrier.FaultUpstreamError, 0); err != nil {
				t.Fatal(err)
			}
			failed, err := b.Void(ctx, seller, []string{"ord_void_a", "ord_void_none"})
			if err != nil || len(failed) != 0 {
				t.Fatalf("void a: %v %v", failed, err)
			}
			_ = faults.Set(ctx, seller, carrier.FaultUpstreamError, 1)
			failed, err = b.Void(ctx, seller, []string{"ord_void_b"})
			if err != nil || failed["ord_void_b"] == nil || failed["ord_void_b"].Code != apierr.UpstreamError {
				t.Fatalf("void b under a fault: %v %v", failed, err)
			}
			for id, want := range map[string]carrier.Status{"ord_void_a": carrier.Cancelled, "ord_void_b": carrier.Booked} {
				ev, err := courier.Track(ctx, carrier.TrackRequest{SellerID: seller, TrackingNumber: booked[id].TrackingNumber})
				if err != nil || ev[len(ev)-1].Status != want {
					t.Errorf("%s at the courier: %v %v, want last %s", id, ev, err, want)
				}
			}

			// The recording half, in the cancellation's transaction.
			err = store.InTx(ctx, func(ctx context.Context) error {
				return b.Voided(ctx, seller, []string{"ord_void_a", "ord_void_none"}, time.Now())
			})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := store.LiveByOrder(ctx, seller, "ord_void_a"); !errors.Is(err, shipments.ErrNotFound) {
				t.Errorf("a after Voided: %v, want no live booking", err)
			}
			if sh, err := store.LiveByOrder(ctx, seller, "ord_void_b"); err != nil || sh.Status != shipments.Status(carrier.Booked) {
				t.Errorf("b: %+v %v, want still booked", sh, err)
			}
			n, err := d.Ent.Event.Query().Where(event.ResourceID(booked["ord_void_a"].ID)).Count(ctx)
			if err != nil || n != 1 {
				t.Errorf("a's events: %d %v, want shipment.cancelled", n, err)
			}
		})
	}
}
