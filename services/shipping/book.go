package shipping

import (
	"context"
	"errors"
	"fmt"
	"slices"

	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/psgc"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/sellers"
	"github.com/mallplatform/partnerapi/services/shipping/calendar"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
	"github.com/mallplatform/partnerapi/services/shipping/channels"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
)

// The codes of a booking.
const (
	invalidPickupDate       = errorsv1.ErrorCode_ERROR_CODE_INVALID_PICKUP_DATE
	shipmentAlreadyArranged = errorsv1.ErrorCode_ERROR_CODE_SHIPMENT_ALREADY_ARRANGED
	shipmentNotArranged     = errorsv1.ErrorCode_ERROR_CODE_SHIPMENT_NOT_ARRANGED
)

// OrderBooking is the orders domain's booking step (orders.Service.Book):
// the only way a booking changes an order.
type OrderBooking interface {
	Book(ctx context.Context, sellerID, orderID string, b orders.Booked) (orders.View, error)
}

// BookInput is a booking as the partner asked for it; "" and nil are the
// defaults.
type BookInput struct {
	Method     carrier.Method
	PickupDate string
	Window     *carrier.Window
	AddressID  string
	ChannelID  string
}

// BookShipment books the calling seller's order with the carrier: the
// request is checked as the slot route judges dates (INVALID_PICKUP_DATE
// with the slot's reason), then shipments.Booker books it, recording the
// carrier's answer, the orders step (Book) and shipment.booked in one
// transaction. A carrier failure answers SHIP_FAILED (with reason and
// retryable), UPSTREAM_ERROR or UPSTREAM_TIMEOUT, and leaves the order
// without a booking.
func (s *Service) BookShipment(ctx context.Context, orderID string, in BookInput) (shipments.Shipment, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return shipments.Shipment{}, err
	}
	if s.booker == nil || s.orders == nil || s.orderBooking == nil || s.sellers == nil {
		return shipments.Shipment{}, apierr.New(apierr.ServiceUnavailable, "bookings are not available")
	}
	if in.Method == carrier.Pickup && in.PickupDate == "" {
		return shipments.Shipment{}, apierr.New(apierr.ValidationError, "pickupDate: required when method is PICKUP")
	}
	req, err := s.bookRequest(ctx, seller, orderID, in)
	if err != nil {
		return shipments.Shipment{}, err
	}
	req.Recorded = func(ctx context.Context, sh shipments.Shipment) error {
		if _, err := s.orderBooking.Book(ctx, seller, orderID, orders.Booked{Channel: sh.ChannelID,
			TrackingNumber: sh.TrackingNumber, TrackingCompany: sh.TrackingCompany}); err != nil {
			return err
		}
		return s.recordShipment(ctx, eventsv1.EventType_EVENT_TYPE_SHIPMENT_BOOKED, sh)
	}
	sh, err := s.booker.Book(ctx, req)
	switch {
	case err == nil:
		return sh, nil
	case errors.Is(err, shipments.ErrAlreadyArranged):
		return shipments.Shipment{}, apierr.New(shipmentAlreadyArranged, "the order already has a booking")
	case errors.Is(err, shipments.ErrCancelledMeanwhile):
		return shipments.Shipment{}, apierr.New(apierr.InvalidTransition, "the order was cancelled while it was being booked")
	}
	if _, ok := apierr.As(err); ok {
		return shipments.Shipment{}, err
	}
	return shipments.Shipment{}, carrier.APIError(err)
}

// bookRequest checks the booking against the order, the address, the
// channel and the calendar, and says what the carrier is told.
func (s *Service) bookRequest(ctx context.Context, seller, orderID string, in BookInput) (shipments.BookRequest, error) {
	// Settled first: not under the store's deadline, as a settlement may
	// void a booking through the carrier.
	facts, err := s.orders.BookingFacts(ctx, seller, orderID)
	if err != nil {
		return shipments.BookRequest{}, err
	}
	// The orders step decides again in the recording transaction; this
	// early answer keeps the carrier from booking an order that cannot be.
	if facts.Status != orders.StatusReadyToShip && facts.Status != orders.StatusPaid {
		return shipments.BookRequest{}, apierr.Newf(apierr.InvalidTransition,
			"an order in %s cannot be booked: it must be READY_TO_SHIP", facts.Status.PartnerStatus())
	}
	addr, err := s.bookingAddress(ctx, seller, in.AddressID)
	if err != nil {
		return shipments.BookRequest{}, err
	}
	tables, err := s.Channels(ctx)
	if err != nil {
		return shipments.BookRequest{}, err
	}
	ch, err := bookingChannel(tables, facts, addr, in)
	if err != nil {
		return shipments.BookRequest{}, err
	}
	req := shipments.BookRequest{SellerID: seller, OrderID: facts.OrderID, ChannelID: ch.ID, Method: in.Method,
		AddressID: addr.ID, Sender: senderOf(addr), Recipient: recipientOf(facts.ShippingAddress),
		Parcel: carrier.Parcel{WeightGrams: max(facts.Units, 1) * DefaultUnitWeightGrams, DeclaredValue: facts.Total}}
	if in.Method != carrier.Pickup {
		return req, nil
	}
	w, err := bookingWindow(ch, in.Window)
	if err != nil {
		return shipments.BookRequest{}, err
	}
	d, err := calendar.ParseDate(in.PickupDate)
	if err != nil {
		return shipments.BookRequest{}, apierr.New(apierr.ValidationError, "pickupDate: want an existing date as YYYY-MM-DD")
	}
	snap, err := s.Calendar(ctx)
	if err != nil {
		return shipments.BookRequest{}, err
	}
	place, _ := calendar.PlaceOfCity(addr.PSGCCode)
	if slot := Slot(s.business.Business(ctx), d, facts.ShipByDate, ch, snap, place); !slot.Available {
		return shipments.BookRequest{}, refusedDate(slot)
	}
	req.PickupDate, req.Window = d.String(), w
	return req, nil
}

// refusedDate is INVALID_PICKUP_DATE carrying the reason the slot route
// gives for the date.
func refusedDate(slot PickupSlot) error {
	msg := fmt.Sprintf("pickupDate: %s has no pickup slot (%s)", slot.Date, slot.Reason)
	if slot.Holiday != nil {
		msg += ": " + slot.Holiday.Name
	}
	return apierr.New(invalidPickupDate, msg).WithReason(string(slot.Reason))
}

// bookingAddress is the pickup address named, or the seller's default.
func (s *Service) bookingAddress(ctx context.Context, seller, id string) (sellers.PickupAddress, error) {
	if id == "" {
		return s.readPickupAddress(ctx, seller)
	}
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	addr, err := s.sellers.PickupAddress(ctx, seller, id)
	if errors.Is(err, sellers.ErrNotFound) {
		return sellers.PickupAddress{}, apierr.New(apierr.ValidationError, "addressId: the shop has no such pickup address")
	}
	return addr, err
}

// bookingChannel is the channel named (which must hand over by the
// method), or the one the slot route decides for the order.
func bookingChannel(t *channels.Tables, f orders.ShipmentFacts, addr sellers.PickupAddress, in BookInput) (*channels.Channel, error) {
	want := channels.HandoverPickup
	if in.Method == carrier.Dropoff {
		want = channels.HandoverDropoff
	}
	if in.ChannelID == "" {
		ch, err := orderChannel(t, f, addr)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(ch.Handover, want) {
			return nil, apierr.Newf(apierr.ValidationError, "method: the order's channel %s takes no %s; name a channelId that does", ch.ID, in.Method)
		}
		return ch, nil
	}
	ch, ok := t.Channel(in.ChannelID)
	if !ok {
		return nil, apierr.New(apierr.ValidationError, "channelId: no such shipping channel")
	}
	if !slices.Contains(ch.Handover, want) {
		return nil, apierr.Newf(apierr.ValidationError, "channelId: channel %s takes no %s", ch.ID, in.Method)
	}
	return ch, nil
}

// bookingWindow is the window asked for, inside the channel's window for
// the day (HH:mm strings compare as times), or the channel's window.
func bookingWindow(ch *channels.Channel, w *carrier.Window) (carrier.Window, error) {
	day := carrier.Window{Start: ch.PickupWindow.Start, End: ch.PickupWindow.End}
	if w == nil {
		return day, nil
	}
	if w.Start >= w.End || w.Start < day.Start || w.End > day.End {
		return carrier.Window{}, apierr.Newf(apierr.ValidationError,
			"timeWindow: want start before end, inside the channel's window %s-%s", day.Start, day.End)
	}
	return *w, nil
}

func senderOf(a sellers.PickupAddress) carrier.Address {
	return carrier.Address{Name: a.Name, Phone: a.Phone, Line1: a.Line1, Line2: a.Line2, City: a.City,
		Province: a.Province, Region: a.Region, PostalCode: a.PostalCode, PSGCCode: a.PSGCCode}
}

// recipientOf is the order's shipping address for the carrier, its city
// resolved to its PSGC code (empty when the names do not resolve: the
// carrier then refuses the address).
func recipientOf(a orders.Address) carrier.Address {
	out := carrier.Address{Name: a.Name, Phone: a.Phone, Line1: a.Line1, City: a.City, Province: a.Province,
		PostalCode: a.PostalCode}
	if a.Line2 != nil {
		out.Line2 = *a.Line2
	}
	if loc, ok, err := psgc.Resolve("", "", a.Province, a.City); ok && err == nil && loc.City != nil {
		out.PSGCCode = loc.City.Code
	}
	return out
}

// GetShipment is the calling seller's order's booking: NOT_FOUND for an
// order that is not the seller's, SHIPMENT_NOT_ARRANGED before a booking
// (a booking in doubt, PENDING, is not one yet) and after it was voided.
func (s *Service) GetShipment(ctx context.Context, orderID string) (shipments.Shipment, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return shipments.Shipment{}, err
	}
	if s.shipments == nil || s.orders == nil {
		return shipments.Shipment{}, apierr.New(apierr.ServiceUnavailable, "bookings are not available")
	}
	if _, err := s.readOrder(ctx, seller, orderID); err != nil {
		return shipments.Shipment{}, err
	}
	sh, err := s.shipments.LiveByOrder(ctx, seller, orderID)
	if errors.Is(err, shipments.ErrNotFound) || (err == nil && sh.Status == shipments.Pending) {
		return shipments.Shipment{}, apierr.New(shipmentNotArranged, "the order has no shipment booked")
	}
	return sh, err
}

// recordShipment records a shipment event on the transaction ctx carries.
func (s *Service) recordShipment(ctx context.Context, t events.Type, sh shipments.Shipment) error {
	if s.events == nil {
		return errors.New("shipping: bookings need an event recorder")
	}
	at := sh.UpdatedAt
	if sh.BookedAt != nil && t == eventsv1.EventType_EVENT_TYPE_SHIPMENT_BOOKED {
		at = *sh.BookedAt
	}
	_, err := s.events.Record(ctx, events.Change{SellerID: sh.SellerID, Type: t, ResourceID: sh.ID, At: at,
		View: ShipmentToProto(sh)})
	return err
}
