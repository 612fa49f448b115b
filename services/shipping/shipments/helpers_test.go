package shipments_test

import (
	"context"
	"sync"
	"testing"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
	"github.com/mallplatform/partnerapi/services/shipping/carrier/simulated"
)

func addSeller(t testing.TB, d *db.DB, id string) {
	t.Helper()
	if err := d.Ent.Seller.Create().SetID(id).SetName(id).SetShopName(id + " shop").Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// courierDouble is a courier outside core: it lives on when core dies,
// books once per reference like an idempotent courier, and counts the
// calls it received and the parcels it booked. fail, when set, answers
// the next call instead.
type courierDouble struct {
	mu       sync.Mutex
	calls    int
	bookings map[string]carrier.Booking
	fail     []error
	stall    bool
}

func newDouble() *courierDouble { return &courierDouble{bookings: map[string]carrier.Booking{}} }

func (d *courierDouble) Book(ctx context.Context, req carrier.BookRequest) (carrier.Booking, error) {
	d.mu.Lock()
	d.calls++
	stall := d.stall
	var fail error
	if len(d.fail) > 0 {
		fail, d.fail = d.fail[0], d.fail[1:]
	}
	d.mu.Unlock()
	if stall {
		<-ctx.Done()
		return carrier.Booking{}, ctx.Err()
	}
	if fail != nil {
		return carrier.Booking{}, fail
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if b, ok := d.bookings[req.Reference]; ok {
		return b, nil
	}
	b := carrier.Booking{Reference: req.Reference, TrackingNumber: simulated.TrackingNumber(req.Reference + "/double"),
		TrackingCompany: "Double Express", CarrierStatus: "Booked"}
	d.bookings[req.Reference] = b
	return b, nil
}

func (d *courierDouble) Void(context.Context, carrier.VoidRequest) error { return nil }

func (d *courierDouble) Track(context.Context, carrier.TrackRequest) ([]carrier.Event, error) {
	return nil, carrier.ErrNotFound
}

func (d *courierDouble) LabelData(context.Context, carrier.LabelRequest) (carrier.Label, error) {
	return carrier.Label{}, carrier.ErrNotFound
}

func (d *courierDouble) counts() (calls, bookings int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.calls, len(d.bookings)
}
