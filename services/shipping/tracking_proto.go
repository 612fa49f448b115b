package shipping

import (
	"google.golang.org/protobuf/types/known/timestamppb"

	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
)

// TrackingStatusToProto is st as the API spells it.
func TrackingStatusToProto(st carrier.Status) shippingv1.TrackingStatus {
	return shippingv1.TrackingStatus(shippingv1.TrackingStatus_value["TRACKING_STATUS_"+string(st)])
}

// TrackingStatusFromProto is the carrier status of p ("" for UNSPECIFIED).
func TrackingStatusFromProto(p shippingv1.TrackingStatus) carrier.Status {
	if p == shippingv1.TrackingStatus_TRACKING_STATUS_UNSPECIFIED {
		return ""
	}
	name := p.String()
	return carrier.Status(name[len("TRACKING_STATUS_"):])
}

// TrackingEventToProto is one step as partners read it.
func TrackingEventToProto(e carrier.Event) *shippingv1.TrackingEvent {
	return &shippingv1.TrackingEvent{Status: TrackingStatusToProto(e.Status), CarrierStatus: e.CarrierStatus,
		Description: e.Description, Location: e.Location, OccurredAt: timestamppb.New(e.OccurredAt)}
}

// TrackingToProto is an order's parcel and its steps, oldest first.
func TrackingToProto(sh shipments.Shipment, evs []shipments.Event) *shippingv1.Tracking {
	out := &shippingv1.Tracking{OrderId: sh.OrderID, ShipmentId: sh.ID, TrackingNumber: sh.TrackingNumber,
		TrackingCompany: sh.TrackingCompany, Status: TrackingStatusToProto(carrier.Status(sh.Status)),
		Events: make([]*shippingv1.TrackingEvent, 0, len(evs))}
	for _, e := range evs {
		out.Events = append(out.Events, TrackingEventToProto(e.Event))
	}
	return out
}

// TrackingUpdateToProto is the data of shipment.tracking_updated.
func TrackingUpdateToProto(sh shipments.Shipment, ev shipments.Event) *shippingv1.TrackingUpdate {
	return &shippingv1.TrackingUpdate{OrderId: sh.OrderID, ShipmentId: sh.ID, TrackingNumber: sh.TrackingNumber,
		TrackingCompany: sh.TrackingCompany, Status: TrackingStatusToProto(carrier.Status(sh.Status)),
		Sequence: int32(ev.Sequence), Event: TrackingEventToProto(ev.Event)} //nolint:gosec // sequences count a parcel's steps, far below 2^31
}
