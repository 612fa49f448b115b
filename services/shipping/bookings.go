package shipping

import (
	"context"
	"errors"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
)

// cancelFailed: the carrier refused to void a booking.
const cancelFailed = errorsv1.ErrorCode_ERROR_CODE_CANCEL_FAILED

// OrderBookings is the shipping side of orders.Bookings: how a
// cancellation voids an order's carrier booking.
type OrderBookings struct{ s *Service }

var _ orders.Bookings = OrderBookings{}

// OrderBookings returns the bookings a cancellation voids through.
func (s *Service) OrderBookings() OrderBookings { return OrderBookings{s: s} }

// voidable is a booking a cancellation voids: in doubt or booked, its
// parcel not handed over yet.
func voidable(sh shipments.Shipment) bool {
	return sh.Status == shipments.Pending || sh.Status == shipments.Status(carrier.Booked)
}

// voidConcurrency bounds the carrier voids of one bulk cancellation that
// run at once.
const voidConcurrency = 8

// Void implements orders.Bookings: one carrier void per order with a
// voidable booking, outside any transaction, each bounded by the carrier's
// deadline, up to voidConcurrency at once; the orders' bookings are read in
// one query. A booking in doubt is voided by its reference too, so a
// booking the carrier made but never answered is cancelled as well.
func (b OrderBookings) Void(ctx context.Context, sellerID string, orderIDs []string) (map[string]*apierr.Error, error) {
	if b.s.shipments == nil || b.s.carrier == nil {
		return nil, nil
	}
	live, err := b.s.shipments.LiveByOrders(ctx, sellerID, orderIDs)
	if err != nil {
		return nil, err
	}
	var (
		mu     sync.Mutex
		failed map[string]*apierr.Error
	)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(voidConcurrency)
	for id, sh := range live {
		if !voidable(sh) {
			continue
		}
		g.Go(func() error {
			err := b.s.carrier.Void(gctx, carrier.VoidRequest{SellerID: sellerID, Reference: sh.Reference,
				TrackingNumber: sh.TrackingNumber})
			if err == nil {
				return nil
			}
			if errors.Is(err, context.Canceled) {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			if failed == nil {
				failed = map[string]*apierr.Error{}
			}
			failed[id] = voidError(err)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return failed, nil
}

// voidError is a failed void as the cancellation answers it: a refusal is
// CANCEL_FAILED with the carrier's reason, the rest as carrier.APIError.
func voidError(err error) *apierr.Error {
	if r, ok := carrier.AsRefusal(err); ok {
		return apierr.Wrap(cancelFailed, err, "the carrier refused to cancel the booking ("+string(r.Reason)+")").
			WithReason(string(r.Reason)).WithRetryable(r.Retryable)
	}
	e, _ := apierr.As(carrier.APIError(err))
	return e
}

// Voided implements orders.Bookings: in the cancellation's transaction,
// each voidable booking of the orders becomes CANCELLED (a tracking event)
// and shipment.cancelled is recorded.
func (b OrderBookings) Voided(ctx context.Context, sellerID string, orderIDs []string, at time.Time) error {
	if b.s.shipments == nil {
		return nil
	}
	live, err := b.s.shipments.LiveByOrders(ctx, sellerID, orderIDs)
	if err != nil {
		return err
	}
	for _, id := range orderIDs {
		sh, ok := live[id]
		if !ok || !voidable(sh) {
			continue
		}
		_, sh, err = b.s.shipments.AppendEvent(ctx, sellerID, sh.ID, carrier.Event{Status: carrier.Cancelled,
			CarrierStatus: "VOIDED", Description: "Booking cancelled with the order", OccurredAt: at.UTC().Truncate(time.Millisecond)})
		if err != nil {
			return err
		}
		if err := b.s.recordShipment(ctx, eventsv1.EventType_EVENT_TYPE_SHIPMENT_CANCELLED, sh); err != nil {
			return err
		}
	}
	return nil
}
