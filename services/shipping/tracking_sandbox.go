package shipping

import (
	"context"

	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
)

// The sandbox's courier: its tracking route and its order transitions
// append steps as a courier's push would, stamped with the test shop's
// business time (services/sandbox's Parcels).

// AppendStep appends the step st (at location) to the seller's shipment and
// answers the parcel's tracking.
func (t *Tracker) AppendStep(ctx context.Context, sellerID, shipmentID string, st carrier.Status, location string) (*shippingv1.Tracking, error) {
	e := carrier.Event{Status: st, CarrierStatus: sandboxWords[st], Description: sandboxWords[st], Location: location,
		OccurredAt: t.Now(ctx, sellerID)}
	sh, _, err := t.Append(ctx, sellerID, shipmentID, e)
	if err != nil {
		return nil, err
	}
	evs, err := t.shipments.Events(ctx, sellerID, sh.ID)
	if err != nil {
		return nil, storeError(err)
	}
	return TrackingToProto(sh, evs), nil
}

// FollowOrder makes a sandbox order move through its booked parcel: a move
// to SHIPPED of an order whose parcel awaits pickup appends PICKED_UP, a
// move to DELIVERED of a parcel on its way appends DELIVERED. handled is
// false when the order has no booked parcel in that state; the caller then
// makes the move on the order alone (which refuses what the transition
// table refuses).
func (t *Tracker) FollowOrder(ctx context.Context, sellerID, orderID string, to orders.Status) (handled bool, err error) {
	sh, ok, err := t.Booked(ctx, sellerID, orderID)
	if err != nil || !ok {
		return false, err
	}
	var step carrier.Status
	switch st := carrier.Status(sh.Status); {
	case to == orders.StatusShipped && st == carrier.Booked:
		step = carrier.PickedUp
	case to == orders.StatusDelivered && st != carrier.Booked && !st.Final():
		step = carrier.Delivered
	default:
		return false, nil
	}
	_, err = t.AppendStep(ctx, sellerID, sh.ID, step, "")
	return err == nil, err
}

// sandboxWords is what the simulated courier says of each step.
var sandboxWords = map[carrier.Status]string{
	carrier.PickedUp:          "Parcel picked up by courier",
	carrier.InTransit:         "Parcel in transit",
	carrier.OutForDelivery:    "Parcel out for delivery",
	carrier.DeliveryAttempted: "Delivery attempted, recipient unavailable",
	carrier.Delivered:         "Parcel delivered",
	carrier.ReturnedToSender:  "Parcel returned to sender",
	carrier.Lost:              "Parcel reported lost",
}
