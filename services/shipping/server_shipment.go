package shipping

import (
	"context"

	"google.golang.org/protobuf/types/known/timestamppb"

	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
)

// BookShipment implements shippingv1.ShippingServiceServer.
func (s *Server) BookShipment(ctx context.Context, req *shippingv1.BookShipmentRequest) (*shippingv1.ShipmentResponse, error) {
	in := req.GetShipment()
	b := BookInput{Method: methodFromProto[in.GetMethod()], PickupDate: in.GetPickupDate(),
		AddressID: in.GetAddressId(), ChannelID: in.GetChannelId()}
	if w := in.GetTimeWindow(); w != nil {
		b.Window = &carrier.Window{Start: w.GetStart(), End: w.GetEnd()}
	}
	sh, err := s.svc.BookShipment(ctx, req.GetId(), b)
	if err != nil {
		return nil, err
	}
	return &shippingv1.ShipmentResponse{Data: ShipmentToProto(sh)}, nil
}

// GetShipment implements shippingv1.ShippingServiceServer.
func (s *Server) GetShipment(ctx context.Context, req *shippingv1.GetShipmentRequest) (*shippingv1.ShipmentResponse, error) {
	sh, err := s.svc.GetShipment(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	return &shippingv1.ShipmentResponse{Data: ShipmentToProto(sh)}, nil
}

var methodFromProto = map[shippingv1.ShipmentMethod]carrier.Method{
	shippingv1.ShipmentMethod_SHIPMENT_METHOD_PICKUP:  carrier.Pickup,
	shippingv1.ShipmentMethod_SHIPMENT_METHOD_DROPOFF: carrier.Dropoff,
}

var methodToProto = map[carrier.Method]shippingv1.ShipmentMethod{
	carrier.Pickup:  shippingv1.ShipmentMethod_SHIPMENT_METHOD_PICKUP,
	carrier.Dropoff: shippingv1.ShipmentMethod_SHIPMENT_METHOD_DROPOFF,
}

// ShipmentToProto is a shipment as partners read it (and as its webhook
// events carry it).
func ShipmentToProto(sh shipments.Shipment) *shippingv1.Shipment {
	p := &shippingv1.Shipment{ShipmentId: sh.ID, OrderId: sh.OrderID, Status: string(sh.Status),
		Method: methodToProto[sh.Method], ChannelId: sh.ChannelID, AddressId: sh.AddressID,
		TrackingNumber: sh.TrackingNumber, TrackingCompany: sh.TrackingCompany, CreatedAt: timestamppb.New(sh.CreatedAt)}
	if sh.PickupDate != "" {
		d := sh.PickupDate
		p.PickupDate = &d
		p.TimeWindow = &shippingv1.TimeWindow{Start: sh.Window.Start, End: sh.Window.End}
	}
	return p
}
