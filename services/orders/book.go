package orders

import (
	"context"
	"errors"
	"time"

	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	resourceids "github.com/mallplatform/partnerapi/internal/ids"
)

// shipmentAlreadyArranged: the order has a booking already.
const shipmentAlreadyArranged = errorsv1.ErrorCode_ERROR_CODE_SHIPMENT_ALREADY_ARRANGED

// Booked is what a carrier booking hands the order: the channel it goes
// by and the parcel's tracking number.
type Booked struct {
	Channel         string
	TrackingNumber  string
	TrackingCompany string
}

// Book is the orders step of a carrier booking, in the caller's
// transaction (the one that records the carrier's answer): the seller's
// order, READY_TO_SHIP (or PAID) and not booked yet, stays READY_TO_SHIP
// with bookingStatus READY_FOR_HANDOVER and the booking's shippingChannel,
// and gains a pending Fulfillment of every item carrying the tracking
// number. A PAID order, which partners already read as READY_TO_SHIP, is
// booked too and moved to READY_TO_SHIP on the way (order.ready_to_ship
// recorded), as the platform would have moved it; PENDING is not paid and
// no parcel leaves for it. One conditional update, as every move: an order in another state
// is INVALID_TRANSITION, one booked already SHIPMENT_ALREADY_ARRANGED.
func (s *Service) Book(ctx context.Context, sellerID, orderID string, b Booked) (View, error) {
	var out View
	err := s.store.InTx(ctx, func(ctx context.Context) error {
		now := s.clock.Business(ctx)
		m := Move{To: StatusReadyToShip, Booking: BookingReadyForHandover, Channel: b.Channel, Unbooked: true,
			ShipmentsTo: FulfillmentPending,
			NewShipment: &Fulfillment{ID: resourceids.NewAt("ful", now), TrackingNumber: b.TrackingNumber,
				TrackingCompany: b.TrackingCompany}}
		refuse := func(o *Order) error {
			if o.BookingStatus != nil && *o.BookingStatus == BookingReadyForHandover && o.Status.PreShipment() {
				return apierr.New(shipmentAlreadyArranged, "the order already has a booking")
			}
			return apierr.Newf(apierr.InvalidTransition, "an order in %s cannot be booked: it must be READY_TO_SHIP", o.Status.PartnerStatus())
		}
		o, moved, err := s.bookMove(ctx, sellerID, orderID, m, StatusReadyToShip, now)
		if err != nil {
			return err
		}
		if !moved && o.Status == StatusPaid {
			if o, moved, err = s.bookMove(ctx, sellerID, orderID, m, StatusPaid, now); err != nil {
				return err
			}
			if moved {
				if err := s.record(ctx, eventOf[StatusReadyToShip], o, now); err != nil {
					return err
				}
			}
		}
		if !moved {
			return refuse(o)
		}
		out = s.view(ctx, o, now)
		return nil
	})
	return out, err
}

// bookMove is the booking's conditional update from one state.
func (s *Service) bookMove(ctx context.Context, sellerID, orderID string, m Move, from Status, at time.Time) (*Order, bool, error) {
	if !resourceids.Plausible("ord", orderID) {
		return nil, false, apierr.New(apierr.NotFound, "order not found")
	}
	m.From, m.At = []Status{from}, at
	o, moved, err := s.store.MoveOrder(ctx, sellerID, orderID, m)
	if errors.Is(err, ErrNotFound) {
		return nil, false, apierr.New(apierr.NotFound, "order not found")
	}
	return o, moved, err
}
