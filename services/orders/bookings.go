package orders

import (
	"context"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// Bookings is the orders' carrier bookings as the shipping domain keeps
// them: a cancellation voids an order's live booking through it, so the
// orders package never imports shipping (shipping implements it; the
// platform wires it with UseBookings).
//
// A cancellation calls Void first, before its transaction writes anything,
// then moves the order and calls Voided in its transaction. A failed void
// leaves the order as it was (the cancellation answers the carrier's
// error); a void whose cancellation then fails to commit is harmless,
// because voids are idempotent and the retried cancellation voids again and
// commits. See docs/decisions.md, "Booking a shipment".
type Bookings interface {
	// Void cancels with the carrier the bookings (booked, or in doubt) of
	// those of seller's orders named whose parcel has not left; an order
	// without one costs no carrier call. failed holds, per order whose
	// void the carrier did not confirm, the error to answer for it
	// (UPSTREAM_ERROR, UPSTREAM_TIMEOUT, CANCEL_FAILED).
	Void(ctx context.Context, sellerID string, orderIDs []string) (failed map[string]*apierr.Error, err error)
	// Voided records, in the caller's transaction, that the bookings of
	// those orders are cancelled: the shipment CANCELLED and its
	// shipment.cancelled event.
	Voided(ctx context.Context, sellerID string, orderIDs []string, at time.Time) error
}

// UseBookings makes cancellations void the orders' carrier bookings. Set
// once, while the platform is wired, before the service serves.
func (s *Service) UseBookings(b Bookings) { s.bookings = b }

// voidBookings is the carrier half of a cancellation, before its
// transaction: nil failed when there is nothing to void.
func (s *Service) voidBookings(ctx context.Context, seller string, ids []string) (map[string]*apierr.Error, error) {
	if s.bookings == nil || len(ids) == 0 {
		return nil, nil
	}
	return s.bookings.Void(ctx, seller, ids)
}

// bookingsVoided is the recording half, in the cancellation's transaction.
func (s *Service) bookingsVoided(ctx context.Context, seller string, ids []string, at time.Time) error {
	if s.bookings == nil || len(ids) == 0 {
		return nil
	}
	return s.bookings.Voided(ctx, seller, ids, at)
}
