package simulated_test

import (
	"context"
	"errors"
	"regexp"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/services/shipping/carrier"
	"github.com/mallplatform/partnerapi/services/shipping/carrier/simulated"
)

var fixedNow = time.Date(2026, 11, 26, 2, 0, 0, 0, time.UTC)

func newCourier(faults carrier.Faults) *simulated.Courier {
	return simulated.New(simulated.Options{Faults: faults, Now: func() time.Time { return fixedNow }})
}

// A parcel from Quezon City to Cebu City that the network carries.
func request(ref string) carrier.BookRequest {
	return carrier.BookRequest{
		Reference: ref, SellerID: "sel_a", OrderID: "ord_1", ChannelID: "std", Method: carrier.Pickup,
		PickupDate: "2026-11-27", Window: carrier.Window{Start: "09:00", End: "17:00"},
		Sender:    carrier.Address{Name: "Tindahan ni Aling Nena", PSGCCode: "1381300000", PostalCode: "1100"},
		Recipient: carrier.Address{Name: "Juan dela Cruz", PSGCCode: "0730600000", PostalCode: "6000"},
		Parcel:    carrier.Parcel{WeightGrams: 1200, LengthCM: 30, WidthCM: 20, HeightCM: 10},
	}
}

func TestBookIsIdempotentOnTheReference(t *testing.T) {
	ctx := context.Background()
	c := newCourier(nil)
	first, err := c.Book(ctx, request("MPS-AAA"))
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.Book(ctx, request("MPS-AAA"))
	if err != nil || again != first {
		t.Fatalf("second booking = %+v, %v; want the first %+v", again, err, first)
	}
	if c.Bookings() != 1 {
		t.Fatalf("%d bookings for one reference", c.Bookings())
	}
	other, _ := c.Book(ctx, request("MPS-BBB"))
	if other.TrackingNumber == first.TrackingNumber || c.Bookings() != 2 {
		t.Fatalf("a second reference: %+v, %d bookings", other, c.Bookings())
	}
	if first.TrackingCompany != simulated.Company || first.RouteCode != "13-07.306" ||
		first.CarrierStatus == "" || !first.BookedAt.Equal(fixedNow) {
		t.Fatalf("booking = %+v", first)
	}

	// A restarted core has a fresh courier: the same reference still gets
	// the same tracking number, so the network carries one parcel.
	restarted := newCourier(nil)
	if b, _ := restarted.Book(ctx, request("MPS-AAA")); b.TrackingNumber != first.TrackingNumber {
		t.Fatalf("after a restart: %s, want %s", b.TrackingNumber, first.TrackingNumber)
	}
}

func TestTrackingNumberFormat(t *testing.T) {
	format := regexp.MustCompile(`^MPX[0-9]{12}$`)
	for _, ref := range []string{"MPS-1", "MPS-2", carrier.Reference("shp_x"), carrier.Reference("shp_y")} {
		n := simulated.TrackingNumber(ref)
		if !format.MatchString(n) || !simulated.ValidTrackingNumber(n) {
			t.Fatalf("%s: tracking number %q", ref, n)
		}
		if simulated.TrackingNumber(ref) != n {
			t.Fatalf("%s: not deterministic", ref)
		}
		// Any one mistyped digit fails the check digit.
		for i := 3; i < len(n); i++ {
			b := []byte(n)
			b[i] = '0' + (b[i]-'0'+1)%10
			if simulated.ValidTrackingNumber(string(b)) {
				t.Fatalf("%q passed the check digit", b)
			}
		}
	}
	for _, bad := range []string{"", "MPX", "MPX12345678901", "MPX1234567890123", "XYZ123456789012", "MPX12345678901a"} {
		if simulated.ValidTrackingNumber(bad) {
			t.Errorf("%q valid", bad)
		}
	}
	// A known Luhn number: 7992739871 has check digit 3.
	if !simulated.ValidTrackingNumber("MPX079927398713") {
		t.Error("the textbook Luhn number failed")
	}
}

func TestRefusals(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edit   func(*carrier.BookRequest)
		reason carrier.Reason
	}{
		{"Kalayaan, Palawan", func(r *carrier.BookRequest) { r.Recipient.PSGCCode = "1705321000" }, carrier.AddressUnserviceable},
		{"unknown city", func(r *carrier.BookRequest) { r.Sender.PSGCCode = "9999999999" }, carrier.AddressUnserviceable},
		{"five-digit postal code", func(r *carrier.BookRequest) { r.Recipient.PostalCode = "60000" }, carrier.InvalidPostalCode},
		{"missing postal code", func(r *carrier.BookRequest) { r.Sender.PostalCode = "" }, carrier.InvalidPostalCode},
		{"overweight", func(r *carrier.BookRequest) { r.Parcel.WeightGrams = simulated.MaxWeightGrams + 1 }, carrier.Overweight},
		{"oversize", func(r *carrier.BookRequest) { r.Parcel.HeightCM = simulated.MaxSideCM + 1 }, carrier.Oversize},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCourier(nil)
			req := request("MPS-R")
			tc.edit(&req)
			_, err := c.Book(context.Background(), req)
			r, ok := carrier.AsRefusal(err)
			if !ok || r.Reason != tc.reason || r.Retryable || r.Message == "" {
				t.Fatalf("Book = %v; want a refusal %s", err, tc.reason)
			}
			if c.Bookings() != 0 {
				t.Fatal("a refused booking was counted")
			}
		})
	}
}

// The shop's next N calls, of any kind, meet its fault; then the courier
// answers again; another shop never notices.
func TestFaultsAreConsumedPerSeller(t *testing.T) {
	ctx := context.Background()
	faults := carrier.NewMemoryFaults()
	c := newCourier(faults)
	if err := faults.Set(context.Background(), "sel_a", carrier.FaultUpstreamTimeout, 2); err != nil {
		t.Fatal(err)
	}
	other := request("MPS-OTHER")
	other.SellerID = "sel_b"
	if _, err := c.Book(ctx, other); err != nil {
		t.Fatalf("another shop: %v", err)
	}
	if _, err := c.Book(ctx, request("MPS-F")); !errors.Is(err, carrier.ErrTimeout) {
		t.Fatalf("first call: %v", err)
	}
	if _, err := c.Track(ctx, carrier.TrackRequest{SellerID: "sel_a", TrackingNumber: "MPX079927398713"}); !errors.Is(err, carrier.ErrTimeout) {
		t.Fatalf("second call: %v", err)
	}
	b, err := c.Book(ctx, request("MPS-F"))
	if err != nil || b.TrackingNumber == "" {
		t.Fatalf("third call: %+v, %v", b, err)
	}
	if c.Bookings() != 2 {
		t.Fatalf("%d bookings; the failed calls booked", c.Bookings())
	}

	_ = faults.Set(context.Background(), "sel_a", carrier.FaultShipFailed, 1)
	if err := c.Void(ctx, carrier.VoidRequest{SellerID: "sel_a", Reference: "MPS-F"}); err == nil {
		t.Fatal("a void under a SHIP_FAILED fault passed")
	}
	_ = faults.Set(context.Background(), "sel_a", carrier.FaultUpstreamError, 1)
	if _, err := c.LabelData(ctx, carrier.LabelRequest{SellerID: "sel_a"}); !errors.Is(err, carrier.ErrUnreachable) {
		t.Fatalf("label under UPSTREAM_ERROR: %v", err)
	}
}

func TestVoidTrackAndLabel(t *testing.T) {
	ctx := context.Background()
	c := newCourier(nil)
	b, _ := c.Book(ctx, request("MPS-V"))

	ev, err := c.Track(ctx, carrier.TrackRequest{SellerID: "sel_a", TrackingNumber: b.TrackingNumber})
	if err != nil || len(ev) != 1 || ev[0].Status != carrier.Booked || ev[0].CarrierStatus != simulated.WordsFor(carrier.Booked) {
		t.Fatalf("track = %+v, %v", ev, err)
	}
	l, err := c.LabelData(ctx, carrier.LabelRequest{SellerID: "sel_a", Reference: "MPS-V", TrackingNumber: b.TrackingNumber})
	if err != nil || l.Barcode != b.TrackingNumber || l.RouteCode != b.RouteCode || l.TrackingCompany != simulated.Company {
		t.Fatalf("label = %+v, %v", l, err)
	}
	if _, err := c.LabelData(ctx, carrier.LabelRequest{Reference: "MPS-V", TrackingNumber: "MPX079927398713"}); !errors.Is(err, carrier.ErrNotFound) {
		t.Fatalf("label of a number that is not the reference's: %v", err)
	}

	for i := 0; i < 2; i++ { // voiding twice succeeds
		if err := c.Void(ctx, carrier.VoidRequest{SellerID: "sel_a", Reference: "MPS-V", TrackingNumber: b.TrackingNumber}); err != nil {
			t.Fatalf("void %d: %v", i+1, err)
		}
	}
	ev, _ = c.Track(ctx, carrier.TrackRequest{TrackingNumber: b.TrackingNumber})
	if len(ev) != 2 || ev[1].Status != carrier.Cancelled {
		t.Fatalf("after the void: %+v", ev)
	}
	if err := c.Void(ctx, carrier.VoidRequest{Reference: "MPS-NEVER"}); err != nil {
		t.Fatalf("void of an unknown reference: %v", err)
	}
	if _, err := c.Track(ctx, carrier.TrackRequest{TrackingNumber: "MPX079927398713"}); !errors.Is(err, carrier.ErrNotFound) {
		t.Fatalf("track of an unknown number: %v", err)
	}
	for _, s := range carrier.Statuses() {
		if simulated.WordsFor(s) == "" {
			t.Errorf("no words for %s", s)
		}
	}
}
