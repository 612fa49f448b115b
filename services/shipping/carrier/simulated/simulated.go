// Package simulated is the platform's own logistics network as it runs in
// dev and the sandbox: a courier in memory that books, voids, tracks and
// labels like a real one, refuses what a real one would, and fails on
// demand (the sandbox's carrier faults).
//
// Crash safety without a table: the tracking number is derived from the
// booking reference alone (TrackingNumber), so a booking retried after core
// died between the courier's answer and the commit, even by a fresh
// process, gets the same tracking number and the network carries one
// parcel. The memory only counts bookings and remembers voids within a
// process; the platform's shipments and tracking events tables stay the
// record of what happened.
package simulated

import (
	"context"
	"fmt"
	"regexp"
	"sync"
	"time"

	"github.com/mallplatform/partnerapi/internal/psgc"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
)

// Company is the tracking company partners see for the platform's network.
const Company = "MPX Logistics"

// Name is the simulated courier's name on the shipments it books.
const Name = "simulated"

// Limits the network carries; a channel's own limits are checked when it
// is quoted, these are the courier's last word.
const (
	MaxWeightGrams = 50_000
	MaxSideCM      = 150
)

// postalCode is a Philippine ZIP code: four digits.
var postalCode = regexp.MustCompile(`^[0-9]{4}$`)

// Courier is the simulated courier. The zero value is not usable: New.
type Courier struct {
	faults carrier.Faults
	now    func() time.Time
	// unserviceable lists PSGC city codes the network does not reach.
	unserviceable map[string]bool

	mu       sync.Mutex
	bookings map[string]*booking // by reference
	byNumber map[string]*booking // by tracking number
	booked   int
}

type booking struct {
	carrier.Booking
	voidedAt time.Time
}

// Options tune a Courier.
type Options struct {
	// Faults is the sandbox's per-seller fault queue; nil injects none.
	Faults carrier.Faults
	// Now is the courier's clock (UTC); time.Now when nil.
	Now func() time.Time
	// Unserviceable lists PSGC city codes the network does not reach;
	// DefaultUnserviceable when nil.
	Unserviceable []string
}

// DefaultUnserviceable is where the network does not go: Kalayaan,
// Palawan (the Spratly islands), reached by no scheduled service.
var DefaultUnserviceable = []string{"1705321000"}

// New returns a courier with no bookings.
func New(o Options) *Courier {
	c := &Courier{faults: o.Faults, now: o.Now, unserviceable: map[string]bool{},
		bookings: map[string]*booking{}, byNumber: map[string]*booking{}}
	if c.now == nil {
		c.now = func() time.Time { return time.Now().UTC() }
	}
	list := o.Unserviceable
	if list == nil {
		list = DefaultUnserviceable
	}
	for _, code := range list {
		c.unserviceable[code] = true
	}
	return c
}

var _ carrier.Carrier = (*Courier)(nil)

// Bookings is how many distinct references this process booked.
func (c *Courier) Bookings() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.booked
}

// fault is the injected failure of seller's next call, if one is queued.
func (c *Courier) fault(ctx context.Context, sellerID string) error {
	if c.faults == nil {
		return nil
	}
	k, ok, err := c.faults.Take(ctx, sellerID)
	if err != nil {
		// The queue could not be read: the courier's intake is down.
		return fmt.Errorf("simulated: fault queue: %w (%v)", carrier.ErrUnreachable, err)
	}
	if ok {
		return k.Err()
	}
	return nil
}

// Book implements carrier.Carrier: idempotent on the reference.
func (c *Courier) Book(ctx context.Context, req carrier.BookRequest) (carrier.Booking, error) {
	if err := ctx.Err(); err != nil {
		return carrier.Booking{}, err
	}
	if err := c.fault(ctx, req.SellerID); err != nil {
		return carrier.Booking{}, err
	}
	if req.Reference == "" {
		return carrier.Booking{}, fmt.Errorf("simulated: booking without a reference")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if b, ok := c.bookings[req.Reference]; ok {
		return b.Booking, nil
	}
	if err := check(req, c.unserviceable); err != nil {
		return carrier.Booking{}, err
	}
	b := &booking{Booking: carrier.Booking{
		Reference:       req.Reference,
		TrackingNumber:  TrackingNumber(req.Reference),
		TrackingCompany: Company,
		RouteCode:       RouteCode(req.Sender.PSGCCode, req.Recipient.PSGCCode),
		CarrierStatus:   WordsFor(carrier.Booked),
		BookedAt:        c.now().UTC().Truncate(time.Millisecond),
	}}
	c.bookings[req.Reference] = b
	c.byNumber[b.TrackingNumber] = b
	c.booked++
	return b.Booking, nil
}

// check is the network's refusals, in the order a courier's intake finds
// them: the addresses, then the parcel.
func check(req carrier.BookRequest, unserviceable map[string]bool) error {
	for _, a := range []struct {
		role string
		addr carrier.Address
	}{{"sender", req.Sender}, {"recipient", req.Recipient}} {
		if _, known := psgc.CityByCode(a.addr.PSGCCode); !known || unserviceable[a.addr.PSGCCode] {
			return carrier.Refuse(carrier.AddressUnserviceable, "the network does not serve the "+a.role+"'s city")
		}
		if !postalCode.MatchString(a.addr.PostalCode) {
			return carrier.Refuse(carrier.InvalidPostalCode, "the "+a.role+"'s postal code must be 4 digits")
		}
	}
	p := req.Parcel
	if p.WeightGrams > MaxWeightGrams {
		return carrier.Refuse(carrier.Overweight, fmt.Sprintf("the parcel weighs more than %d kg", MaxWeightGrams/1000))
	}
	if max(p.LengthCM, p.WidthCM, p.HeightCM) > MaxSideCM {
		return carrier.Refuse(carrier.Oversize, fmt.Sprintf("a side of the parcel is longer than %d cm", MaxSideCM))
	}
	return nil
}

// Void implements carrier.Carrier: voiding twice, or a reference this
// process never booked (it may have been booked before a restart), succeeds.
func (c *Courier) Void(ctx context.Context, req carrier.VoidRequest) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := c.fault(ctx, req.SellerID); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if b, ok := c.bookings[req.Reference]; ok && b.voidedAt.IsZero() {
		b.voidedAt = c.now().UTC().Truncate(time.Millisecond)
	}
	return nil
}

// Track implements carrier.Carrier: what this process saw of the parcel.
// Later steps of a simulated parcel are pushed to the platform (the
// sandbox's tracking route), as a real courier's webhook would.
func (c *Courier) Track(ctx context.Context, req carrier.TrackRequest) ([]carrier.Event, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := c.fault(ctx, req.SellerID); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.byNumber[req.TrackingNumber]
	if !ok {
		return nil, carrier.ErrNotFound
	}
	events := []carrier.Event{{Status: carrier.Booked, CarrierStatus: WordsFor(carrier.Booked),
		Description: "Shipment information received", OccurredAt: b.BookedAt}}
	if !b.voidedAt.IsZero() {
		events = append(events, carrier.Event{Status: carrier.Cancelled, CarrierStatus: WordsFor(carrier.Cancelled),
			Description: "Booking cancelled by the shipper", OccurredAt: b.voidedAt})
	}
	return events, nil
}

// LabelData implements carrier.Carrier. It needs no memory of the booking:
// the tracking number is the reference's, and the route code is printed
// from the addresses the platform keeps.
func (c *Courier) LabelData(ctx context.Context, req carrier.LabelRequest) (carrier.Label, error) {
	if err := ctx.Err(); err != nil {
		return carrier.Label{}, err
	}
	if err := c.fault(ctx, req.SellerID); err != nil {
		return carrier.Label{}, err
	}
	if req.Reference == "" || TrackingNumber(req.Reference) != req.TrackingNumber {
		return carrier.Label{}, carrier.ErrNotFound
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	l := carrier.Label{TrackingNumber: req.TrackingNumber, TrackingCompany: Company, Barcode: req.TrackingNumber}
	if b, ok := c.bookings[req.Reference]; ok {
		l.RouteCode = b.RouteCode
	}
	return l, nil
}
