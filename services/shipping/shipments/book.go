package shipments

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
)

// Booker books shipments through one carrier.
type Booker struct {
	store   Store
	name    string
	carrier carrier.Carrier
	clock   clock.Business
}

// NewBooker returns a Booker recording shipments in store as booked by the
// carrier called name; every call to c is bounded by deadline
// (carrier.DefaultDeadline when zero).
func NewBooker(store Store, name string, c carrier.Carrier, deadline time.Duration, clk clock.Business) *Booker {
	return &Booker{store: store, name: name, carrier: carrier.WithDeadline(c, deadline), clock: clk}
}

// BookRequest is what a booking needs: the shipment's own fields, and what
// the carrier is told about the parcel (built by the caller from the order
// and the seller's address).
type BookRequest struct {
	SellerID   string
	OrderID    string
	ChannelID  string
	Method     carrier.Method
	PickupDate string
	Window     carrier.Window
	AddressID  string
	Sender     carrier.Address
	Recipient  carrier.Address
	Parcel     carrier.Parcel
	// Recorded runs in the transaction that records the carrier's answer:
	// the orders service's book step and the shipment.booked event go
	// there, so they commit with the tracking number or not at all. Nil
	// when there is nothing to add.
	Recorded func(ctx context.Context, s Shipment) error
}

// ErrInTransaction: Book was called inside a transaction. Its first step
// must commit before the carrier is called, which a caller's transaction
// would prevent.
var ErrInTransaction = errors.New("shipments: Book must not run inside a transaction")

// Book books the order's parcel with the carrier, once, whatever fails.
// Three steps, each with its own transaction boundary:
//
//  1. Commit a PENDING shipment carrying its reference, carrier.Reference
//     of its fresh id (one statement; the partial unique index lets one
//     live shipment per order through, so a racing booking gets
//     ErrAlreadyArranged here, before any carrier call). When the order
//     already has a PENDING shipment, an earlier attempt died or lost the
//     carrier's answer: it is resumed, with its reference and its stored
//     method, channel, date, window and address.
//  2. Call the carrier, outside any transaction (no database lock is held
//     over the network), with the deadline and the reference.
//  3. In one transaction: record the booking (PENDING → BOOKED, tracking
//     number, event 1 BOOKED) and run req.Recorded.
//
// If the process dies between 2 and 3, the row stays PENDING; the next
// attempt resumes it and sends the same reference, and the carrier answers
// the booking it already made instead of booking again. A refusal deletes
// the pending row (nothing was booked, the order can be booked afresh); an
// unreachable or slow carrier leaves it pending, because whether the
// carrier booked is unknown until the same reference is asked again. Either
// way nothing else was written: the order shows no booking. An error of
// req.Recorded rolls step 3 back and leaves the row pending, like a crash.
// A cancellation that closed the pending row during step 2 wins: the
// reference is voided again and Book answers ErrCancelledMeanwhile. Errors
// from the carrier come back as they are; carrier.APIError maps them.
func (b *Booker) Book(ctx context.Context, req BookRequest) (Shipment, error) {
	if _, inTx := db.TxFromContext(ctx); inTx {
		return Shipment{}, ErrInTransaction
	}
	sh, err := b.pending(ctx, req)
	if err != nil {
		return Shipment{}, err
	}
	booking, err := b.carrier.Book(ctx, carrier.BookRequest{
		Reference: sh.Reference, SellerID: sh.SellerID, OrderID: sh.OrderID, ChannelID: sh.ChannelID,
		Method: sh.Method, PickupDate: sh.PickupDate, Window: sh.Window,
		Sender: req.Sender, Recipient: req.Recipient, Parcel: req.Parcel,
	})
	if err != nil {
		if _, refused := carrier.AsRefusal(err); refused {
			if derr := b.store.DeletePending(ctx, sh.SellerID, sh.ID); derr != nil && !errors.Is(derr, ErrNotPending) {
				return Shipment{}, fmt.Errorf("%w (and the pending shipment stays: %v)", err, derr)
			}
		}
		return Shipment{}, err
	}
	at := booking.BookedAt
	if at.IsZero() {
		at = b.clock.Business(ctx)
	}
	booking.BookedAt = at.UTC().Truncate(time.Millisecond)
	first := carrier.Event{Status: carrier.Booked, CarrierStatus: booking.CarrierStatus,
		Description: "Shipment booked", OccurredAt: booking.BookedAt}
	var out Shipment
	err = b.store.InTx(ctx, func(ctx context.Context) error {
		var err error
		out, err = b.store.RecordBooking(ctx, sh.SellerID, sh.ID, booking, first)
		if err != nil || req.Recorded == nil {
			return err
		}
		return req.Recorded(ctx, out)
	})
	if errors.Is(err, ErrNotPending) {
		return Shipment{}, b.settled(ctx, sh)
	}
	if err != nil {
		return Shipment{}, err
	}
	return out, nil
}

// ErrCancelledMeanwhile: the booking was voided (the order cancelled) while
// the carrier was booking it.
var ErrCancelledMeanwhile = errors.New("shipments: the booking was cancelled while the carrier booked it")

// settled is Book's answer when another writer settled the pending row
// between steps 1 and 3. Another attempt that recorded the booking makes
// this one a duplicate. A cancellation voided the reference before this
// attempt's carrier call may have booked it again, so the reference is
// voided once more (voids are idempotent; a failure here leaves a booking
// the carrier expires unused, and is reported with the error).
func (b *Booker) settled(ctx context.Context, sh Shipment) error {
	now, err := b.store.Get(ctx, sh.SellerID, sh.ID)
	if err != nil {
		return err
	}
	if now.Status != Status(carrier.Cancelled) {
		return ErrAlreadyArranged
	}
	if err := b.carrier.Void(ctx, carrier.VoidRequest{SellerID: sh.SellerID, Reference: sh.Reference}); err != nil {
		return fmt.Errorf("%w (void again: %v)", ErrCancelledMeanwhile, err)
	}
	return ErrCancelledMeanwhile
}

// pending is step 1: the order's pending shipment, created or resumed.
func (b *Booker) pending(ctx context.Context, req BookRequest) (Shipment, error) {
	live, err := b.store.LiveByOrder(ctx, req.SellerID, req.OrderID)
	switch {
	case err == nil && live.Status == Pending:
		return live, nil
	case err == nil:
		return Shipment{}, ErrAlreadyArranged
	case !errors.Is(err, ErrNotFound):
		return Shipment{}, err
	}
	id := ids.New(IDPrefix)
	return b.store.CreatePending(ctx, Shipment{
		ID: id, SellerID: req.SellerID, OrderID: req.OrderID, Method: req.Method, ChannelID: req.ChannelID,
		PickupDate: req.PickupDate, Window: req.Window, AddressID: req.AddressID,
		Carrier: b.name, Reference: carrier.Reference(id),
	})
}
