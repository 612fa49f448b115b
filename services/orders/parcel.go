package orders

import (
	"context"
	"errors"

	"github.com/mallplatform/partnerapi/internal/apierr"
	resourceids "github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// The parcel steps are how the shipping domain moves an order after its
// courier: a carrier's tracking push carries no seller token, so the seller
// is the shipment's, given by the caller. Each step is the lifecycle's move
// (the transition table, the Fulfillment moves and the order event), run in
// the caller's transaction, so the tracking event and the order's change
// commit together or not at all.

// errAlreadyMoved marks an order that reached the step's status (or a later
// one) before: the parcel's step was counted already.
var errAlreadyMoved = errors.New("orders: the order already followed its parcel")

// ParcelPickedUp moves sellerID's order to SHIPPED as its courier collected
// the parcel: the pending Fulfillment (the booking's) becomes shipped,
// carrying ship's tracking number, a new shipped one when the order had
// none, and the booking status is dropped. moved is false, with nothing
// written, when the order had shipped already (SHIPPED or after); an order
// that cannot ship (CANCELLED, still PENDING payment) is INVALID_TRANSITION.
func (s *Service) ParcelPickedUp(ctx context.Context, sellerID, orderID string, ship Shipment) (moved bool, err error) {
	ctx = principal.WithSeller(ctx, sellerID)
	m := lifecycle[StatusShipped]
	m.To = StatusShipped
	m.NewShipment = &Fulfillment{ID: resourceids.NewAt("ful", s.clock.Business(ctx)),
		TrackingNumber: ship.TrackingNumber, TrackingCompany: ship.TrackingCompany}
	return s.parcelStep(ctx, sellerID, orderID, m, StatusShipped, StatusDelivered, StatusReturnRefund)
}

// ParcelDelivered moves sellerID's order to DELIVERED as its parcel reached
// the buyer: the shipped Fulfillment becomes delivered. moved is false, with
// nothing written, when the order was delivered already (or refunded after
// it); an order that has not shipped is INVALID_TRANSITION (the caller ships
// it first: ParcelPickedUp).
func (s *Service) ParcelDelivered(ctx context.Context, sellerID, orderID string) (moved bool, err error) {
	m := lifecycle[StatusDelivered]
	m.To = StatusDelivered
	return s.parcelStep(ctx, sellerID, orderID, m, StatusDelivered, StatusReturnRefund)
}

// parcelStep applies m in the caller's transaction; an order already in one
// of done is left as it is.
func (s *Service) parcelStep(ctx context.Context, sellerID, orderID string, m Move, done ...Status) (bool, error) {
	if sellerID == "" {
		return false, errors.New("orders: a parcel step needs the shipment's seller")
	}
	// The shop's business clock stamps the move, as for a call the seller
	// made.
	ctx = principal.WithSeller(ctx, sellerID)
	err := s.store.InTx(ctx, func(ctx context.Context) error {
		_, _, err := s.move(ctx, sellerID, orderID, m, func(current Status) error {
			for _, d := range done {
				if current == d {
					return errAlreadyMoved
				}
			}
			return apierr.Newf(apierr.InvalidTransition, "an order in %s cannot move to %s", current, m.To)
		})
		return err
	})
	if errors.Is(err, errAlreadyMoved) {
		return false, nil
	}
	return err == nil, err
}
