package shipping

import (
	"context"
	"errors"

	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
)

// notArranged answers a tracking read of an order without a confirmed
// booking: none yet, one still in doubt (PENDING reads as none), or a
// voided one.
var notArranged = apierr.New(errorsv1.ErrorCode_ERROR_CODE_SHIPMENT_NOT_ARRANGED, "the order has no shipment arranged")

// Tracking is the calling seller's order's booked parcel and its steps,
// oldest first. Another seller's order is NOT_FOUND, as a missing one.
func (s *Service) Tracking(ctx context.Context, orderID string) (shipments.Shipment, []shipments.Event, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return shipments.Shipment{}, nil, err
	}
	if s.shipments == nil || s.orders == nil {
		return shipments.Shipment{}, nil, apierr.New(apierr.ServiceUnavailable, "tracking is not available")
	}
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	// The order first: its absence (or another seller's) is NOT_FOUND,
	// not a missing shipment.
	if _, err := s.orders.ShipmentFacts(ctx, seller, orderID); err != nil {
		return shipments.Shipment{}, nil, err
	}
	sh, err := s.shipments.LiveByOrder(ctx, seller, orderID)
	switch {
	case errors.Is(err, shipments.ErrNotFound):
		return shipments.Shipment{}, nil, notArranged
	case err != nil:
		return shipments.Shipment{}, nil, err
	case !sh.Booked():
		return shipments.Shipment{}, nil, notArranged
	}
	evs, err := s.shipments.Events(ctx, seller, sh.ID)
	if err != nil {
		return shipments.Shipment{}, nil, err
	}
	return sh, evs, nil
}
