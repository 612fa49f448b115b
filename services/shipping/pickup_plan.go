package shipping

import (
	"context"
	"errors"
	"slices"
	"time"

	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/psgc"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/sellers"
	"github.com/mallplatform/partnerapi/services/shipping/calendar"
	"github.com/mallplatform/partnerapi/services/shipping/channels"
)

// DefaultUnitWeightGrams is the weight an order's unit is taken to have
// when the cheapest channel is quoted for it: order lines carry no weight,
// and a parcel of half a kilogram a unit lands in the first weight band of
// every channel for small orders, as most marketplace parcels do.
const DefaultUnitWeightGrams = 500

// pickupDatesUnavailable: the order has no pickup date at all (no pickup
// address, no channel that collects it), as opposed to a date without a
// slot, which is an answer.
const pickupDatesUnavailable = errorsv1.ErrorCode_ERROR_CODE_PICKUP_DATES_UNAVAILABLE

// Orders is the orders domain's read of an order for shipping
// (orders.Service): shipping never touches the order tables.
type Orders interface {
	ShipmentFacts(ctx context.Context, sellerID, orderID string) (orders.ShipmentFacts, error)
	// BookingFacts is ShipmentFacts with a buyer's overdue cancellation
	// request settled first, for a booking.
	BookingFacts(ctx context.Context, sellerID, orderID string) (orders.ShipmentFacts, error)
	// LabelFactsBatch reads what the labels print of a batch of orders,
	// in one query.
	LabelFactsBatch(ctx context.Context, sellerID string, orderIDs []string) (map[string]orders.LabelFacts, error)
}

// pickupPlan is everything the slot rule needs for one order, read once per
// request.
type pickupPlan struct {
	now     time.Time
	shipBy  *time.Time
	channel *channels.Channel
	snap    *calendar.Snapshot
	place   calendar.Place
}

// PickupSlot judges date for the calling seller's order.
func (s *Service) PickupSlot(ctx context.Context, orderID, date string) (PickupSlot, error) {
	d, err := calendar.ParseDate(date)
	if err != nil {
		return PickupSlot{}, apierr.New(apierr.ValidationError, "date: want an existing date as YYYY-MM-DD")
	}
	p, err := s.plan(ctx, orderID)
	if err != nil {
		return PickupSlot{}, err
	}
	return Slot(p.now, d, p.shipBy, p.channel, p.snap, p.place), nil
}

// EligibleDates judges the next SlotWindowDays days for the calling
// seller's order; recommended is the first available one (-1: none).
func (s *Service) EligibleDates(ctx context.Context, orderID string) ([]PickupSlot, int, error) {
	p, err := s.plan(ctx, orderID)
	if err != nil {
		return nil, -1, err
	}
	slots, rec := EligibleSlots(p.now, p.shipBy, p.channel, p.snap, p.place)
	return slots, rec, nil
}

// plan reads the order, the seller's default pickup address, the calendar
// and the channel tables. Another seller's order is NOT_FOUND; an order
// that has left the seller (or was cancelled) is INVALID_TRANSITION; a shop
// with no pickup address, or an order no channel can carry, is
// PICKUP_DATES_UNAVAILABLE.
func (s *Service) plan(ctx context.Context, orderID string) (pickupPlan, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return pickupPlan{}, err
	}
	if s.orders == nil {
		return pickupPlan{}, apierr.New(apierr.ServiceUnavailable, "orders are not reachable")
	}
	// The order and the pickup address are independent reads: both go out
	// at once, and the order's answer (404, 422) is judged first.
	type addressRead struct {
		addr sellers.PickupAddress
		err  error
	}
	addrc := make(chan addressRead, 1)
	go func() {
		addr, err := s.readPickupAddress(ctx, seller)
		addrc <- addressRead{addr, err}
	}()
	facts, err := s.readOrder(ctx, seller, orderID)
	read := <-addrc
	if err != nil {
		return pickupPlan{}, err
	}
	if !facts.Shippable {
		return pickupPlan{}, apierr.New(apierr.InvalidTransition, "the order is "+string(facts.Status.PartnerStatus())+": it has no pickup to plan")
	}
	addr, err := read.addr, read.err
	if err != nil {
		return pickupPlan{}, err
	}
	snap, err := s.Calendar(ctx)
	if err != nil {
		return pickupPlan{}, err
	}
	tables, err := s.Channels(ctx)
	if err != nil {
		return pickupPlan{}, err
	}
	ch, err := orderChannel(tables, facts, addr)
	if err != nil {
		return pickupPlan{}, err
	}
	// An unknown city code leaves the national days alone: the address was
	// checked when it was saved, so this is a PSGC data change, not a
	// reason to refuse the seller every slot.
	place, _ := calendar.PlaceOfCity(addr.PSGCCode)
	return pickupPlan{now: s.business.Business(ctx), shipBy: facts.ShipByDate, channel: ch, snap: snap, place: place}, nil
}

func (s *Service) readOrder(ctx context.Context, seller, orderID string) (orders.ShipmentFacts, error) {
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	return s.orders.ShipmentFacts(ctx, seller, orderID)
}

func (s *Service) readPickupAddress(ctx context.Context, seller string) (sellers.PickupAddress, error) {
	if s.sellers == nil {
		return sellers.PickupAddress{}, apierr.New(apierr.ServiceUnavailable, "pickup addresses are not reachable")
	}
	addr, err := s.defaultPickupAddress(ctx, seller)
	if errors.Is(err, sellers.ErrNotFound) {
		return sellers.PickupAddress{}, apierr.New(pickupDatesUnavailable, "the shop has no default pickup address")
	}
	return addr, err
}

// orderChannel is the channel an order's pickup follows: the order's own
// shippingChannel when the channel tables know it (active or not: the
// order was routed to it), else the cheapest channel that collects
// (PICKUP) and quotes the parcel from the pickup address to the shipping
// address. An order naming a channel the tables do not hold is treated as
// one with none; the slot's channel field says which was used.
func orderChannel(t *channels.Tables, f orders.ShipmentFacts, addr sellers.PickupAddress) (*channels.Channel, error) {
	if f.ShippingChannel != "" {
		if ch, ok := t.Channel(f.ShippingChannel); ok {
			return ch, nil
		}
	}
	req := channels.Request{WeightGrams: float64(max(f.Units, 1) * DefaultUnitWeightGrams)}
	req.Origin = locationOf(addr)
	if dest, ok, err := psgc.Resolve("", "", f.Province, f.City); ok && err == nil {
		req.Destination = &dest
	}
	for _, o := range channels.Quote(t, req) {
		if o.Status != channels.RateQuoted {
			break // quoted options come first
		}
		if ch, ok := t.Channel(o.ID); ok && slices.Contains(ch.Handover, channels.HandoverPickup) {
			return ch, nil
		}
	}
	return nil, apierr.New(pickupDatesUnavailable, "no channel collects this order from the pickup address")
}
