package orders

import (
	"context"
	"time"
)

// ShipmentFacts is what the shipping domain needs of an order to plan its
// pickup: read here so that shipping never touches the order tables.
type ShipmentFacts struct {
	OrderID  string
	SellerID string
	// Status is the stored status; Shippable says whether the order has
	// not left the seller yet (PENDING, PAID, READY_TO_SHIP).
	Status    Status
	Shippable bool
	// ShipByDate is the ship-by deadline; nil when the order has none.
	ShipByDate *time.Time
	// ShippingChannel is the channel assigned to the order; "" when none is.
	ShippingChannel string
	// City and Province are the shipping address's, as stored (PSGC names).
	City, Province string
	// Units is how many units the order holds (the sum of its items'
	// quantities): the parcel's weight is estimated from it, as order
	// lines carry no weight.
	Units int64
	// ShippingAddress is where the parcel goes (a booking tells the
	// carrier); Total, in centavos, is its declared value.
	ShippingAddress Address
	Total           int64
}

// ShipmentFacts reads one of sellerID's orders for the shipping domain. A
// missing order and another seller's order are the same NOT_FOUND.
func (s *Service) ShipmentFacts(ctx context.Context, sellerID, orderID string) (ShipmentFacts, error) {
	o, err := s.storedOrder(ctx, sellerID, orderID)
	if err != nil {
		return ShipmentFacts{}, err
	}
	return shipmentFactsOf(o), nil
}

// BookingFacts is ShipmentFacts for a booking about to be asked of the
// carrier, the order read as GetOrder reads it (getOrder: a buyer's request
// past its deadline settled first), so that an order its automatic approval
// cancels is refused before the carrier is called, as it would be had the
// deadlines job come first. Its deadline is the caller's: a settlement
// cancels the order, which voids a booking it may already have through the
// carrier.
func (s *Service) BookingFacts(ctx context.Context, sellerID, orderID string) (ShipmentFacts, error) {
	v, err := s.getOrder(ctx, sellerID, orderID)
	if err != nil {
		return ShipmentFacts{}, err
	}
	return shipmentFactsOf(v.Order), nil
}

func shipmentFactsOf(o *Order) ShipmentFacts {
	f := ShipmentFacts{OrderID: o.ID, SellerID: o.SellerID, Status: o.Status, Shippable: o.Status.PreShipment(),
		ShipByDate: o.ShipByDate, City: o.ShippingAddress.City, Province: o.ShippingAddress.Province,
		ShippingAddress: o.ShippingAddress, Total: o.Total}
	if o.ShippingChannel != nil {
		f.ShippingChannel = *o.ShippingChannel
	}
	for _, it := range o.Items {
		f.Units += it.Quantity
	}
	return f
}
