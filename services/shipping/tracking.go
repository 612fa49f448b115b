package shipping

import (
	"context"
	"errors"
	"fmt"
	"time"

	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
)

// ParcelSteps is the orders service's steps that follow a parcel
// (orders.Service): shipping moves an order only through them.
type ParcelSteps interface {
	ParcelPickedUp(ctx context.Context, sellerID, orderID string, ship orders.Shipment) (bool, error)
	ParcelDelivered(ctx context.Context, sellerID, orderID string) (bool, error)
}

// Recorder records the platform's events (events.Recorder).
type Recorder interface {
	Record(ctx context.Context, c events.Change) (events.Event, error)
}

// TrackerConfig is what a Tracker is built from.
type TrackerConfig struct {
	Shipments shipments.Store
	Orders    ParcelSteps
	Events    Recorder
	// Business is the shops' business clock: a step's event is stamped
	// with the shop's business time (default: the system clock).
	Business clock.Business
}

// Tracker appends couriers' tracking steps to shipments: the one use case
// behind the internal push (CarrierPushService), the sandbox's tracking
// route and the sandbox's order transitions of a booked order.
//
// Each new step, in one transaction: the shipment's event (numbered after
// the last, AppendEvent), the order's move when the step moves it, and
// shipment.tracking_updated carrying the step's sequence. The mapping of
// steps to order moves:
//
//   - PICKED_UP, IN_TRANSIT, OUT_FOR_DELIVERY, DELIVERY_ATTEMPTED: the
//     parcel is with the courier, so the order is SHIPPED (ParcelPickedUp;
//     nothing when it shipped already: a courier that skips the pick-up
//     scan still ships the order).
//   - DELIVERED: SHIPPED first when it had not, then DELIVERED
//     (ParcelDelivered).
//   - RETURNED_TO_SENDER, LOST: the order stays SHIPPED; what the buyer is
//     owed is the after-sales domain's decision (a return or a claim), not
//     the courier's.
//   - BOOKED and CANCELLED are refused: the booking and its void are
//     core's own calls to the courier (the booking and cancellation use
//     cases record them).
//
// A step is the same step when its status and occurred_at (to the
// millisecond) equal a recorded one: couriers resend their webhooks, and
// their payloads carry no event id every courier shares. A repeated step is
// answered with its first sequence and writes nothing.
type Tracker struct {
	shipments shipments.Store
	orders    ParcelSteps
	events    Recorder
	business  clock.Business
}

// NewTracker returns a Tracker over cfg.
func NewTracker(cfg TrackerConfig) *Tracker {
	if cfg.Business == nil {
		cfg.Business = clock.System{}
	}
	return &Tracker{shipments: cfg.Shipments, orders: cfg.Orders, events: cfg.Events, business: cfg.Business}
}

// Step is what became of one appended step.
type Step struct {
	Event shipments.Event
	// Duplicate: the step was recorded before; nothing was written.
	Duplicate bool
}

// Push appends a courier's steps for its tracking number, oldest first, in
// one transaction: one refused step refuses them all. An unknown number is
// NOT_FOUND.
func (t *Tracker) Push(ctx context.Context, carrierName, trackingNumber string, evs []carrier.Event) (shipments.Shipment, []Step, error) {
	if t.shipments == nil {
		return shipments.Shipment{}, nil, apierr.New(apierr.ServiceUnavailable, "tracking is not available")
	}
	var (
		sh    shipments.Shipment
		steps []Step
	)
	err := t.shipments.InTx(ctx, func(ctx context.Context) error {
		found, err := t.shipments.ByTrackingNumber(ctx, carrierName, trackingNumber)
		if errors.Is(err, shipments.ErrNotFound) {
			return apierr.New(apierr.NotFound, "no shipment has this tracking number")
		}
		if err != nil {
			return err
		}
		steps = make([]Step, 0, len(evs))
		sh = found
		for _, e := range evs {
			var st Step
			sh, st, err = t.append(ctx, found.SellerID, found.ID, e)
			if err != nil {
				return err
			}
			steps = append(steps, st)
		}
		return nil
	})
	if err != nil {
		return shipments.Shipment{}, nil, err
	}
	return sh, steps, nil
}

// Append appends one step to the seller's shipment (the sandbox's route and
// order transitions): another seller's shipment is NOT_FOUND.
func (t *Tracker) Append(ctx context.Context, sellerID, shipmentID string, e carrier.Event) (shipments.Shipment, Step, error) {
	if t.shipments == nil {
		return shipments.Shipment{}, Step{}, apierr.New(apierr.ServiceUnavailable, "tracking is not available")
	}
	var (
		sh shipments.Shipment
		st Step
	)
	err := t.shipments.InTx(ctx, func(ctx context.Context) error {
		var err error
		sh, st, err = t.append(ctx, sellerID, shipmentID, e)
		return err
	})
	return sh, st, err
}

// Booked is the seller's order's booked shipment, or ok false when the order
// has none (no booking, one still in doubt, or a voided one).
func (t *Tracker) Booked(ctx context.Context, sellerID, orderID string) (sh shipments.Shipment, ok bool, err error) {
	if t.shipments == nil {
		return shipments.Shipment{}, false, nil
	}
	sh, err = t.shipments.LiveByOrder(ctx, sellerID, orderID)
	if errors.Is(err, shipments.ErrNotFound) {
		return shipments.Shipment{}, false, nil
	}
	if err != nil {
		return shipments.Shipment{}, false, err
	}
	return sh, sh.Booked(), nil
}

// Now is the seller's business time, what a sandbox step is stamped with.
func (t *Tracker) Now(ctx context.Context, sellerID string) time.Time {
	return t.business.Business(principal.WithSeller(ctx, sellerID))
}

// append runs in the caller's transaction.
func (t *Tracker) append(ctx context.Context, sellerID, shipmentID string, e carrier.Event) (shipments.Shipment, Step, error) {
	switch {
	case !e.Status.Valid():
		return shipments.Shipment{}, Step{}, apierr.Newf(apierr.ValidationError, "status: %q is not a tracking status", e.Status)
	case e.Status == carrier.Booked || e.Status == carrier.Cancelled:
		return shipments.Shipment{}, Step{}, apierr.Newf(apierr.ValidationError,
			"status: %s is recorded by the booking itself, not by a tracking update", e.Status)
	case e.OccurredAt.IsZero():
		return shipments.Shipment{}, Step{}, apierr.New(apierr.ValidationError, "occurred_at: required")
	}
	// Stored timestamps keep milliseconds; comparing at that precision is
	// what lets a resent step match its stored twin.
	e.OccurredAt = e.OccurredAt.UTC().Truncate(time.Millisecond)
	// The shop's business clock for every time written below (the push
	// carries no seller token).
	ctx = principal.WithSeller(ctx, sellerID)

	recorded, err := t.shipments.Events(ctx, sellerID, shipmentID)
	if err != nil {
		return shipments.Shipment{}, Step{}, storeError(err)
	}
	for _, r := range recorded {
		if r.Status == e.Status && r.OccurredAt.Equal(e.OccurredAt) {
			sh, err := t.shipments.Get(ctx, sellerID, shipmentID)
			if err != nil {
				return shipments.Shipment{}, Step{}, storeError(err)
			}
			return sh, Step{Event: r, Duplicate: true}, nil
		}
	}
	ev, sh, err := t.shipments.AppendEvent(ctx, sellerID, shipmentID, e)
	if err != nil {
		return shipments.Shipment{}, Step{}, storeError(err)
	}
	if err := t.followParcel(ctx, sh, e.Status); err != nil {
		return shipments.Shipment{}, Step{}, err
	}
	if t.events == nil {
		return shipments.Shipment{}, Step{}, errors.New("shipping: tracking needs an event recorder")
	}
	if _, err := t.events.Record(ctx, events.Change{SellerID: sh.SellerID, ResourceID: sh.ID,
		Type: eventsv1.EventType_EVENT_TYPE_SHIPMENT_TRACKING_UPDATED, At: t.business.Business(ctx),
		View: TrackingUpdateToProto(sh, ev)}); err != nil {
		return shipments.Shipment{}, Step{}, err
	}
	return sh, Step{Event: ev}, nil
}

// followParcel moves the shipment's order after the parcel's new status
// (see Tracker).
func (t *Tracker) followParcel(ctx context.Context, sh shipments.Shipment, st carrier.Status) error {
	if t.orders == nil {
		return errors.New("shipping: tracking needs the orders service")
	}
	ship := orders.Shipment{TrackingNumber: sh.TrackingNumber, TrackingCompany: sh.TrackingCompany}
	switch st {
	case carrier.PickedUp, carrier.InTransit, carrier.OutForDelivery, carrier.DeliveryAttempted:
		_, err := t.orders.ParcelPickedUp(ctx, sh.SellerID, sh.OrderID, ship)
		return err
	case carrier.Delivered:
		if _, err := t.orders.ParcelPickedUp(ctx, sh.SellerID, sh.OrderID, ship); err != nil {
			return err
		}
		_, err := t.orders.ParcelDelivered(ctx, sh.SellerID, sh.OrderID)
		return err
	}
	return nil
}

// storeError maps the shipments store's refusals to the API's codes.
func storeError(err error) error {
	switch {
	case errors.Is(err, shipments.ErrNotFound):
		return apierr.New(apierr.NotFound, "shipment not found")
	case errors.Is(err, shipments.ErrNotPending):
		return apierr.New(errorsv1.ErrorCode_ERROR_CODE_SHIPMENT_NOT_ARRANGED, "the shipment's booking is not confirmed yet")
	case errors.Is(err, shipments.ErrFinal):
		return apierr.New(apierr.InvalidTransition, "the parcel's tracking is closed (delivered, returned, lost or cancelled)")
	}
	return fmt.Errorf("shipping: tracking: %w", err)
}
