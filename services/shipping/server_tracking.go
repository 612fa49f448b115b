package shipping

import (
	"context"

	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
)

// GetTracking implements shippingv1.ShippingServiceServer.
func (s *Server) GetTracking(ctx context.Context, req *shippingv1.GetTrackingRequest) (*shippingv1.TrackingResponse, error) {
	sh, evs, err := s.svc.Tracking(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	return &shippingv1.TrackingResponse{Data: TrackingToProto(sh, evs)}, nil
}
