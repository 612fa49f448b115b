package shipping

import (
	"context"

	"google.golang.org/grpc"

	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
)

// PushServer is CarrierPushService: the seam where a courier's tracking
// webhooks enter core (internal callers only: the courier's adapter).
type PushServer struct {
	shippingv1.UnimplementedCarrierPushServiceServer
	tracker *Tracker
}

// NewPushServer returns the carrier push service's gRPC server over t.
func NewPushServer(t *Tracker) *PushServer { return &PushServer{tracker: t} }

// Register registers the service; the method value is a core.Registrar.
func (s *PushServer) Register(r grpc.ServiceRegistrar) {
	shippingv1.RegisterCarrierPushServiceServer(r, s)
}

// PushTrackingEvents implements shippingv1.CarrierPushServiceServer.
func (s *PushServer) PushTrackingEvents(ctx context.Context, req *shippingv1.PushTrackingEventsRequest) (*shippingv1.PushTrackingEventsResponse, error) {
	evs := make([]carrier.Event, 0, len(req.GetEvents()))
	for _, e := range req.GetEvents() {
		evs = append(evs, carrier.Event{Status: TrackingStatusFromProto(e.GetStatus()), CarrierStatus: e.GetCarrierStatus(),
			Description: e.GetDescription(), Location: e.GetLocation(), OccurredAt: e.GetOccurredAt().AsTime()})
	}
	sh, steps, err := s.tracker.Push(ctx, req.GetCarrier(), req.GetTrackingNumber(), evs)
	if err != nil {
		return nil, err
	}
	out := &shippingv1.PushTrackingEventsResponse{ShipmentId: sh.ID, Status: TrackingStatusToProto(carrier.Status(sh.Status)),
		Events: make([]*shippingv1.PushedEvent, 0, len(steps))}
	for _, st := range steps {
		out.Events = append(out.Events, &shippingv1.PushedEvent{Sequence: int32(st.Event.Sequence), Duplicate: st.Duplicate}) //nolint:gosec // a parcel's steps, far below 2^31
	}
	return out, nil
}
