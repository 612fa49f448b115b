// Package shipments keeps orders' bookings with carriers and their parcels'
// tracking events, and books a shipment through a carrier (Book) so that a
// crash anywhere books the parcel once.
package shipments

import (
	"context"
	"errors"
	"time"

	"github.com/mallplatform/partnerapi/services/shipping/carrier"
)

var (
	// ErrNotFound: no such shipment for this seller (another seller's
	// shipment is not found either).
	ErrNotFound = errors.New("shipments: not found")
	// ErrAlreadyArranged: the order already has a live booking.
	ErrAlreadyArranged = errors.New("shipments: order already has a booking")
	// ErrNotPending: the shipment left PENDING before this writer (another
	// attempt completed or cancelled it).
	ErrNotPending = errors.New("shipments: shipment is no longer pending")
	// ErrFinal: the parcel reached a final status; nothing follows it.
	ErrFinal = errors.New("shipments: the parcel's tracking is closed")
)

// Status is a shipment's status: Pending before the carrier answered, then
// the parcel's normalised status.
type Status string

// Pending is a booking whose carrier answer is not recorded yet: in doubt,
// completed by the next attempt with the same reference. Partners never see
// it: a pending shipment reads as not arranged.
const Pending Status = "PENDING"

// Shipment is an order's booking.
type Shipment struct {
	ID         string
	SellerID   string
	OrderID    string
	Status     Status
	Method     carrier.Method
	ChannelID  string
	PickupDate string
	Window     carrier.Window
	AddressID  string
	// Carrier names the Carrier that booked it ("simulated").
	Carrier         string
	Reference       string
	TrackingNumber  string
	TrackingCompany string
	RouteCode       string
	BookedAt        *time.Time
	CancelledAt     *time.Time
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// Booked reports whether the carrier's answer is recorded (any status
// after Pending but a cancelled booking).
func (s Shipment) Booked() bool { return s.Status != Pending && s.Status != Status(carrier.Cancelled) }

// Event is one recorded step of a shipment's parcel.
type Event struct {
	Sequence int
	carrier.Event
}

// Store keeps shipments. Every method filters on the seller; writes join the
// transaction in the context when there is one, so a booking's record, the
// order's step and the webhook events commit together.
type Store interface {
	// InTx runs fn in one transaction of the store's database (joining
	// the context's, when it carries one).
	InTx(ctx context.Context, fn func(ctx context.Context) error) error
	// CreatePending inserts s as Pending; ErrAlreadyArranged when the order
	// has a live (not cancelled) shipment already.
	CreatePending(ctx context.Context, s Shipment) (Shipment, error)
	// Get is the seller's shipment id.
	Get(ctx context.Context, sellerID, id string) (Shipment, error)
	// LiveByOrder is the order's shipment that is not cancelled (pending
	// or booked); ErrNotFound when there is none.
	LiveByOrder(ctx context.Context, sellerID, orderID string) (Shipment, error)
	// LiveByOrders is LiveByOrder for a batch, in one query: the orders
	// with a live shipment, by order id.
	LiveByOrders(ctx context.Context, sellerID string, orderIDs []string) (map[string]Shipment, error)
	// ByTrackingNumber is the shipment a carrier's push names.
	ByTrackingNumber(ctx context.Context, carrierName, trackingNumber string) (Shipment, error)
	// RecordBooking stores the carrier's answer on a Pending shipment and
	// its first event (sequence 1, BOOKED); ErrNotPending when the
	// shipment is no longer pending.
	RecordBooking(ctx context.Context, sellerID, id string, b carrier.Booking, first carrier.Event) (Shipment, error)
	// DeletePending removes a Pending shipment the carrier refused;
	// ErrNotPending when it is no longer pending.
	DeletePending(ctx context.Context, sellerID, id string) error
	// AppendEvent records the parcel's next step, numbered after the last,
	// and moves the shipment to its status; ErrFinal after a final status,
	// ErrNotPending on a shipment not booked yet (unless the step is the
	// void of that booking in doubt, CANCELLED).
	AppendEvent(ctx context.Context, sellerID, id string, e carrier.Event) (Event, Shipment, error)
	// Events is the shipment's steps, oldest first.
	Events(ctx context.Context, sellerID, id string) ([]Event, error)
}
