package orders

import (
	"context"
	"errors"
	"time"

	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	resourceids "github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/events"
)

// eventOf is the event each status change records.
var eventOf = map[Status]events.Type{
	StatusPaid:         eventsv1.EventType_EVENT_TYPE_ORDER_PAID,
	StatusReadyToShip:  eventsv1.EventType_EVENT_TYPE_ORDER_READY_TO_SHIP,
	StatusShipped:      eventsv1.EventType_EVENT_TYPE_ORDER_SHIPPED,
	StatusDelivered:    eventsv1.EventType_EVENT_TYPE_ORDER_DELIVERED,
	StatusCancelled:    eventsv1.EventType_EVENT_TYPE_ORDER_CANCELLED,
	StatusReturnRefund: eventsv1.EventType_EVENT_TYPE_ORDER_RETURN_REFUND,
}

// Shipment is the parcel a move to SHIPPED hands to the courier when the
// order has none booked.
type Shipment struct {
	TrackingNumber, TrackingCompany string
}

// lifecycle is the moves the platform makes besides cancellation: payment
// captured, ready to ship, picked up by the courier, delivered, refunded.
// Each target lists the stored states it may start from.
var lifecycle = map[Status]Move{
	StatusPaid:        {From: []Status{StatusPending}, PaymentStatus: "paid"},
	StatusReadyToShip: {From: []Status{StatusPaid}},
	StatusShipped: {From: []Status{StatusPaid, StatusReadyToShip}, FulfillmentStatus: "shipped", Shipped: true,
		ClearBooking: true, ShipmentsFrom: FulfillmentPending, ShipmentsTo: FulfillmentShipped},
	StatusDelivered: {From: []Status{StatusShipped}, FulfillmentStatus: "delivered",
		ShipmentsFrom: FulfillmentShipped, ShipmentsTo: FulfillmentDelivered},
	StatusReturnRefund: {From: []Status{StatusDelivered}, PaymentStatus: "refunded", FulfillmentStatus: "returned"},
}

// Transition makes one lifecycle move of the calling seller's order, through
// the same conditional update and event as every change: an illegal move
// (anything out of CANCELLED, DELIVERED before SHIPPED, ...) is
// INVALID_TRANSITION. ship names the parcel of a move to SHIPPED.
func (s *Service) Transition(ctx context.Context, id string, to Status, ship Shipment) (View, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return View{}, err
	}
	m, ok := lifecycle[to]
	if !ok {
		return View{}, apierr.Newf(apierr.ValidationError, "to: %s is not a move the platform makes", to)
	}
	m.To = to
	if to == StatusShipped {
		m.NewShipment = &Fulfillment{ID: resourceids.NewAt("ful", s.clock.Business(ctx)),
			TrackingNumber: ship.TrackingNumber, TrackingCompany: ship.TrackingCompany}
	}
	// Read as GetOrder reads it, which settles a buyer's overdue request in
	// a transaction of its own: a move refused below must not take the
	// settlement back with it.
	if _, err := s.getOrder(ctx, seller, id); err != nil {
		return View{}, err
	}
	var out View
	err = s.store.InTx(ctx, func(ctx context.Context) error {
		o, now, err := s.move(ctx, seller, id, m, func(current Status) error {
			return apierr.Newf(apierr.InvalidTransition, "an order in %s cannot move to %s", current, to)
		})
		if err != nil {
			return err
		}
		// The answer shows the buyer's request as the move's event does.
		views := []View{s.view(ctx, o, now)}
		if err := s.withLatestRequests(ctx, seller, views); err != nil {
			return err
		}
		out = views[0]
		return nil
	})
	return out, err
}

// Create writes a new order of the calling seller and records
// order.created, then the events of the states it was created past
// (order.paid, order.ready_to_ship), so a feed reader sees its whole life.
// The ordered quantities come off their variants' stock in the same
// transaction (Stock.TakeStock).
func (s *Service) Create(ctx context.Context, o *Order) (View, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return View{}, err
	}
	if o.SellerID != seller {
		return View{}, errors.New("orders: an order is created for the calling seller")
	}
	var steps []events.Type
	switch o.Status {
	case StatusPending:
	case StatusPaid:
		steps = []events.Type{eventOf[StatusPaid]}
	case StatusReadyToShip:
		steps = []events.Type{eventOf[StatusPaid], eventOf[StatusReadyToShip]}
	default:
		return View{}, apierr.Newf(apierr.ValidationError, "status: an order is created PENDING, PAID or READY_TO_SHIP, not %s", o.Status)
	}
	if s.stock == nil {
		return View{}, errors.New("orders: order creation needs a stock store")
	}
	taken := map[string]int64{}
	for _, it := range o.Items {
		if it.VariantID != nil && it.Quantity > 0 {
			taken[*it.VariantID] += it.Quantity
		}
	}
	now := s.clock.Business(ctx)
	var out View
	err = s.store.InTx(ctx, func(ctx context.Context) error {
		// The ordered quantities leave stock with the order, or the order
		// is not created: a line beyond its variant's stock refuses it.
		if err := s.stock.TakeStock(ctx, seller, taken); err != nil {
			return err
		}
		if err := s.store.CreateOrders(ctx, []*Order{o}); err != nil {
			return err
		}
		stored, err := s.store.GetOrder(ctx, seller, o.ID)
		if err != nil {
			return err
		}
		v, err := s.eventView(ctx, stored, now)
		if err != nil {
			return err
		}
		for _, t := range append([]events.Type{eventsv1.EventType_EVENT_TYPE_ORDER_CREATED}, steps...) {
			if err := s.recordView(ctx, t, v, now); err != nil {
				return err
			}
		}
		out = s.view(ctx, stored, now)
		return nil
	})
	return out, err
}

// move applies m to the seller's order at business time and records the
// event of its new status; refuse explains a move that did not apply to an
// order in its current status. It runs in the caller's transaction.
func (s *Service) move(ctx context.Context, seller, id string, m Move, refuse func(current Status) error) (*Order, time.Time, error) {
	if !resourceids.Plausible("ord", id) {
		return nil, time.Time{}, apierr.New(apierr.NotFound, "order not found")
	}
	now := s.clock.Business(ctx)
	m.At = now
	o, moved, err := s.store.MoveOrder(ctx, seller, id, m)
	if errors.Is(err, ErrNotFound) {
		return nil, now, apierr.New(apierr.NotFound, "order not found")
	}
	if err != nil {
		return nil, now, err
	}
	if !moved {
		return nil, now, refuse(o.Status)
	}
	if err := s.record(ctx, eventOf[m.To], o, now); err != nil {
		return nil, now, err
	}
	return o, now, nil
}

// record writes an order event of o on the transaction ctx carries, the
// order as the events show it (eventView).
func (s *Service) record(ctx context.Context, t events.Type, o *Order, at time.Time) error {
	v, err := s.eventView(ctx, o, at)
	if err != nil {
		return err
	}
	return s.recordView(ctx, t, v, at)
}

// recordView writes an order event of v, rendered by eventViews.
func (s *Service) recordView(ctx context.Context, t events.Type, v View, at time.Time) error {
	_, err := s.events.Record(ctx, events.Change{SellerID: v.Order.SellerID, Type: t, ResourceID: v.Order.ID, At: at,
		View: OrderToProto(v)})
	return err
}
