package shipments_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
	"github.com/mallplatform/partnerapi/services/shipping/carrier/simulated"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
)

var businessNow = time.Date(2026, 11, 26, 2, 0, 0, 0, time.UTC)

func booker(st shipments.Store, c carrier.Carrier) *shipments.Booker {
	return shipments.NewBooker(st, "simulated", c, 0, clock.NewManual(businessNow))
}

func bookRequest(orderID string) shipments.BookRequest {
	return shipments.BookRequest{
		SellerID: "sel_a", OrderID: orderID, ChannelID: "standard", Method: carrier.Pickup,
		PickupDate: "2026-11-27", Window: carrier.Window{Start: "09:00", End: "17:00"}, AddressID: "addr_1",
		Sender:    carrier.Address{Name: "Tindahan", PSGCCode: "1381300000", PostalCode: "1100"},
		Recipient: carrier.Address{Name: "Juan dela Cruz", PSGCCode: "0730600000", PostalCode: "6000"},
		Parcel:    carrier.Parcel{WeightGrams: 1200},
	}
}

func TestBook(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		addSeller(t, d, "sel_a")
		st := shipments.NewEntStore(d)
		courier := simulated.New(simulated.Options{Now: func() time.Time { return businessNow }})
		bk := booker(st, courier)

		req := bookRequest("ord_1")
		var inTx bool
		req.Recorded = func(ctx context.Context, s shipments.Shipment) error {
			_, inTx = db.TxFromContext(ctx)
			return nil
		}
		sh, err := bk.Book(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if !inTx {
			t.Fatal("Recorded ran outside the recording transaction")
		}
		if sh.Status != shipments.Status(carrier.Booked) || sh.Reference != carrier.Reference(sh.ID) ||
			sh.TrackingNumber != simulated.TrackingNumber(sh.Reference) || sh.TrackingCompany != simulated.Company ||
			sh.Carrier != "simulated" || sh.BookedAt == nil || !sh.BookedAt.Equal(businessNow) {
			t.Fatalf("booked = %+v", sh)
		}
		events, _ := st.Events(ctx, "sel_a", sh.ID)
		if len(events) != 1 || events[0].Status != carrier.Booked || events[0].CarrierStatus != simulated.WordsFor(carrier.Booked) {
			t.Fatalf("events = %+v", events)
		}

		// The order is booked: another attempt is refused before the
		// courier hears of it.
		if _, err := bk.Book(ctx, bookRequest("ord_1")); !errors.Is(err, shipments.ErrAlreadyArranged) {
			t.Fatalf("second booking: %v", err)
		}
		if courier.Bookings() != 1 {
			t.Fatalf("%d bookings", courier.Bookings())
		}

		// Book's first step must commit on its own.
		err = db.InTx(ctx, d.Ent, func(ctx context.Context) error {
			_, err := bk.Book(ctx, bookRequest("ord_2"))
			return err
		})
		if !errors.Is(err, shipments.ErrInTransaction) {
			t.Fatalf("Book in a transaction: %v", err)
		}
	})
}

// A refusal leaves nothing behind: no shipment, and the order can be
// booked afresh once the parcel is fixed.
func TestBookRefused(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		addSeller(t, d, "sel_a")
		st := shipments.NewEntStore(d)
		courier := simulated.New(simulated.Options{})
		bk := booker(st, courier)

		req := bookRequest("ord_1")
		req.Parcel.WeightGrams = simulated.MaxWeightGrams + 1
		recorded := false
		req.Recorded = func(context.Context, shipments.Shipment) error { recorded = true; return nil }
		_, err := bk.Book(ctx, req)
		f, ok := carrier.Classify(err)
		if !ok || apierr.Name(f.Code) != "SHIP_FAILED" || f.Reason != carrier.Overweight || f.Retryable {
			t.Fatalf("overweight: %v (%+v)", err, f)
		}
		if recorded {
			t.Fatal("a refused booking ran Recorded")
		}
		if _, err := st.LiveByOrder(ctx, "sel_a", "ord_1"); !errors.Is(err, shipments.ErrNotFound) {
			t.Fatalf("a refused booking left a shipment: %v", err)
		}
		if _, err := bk.Book(ctx, bookRequest("ord_1")); err != nil {
			t.Fatalf("booking the fixed parcel: %v", err)
		}
	})
}

// An unreachable or silent courier may or may not have booked: the
// shipment stays pending and unseen, the order unbooked, and the next
// attempt asks with the same reference.
func TestBookInDoubtIsResumedWithTheSameReference(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		addSeller(t, d, "sel_a")
		st := shipments.NewEntStore(d)
		double := newDouble()
		double.fail = []error{carrier.ErrUnreachable}

		_, err := booker(st, double).Book(ctx, bookRequest("ord_1"))
		if f, _ := carrier.Classify(err); apierr.Name(f.Code) != "UPSTREAM_ERROR" {
			t.Fatalf("unreachable: %v", err)
		}
		pending, err := st.LiveByOrder(ctx, "sel_a", "ord_1")
		if err != nil || pending.Status != shipments.Pending || pending.Booked() {
			t.Fatalf("after an unreachable courier: %+v, %v", pending, err)
		}

		double.stall = true
		slow := shipments.NewBooker(st, "simulated", double, time.Millisecond, clock.NewManual(businessNow))
		_, err = slow.Book(ctx, bookRequest("ord_1"))
		if f, _ := carrier.Classify(err); apierr.Name(f.Code) != "UPSTREAM_TIMEOUT" {
			t.Fatalf("silent courier: %v", err)
		}

		double.stall = false
		sh, err := booker(st, double).Book(ctx, bookRequest("ord_1"))
		if err != nil || sh.ID != pending.ID || sh.Reference != pending.Reference || !sh.Booked() {
			t.Fatalf("resumed = %+v, %v; want the pending %s", sh, err, pending.ID)
		}
		if calls, bookings := double.counts(); calls != 3 || bookings != 1 {
			t.Fatalf("courier: %d calls, %d bookings; want 3 calls, 1 booking", calls, bookings)
		}
	})
}

// The kill test: core dies after the courier booked and before the
// booking committed. Recorded stands for the last moment of that process:
// it panics inside the recording transaction, which rolls back as a dead
// process's would. A new process (a new Booker) retries: it resumes the
// pending row, sends the same reference, and the courier books one parcel.
func TestBookKilledBetweenTheCarrierAndTheCommit(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		addSeller(t, d, "sel_a")
		st := shipments.NewEntStore(d)
		double := newDouble()
		sh, first := bookThroughACrash(t, st, "ord_1", double, double)
		if calls, bookings := double.counts(); calls != 2 || bookings != 1 {
			t.Fatalf("%d calls, %d bookings; want 2 calls, 1 booking", calls, bookings)
		}
		if sh.TrackingNumber != first {
			t.Fatalf("tracking %s after the retry, %s before", sh.TrackingNumber, first)
		}
	})
}

// The simulated courier lives in core's process and dies with it: the
// restarted one, knowing nothing, gives the same reference the same
// tracking number, so the parcel is still booked once.
func TestBookKilledWithTheSimulatedCourier(t *testing.T) {
	d := dbtest.SQLite(t)
	addSeller(t, d, "sel_a")
	st := shipments.NewEntStore(d)
	before, after := simulated.New(simulated.Options{}), simulated.New(simulated.Options{})
	sh, first := bookThroughACrash(t, st, "ord_1", before, after)
	if sh.TrackingNumber != first || after.Bookings() != 1 {
		t.Fatalf("tracking %s after the restart, %s before (%d bookings)", sh.TrackingNumber, first, after.Bookings())
	}
}

type killed struct{}

// bookThroughACrash books orderID with the first process dying in the
// recording transaction, then retries in a second; it returns the
// shipment and the tracking number the first process was told.
func bookThroughACrash(t *testing.T, st shipments.Store, orderID string, before, after carrier.Carrier) (shipments.Shipment, string) {
	t.Helper()
	ctx := context.Background()
	req := bookRequest(orderID)
	var tracking string
	req.Recorded = func(_ context.Context, s shipments.Shipment) error {
		tracking = s.TrackingNumber
		panic(killed{})
	}
	func() {
		defer func() {
			if p := recover(); p != (killed{}) {
				t.Fatalf("the first process ended with %v", p)
			}
		}()
		_, _ = booker(st, before).Book(ctx, req)
	}()
	if tracking == "" {
		t.Fatal("the first process died before the courier answered")
	}
	pending, err := st.LiveByOrder(ctx, "sel_a", orderID)
	if err != nil || pending.Status != shipments.Pending || pending.TrackingNumber != "" {
		t.Fatalf("after the crash: %+v, %v; want the pending row alone", pending, err)
	}
	if events, _ := st.Events(ctx, "sel_a", pending.ID); len(events) != 0 {
		t.Fatalf("the rolled-back booking left events: %+v", events)
	}

	sh, err := booker(st, after).Book(ctx, bookRequest(orderID))
	if err != nil {
		t.Fatal(err)
	}
	if sh.ID != pending.ID || sh.Reference != pending.Reference || !sh.Booked() {
		t.Fatalf("retry booked %+v; want the pending %s", sh, pending.ID)
	}
	return sh, tracking
}

// Bookings of one order racing from many requests: exactly one succeeds,
// the others are told the order is arranged, and the courier books one
// parcel (a racer that found the winner's pending row asks with its
// reference).
func TestBookRace(t *testing.T) {
	d := dbtest.Postgres(t)
	addSeller(t, d, "sel_a")
	st := shipments.NewEntStore(d)
	double := newDouble()
	const racers = 8
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		won      int
		arranged int
	)
	for i := 0; i < racers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := booker(st, double).Book(context.Background(), bookRequest("ord_race"))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won++
			case errors.Is(err, shipments.ErrAlreadyArranged):
				arranged++
			default:
				t.Errorf("racer: %v", err)
			}
		}()
	}
	wg.Wait()
	if won != 1 || arranged != racers-1 {
		t.Fatalf("%d won, %d told arranged; want 1 and %d", won, arranged, racers-1)
	}
	if _, bookings := double.counts(); bookings != 1 {
		t.Fatalf("the courier booked %d parcels", bookings)
	}
}

// A caller's step refusing in the recording transaction rolls it back like
// a crash; an order cancelled while the courier booked wins, and the
// reference is voided again.
func TestBookRecordedRefusedAndCancelledMeanwhile(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		addSeller(t, d, "sel_a")
		st := shipments.NewEntStore(d)
		double := &voidCounting{courierDouble: newDouble()}

		refused := errors.New("orders: the order cannot be booked")
		req := bookRequest("ord_1")
		req.Recorded = func(context.Context, shipments.Shipment) error { return refused }
		if _, err := booker(st, double).Book(ctx, req); !errors.Is(err, refused) {
			t.Fatalf("Book = %v; want the caller's refusal", err)
		}
		pending, err := st.LiveByOrder(ctx, "sel_a", "ord_1")
		if err != nil || pending.Status != shipments.Pending {
			t.Fatalf("after the refusal: %+v, %v", pending, err)
		}

		// The order is cancelled (its pending booking voided) while the
		// next attempt's courier call is under way.
		double.during = func() {
			if _, _, err := st.AppendEvent(ctx, "sel_a", pending.ID, carrier.Event{Status: carrier.Cancelled, OccurredAt: businessNow}); err != nil {
				t.Errorf("cancel: %v", err)
			}
		}
		if _, err := booker(st, double).Book(ctx, bookRequest("ord_1")); !errors.Is(err, shipments.ErrCancelledMeanwhile) {
			t.Fatalf("Book = %v; want ErrCancelledMeanwhile", err)
		}
		if double.voids != 1 {
			t.Fatalf("%d voids; want the reference voided again", double.voids)
		}
		if got, _ := st.Get(ctx, "sel_a", pending.ID); got.Status != shipments.Status(carrier.Cancelled) || got.TrackingNumber != "" {
			t.Fatalf("shipment = %+v; want it cancelled", got)
		}
	})
}

// voidCounting is the double with a hook run inside Book's courier call
// and a count of voids.
type voidCounting struct {
	*courierDouble
	during func()
	voids  int
}

func (v *voidCounting) Book(ctx context.Context, req carrier.BookRequest) (carrier.Booking, error) {
	if v.during != nil {
		v.during()
	}
	return v.courierDouble.Book(ctx, req)
}

func (v *voidCounting) Void(context.Context, carrier.VoidRequest) error {
	v.voids++
	return nil
}
