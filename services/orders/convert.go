package orders

import (
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
)

var statusToProto = map[Status]ordersv1.OrderStatus{
	StatusPending:      ordersv1.OrderStatus_ORDER_STATUS_PENDING,
	StatusPaid:         ordersv1.OrderStatus_ORDER_STATUS_PAID,
	StatusReadyToShip:  ordersv1.OrderStatus_ORDER_STATUS_READY_TO_SHIP,
	StatusShipped:      ordersv1.OrderStatus_ORDER_STATUS_SHIPPED,
	StatusDelivered:    ordersv1.OrderStatus_ORDER_STATUS_DELIVERED,
	StatusCancelled:    ordersv1.OrderStatus_ORDER_STATUS_CANCELLED,
	StatusReturnRefund: ordersv1.OrderStatus_ORDER_STATUS_RETURN_REFUND,
}

var statusFromProto = func() map[ordersv1.OrderStatus]Status {
	m := make(map[ordersv1.OrderStatus]Status, len(statusToProto))
	for k, v := range statusToProto {
		m[v] = k
	}
	return m
}()

var bookingToProto = map[BookingStatus]ordersv1.BookingStatus{
	BookingPendingArrange:   ordersv1.BookingStatus_BOOKING_STATUS_PENDING_ARRANGE,
	BookingReadyForHandover: ordersv1.BookingStatus_BOOKING_STATUS_READY_FOR_HANDOVER,
}

var fulfillmentToProto = map[FulfillmentStatus]ordersv1.FulfillmentStatus{
	FulfillmentPending:   ordersv1.FulfillmentStatus_FULFILLMENT_STATUS_PENDING,
	FulfillmentShipped:   ordersv1.FulfillmentStatus_FULFILLMENT_STATUS_SHIPPED,
	FulfillmentDelivered: ordersv1.FulfillmentStatus_FULFILLMENT_STATUS_DELIVERED,
	FulfillmentCancelled: ordersv1.FulfillmentStatus_FULFILLMENT_STATUS_CANCELLED,
}

// OrderToProto renders a view. Presence follows the view's pointers: nil is
// absent (or null for shipByDate), so the wire shows exactly what the
// service decided.
func OrderToProto(v View) *ordersv1.Order {
	o := v.Order
	out := &ordersv1.Order{
		Id:                o.ID,
		Status:            statusToProto[v.Status],
		SellerId:          o.SellerID,
		CustomerId:        o.CustomerID,
		BuyerEmail:        v.BuyerEmail,
		Currency:          o.Currency,
		Subtotal:          o.Subtotal,
		Total:             o.Total,
		Tax:               o.Tax,
		Shipping:          o.Shipping,
		Discount:          o.Discount,
		PaymentStatus:     o.PaymentStatus,
		FulfillmentStatus: o.FulfillmentStatus,
		CreatedAt:         timestamp(o.CreatedAt),
		UpdatedAt:         timestamp(o.UpdatedAt),
		Items:             make([]*ordersv1.OrderItem, len(o.Items)),
		Fulfillments:      make([]*ordersv1.Fulfillment, len(o.Fulfillments)),
		ShippingAddress:   addressToProto(o.ShippingAddress),
		BillingAddress:    addressToProto(o.BillingAddress),
		SlaBreached:       v.SLABreached,
		ShippingChannel:   v.ShippingChannel,
	}
	if o.ShipByDate != nil {
		out.ShipByDate = timestamp(*o.ShipByDate)
	}
	if v.BookingStatus != nil {
		b := bookingToProto[*v.BookingStatus]
		out.BookingStatus = &b
	}
	if r := v.CancellationRequest; r != nil {
		out.CancellationRequest = &ordersv1.OrderCancellationRequest{Status: r.Status, Reason: r.Reason,
			RequestedAt: timestamp(r.RequestedAt), RespondBy: timestamp(r.RespondBy)}
	}
	for i, it := range o.Items {
		out.Items[i] = &ordersv1.OrderItem{
			Id:         it.ID,
			OrderId:    o.ID,
			ProductId:  it.ProductID,
			VariantId:  it.VariantID,
			Title:      it.Title,
			Sku:        it.SKU,
			Quantity:   it.Quantity,
			UnitPrice:  it.UnitPrice,
			TotalPrice: it.TotalPrice,
			Thumbnail:  it.Thumbnail,
		}
	}
	for i, f := range o.Fulfillments {
		items := make([]*ordersv1.FulfillmentItem, len(f.Items))
		for j, fi := range f.Items {
			items[j] = &ordersv1.FulfillmentItem{ItemId: fi.ItemID, Quantity: fi.Quantity}
		}
		out.Fulfillments[i] = &ordersv1.Fulfillment{
			Id:              f.ID,
			Status:          fulfillmentToProto[f.Status],
			OrderId:         o.ID,
			TrackingNumber:  f.TrackingNumber,
			TrackingCompany: f.TrackingCompany,
			CreatedAt:       timestamp(f.CreatedAt),
			UpdatedAt:       timestamp(f.UpdatedAt),
			Items:           items,
			Metadata: &ordersv1.FulfillmentMetadata{
				TrackingNumber:  f.TrackingNumber,
				TrackingCompany: f.TrackingCompany,
			},
		}
	}
	return out
}

func addressToProto(a Address) *ordersv1.Address {
	return &ordersv1.Address{
		Name:       a.Name,
		Line1:      a.Line1,
		Line2:      a.Line2,
		City:       a.City,
		Province:   a.Province,
		PostalCode: a.PostalCode,
		Country:    a.Country,
		Phone:      a.Phone,
	}
}

func timestamp(t time.Time) *timestamppb.Timestamp {
	return timestamppb.New(t)
}

// StatusFromProto is the stored status of a proto status ("" for
// UNSPECIFIED).
func StatusFromProto(s ordersv1.OrderStatus) Status { return statusFromProto[s] }
