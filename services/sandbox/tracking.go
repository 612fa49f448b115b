package sandbox

import (
	"context"

	sandboxv1 "github.com/mallplatform/partnerapi/gen/mp/sandbox/v1"
	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/shipping"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
)

// Parcels is the sandbox courier's steps (shipping.Tracker).
type Parcels interface {
	AppendStep(ctx context.Context, sellerID, shipmentID string, st carrier.Status, location string) (*shippingv1.Tracking, error)
	FollowOrder(ctx context.Context, sellerID, orderID string, to orders.Status) (bool, error)
}

// AppendTestTrackingEvent implements sandboxv1.SandboxServiceServer.
func (s *Server) AppendTestTrackingEvent(ctx context.Context, req *sandboxv1.AppendTestTrackingEventRequest) (*shippingv1.TrackingResponse, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return nil, err
	}
	if s.cfg.Parcels == nil {
		return nil, apierr.New(apierr.ServiceUnavailable, "the sandbox courier is not available")
	}
	ev := req.GetEvent()
	tr, err := s.cfg.Parcels.AppendStep(ctx, seller, req.GetId(), shipping.TrackingStatusFromProto(ev.GetStatus()), ev.GetLocation())
	if err != nil {
		return nil, err
	}
	return &shippingv1.TrackingResponse{Data: tr}, nil
}

// followParcel moves a booked order through its parcel (Parcels.FollowOrder)
// and reads the order after; handled false leaves the move to the order.
func (s *Server) followParcel(ctx context.Context, orderID string, to orders.Status) (bool, orders.View, error) {
	if s.cfg.Parcels == nil || (to != orders.StatusShipped && to != orders.StatusDelivered) {
		return false, orders.View{}, nil
	}
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return false, orders.View{}, err
	}
	handled, err := s.cfg.Parcels.FollowOrder(ctx, seller, orderID, to)
	if err != nil || !handled {
		return handled, orders.View{}, err
	}
	v, err := s.cfg.Orders.GetOrder(ctx, orderID)
	return true, v, err
}
