package orders

import (
	"context"
	"errors"
	"time"
)

// ErrNotFound is returned by a Store when the order does not exist for the
// seller asked about. A foreign seller's order is indistinguishable from a
// missing one by design.
var ErrNotFound = errors.New("orders: order not found")

// Status is an order's stored state. Checkout writes PENDING and PAID; the
// partner view reports both as READY_TO_SHIP (see PartnerStatus).
type Status string

// Stored order states.
const (
	StatusPending      Status = "PENDING"
	StatusPaid         Status = "PAID"
	StatusReadyToShip  Status = "READY_TO_SHIP"
	StatusShipped      Status = "SHIPPED"
	StatusDelivered    Status = "DELIVERED"
	StatusCancelled    Status = "CANCELLED"
	StatusReturnRefund Status = "RETURN_REFUND"
)

// AllStatuses lists every stored state, pre-shipment first.
var AllStatuses = []Status{StatusPending, StatusPaid, StatusReadyToShip, StatusShipped, StatusDelivered, StatusCancelled, StatusReturnRefund}

// PreShipment reports whether the order has not left the seller yet: the
// spec treats PENDING, PAID and READY_TO_SHIP as one state for cancellation,
// SLA and booking purposes.
func (s Status) PreShipment() bool {
	return s == StatusPending || s == StatusPaid || s == StatusReadyToShip
}

// PartnerStatus is the status partners see and filter by: the spec's order
// status has five values, so the two checkout states fold into
// READY_TO_SHIP (paymentStatus still tells them apart).
func (s Status) PartnerStatus() Status {
	if s.PreShipment() {
		return StatusReadyToShip
	}
	return s
}

// StoredStatuses is the inverse of PartnerStatus: the stored states a
// partner status filter matches.
func StoredStatuses(partner Status) []Status {
	if partner == StatusReadyToShip {
		return []Status{StatusPending, StatusPaid, StatusReadyToShip}
	}
	return []Status{partner}
}

// BookingStatus is where a paid order stands in the pickup booking.
type BookingStatus string

// Booking states.
const (
	BookingPendingArrange   BookingStatus = "PENDING_ARRANGE"
	BookingReadyForHandover BookingStatus = "READY_FOR_HANDOVER"
)

// FulfillmentStatus is a shipment's state.
type FulfillmentStatus string

// Shipment states.
const (
	FulfillmentPending   FulfillmentStatus = "pending"
	FulfillmentShipped   FulfillmentStatus = "shipped"
	FulfillmentDelivered FulfillmentStatus = "delivered"
	FulfillmentCancelled FulfillmentStatus = "cancelled"
)

// Address is a Philippine postal address, PSGC-aligned. Line2 is nil when
// the buyer gave none, which the contract renders differently from "".
type Address struct {
	Name       string
	Line1      string
	Line2      *string
	City       string
	Province   string
	PostalCode string
	Country    string
	Phone      string
}

// Item is one order line, a snapshot taken at checkout. Money is centavos.
type Item struct {
	ID         string
	OrderID    string
	ProductID  string
	VariantID  *string
	Title      string
	SKU        string
	Quantity   int64
	UnitPrice  int64
	TotalPrice int64
	Thumbnail  *string
}

// FulfillmentItem is how many units of one order item a shipment covers.
type FulfillmentItem struct {
	ItemID   string
	Quantity int64
}

// Fulfillment is one shipment of some or all of an order's items.
type Fulfillment struct {
	ID              string
	OrderID         string
	Status          FulfillmentStatus
	TrackingNumber  string
	TrackingCompany string
	Items           []FulfillmentItem
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// Order is an order as stored, with its items (in checkout order) and
// fulfillments (oldest first). Money is int64 centavos throughout.
type Order struct {
	ID         string
	SellerID   string
	CustomerID string
	// BuyerEmail is "" when checkout had none.
	BuyerEmail        string
	Status            Status
	Currency          string
	Subtotal          int64
	Total             int64
	Tax               int64
	Shipping          int64
	Discount          int64
	PaymentStatus     string
	FulfillmentStatus string
	ShippingAddress   Address
	BillingAddress    Address
	ShipByDate        *time.Time
	ShippedAt         *time.Time
	ShippingChannel   *string
	// CancellationRequestedAt is when the buyer last asked to cancel the
	// order; nil when never.
	CancellationRequestedAt *time.Time
	BookingStatus           *BookingStatus
	CreatedAt               time.Time
	UpdatedAt               time.Time
	Items                   []Item
	Fulfillments            []Fulfillment
}

// Move is one state change of an order.
type Move struct {
	// From are the stored states the move starts from; empty matches none.
	From []Status
	To   Status
	At   time.Time
	// PaymentStatus and FulfillmentStatus, when not "", replace the
	// order's.
	PaymentStatus, FulfillmentStatus string
	// Shipped stamps shipped_at with At.
	Shipped bool
	// ClearBooking drops the pre-shipment booking status.
	ClearBooking bool
	// Booking, when not "", sets the booking status; Channel, when not
	// "", the shipping channel (a booking's).
	Booking BookingStatus
	Channel string
	// Unbooked limits the move to an order whose booking status is not
	// READY_FOR_HANDOVER (a booking never books an order twice).
	Unbooked bool
	// ShipmentsFrom and ShipmentsTo, when set, move the order's shipments
	// in the one state to the other.
	ShipmentsFrom, ShipmentsTo FulfillmentStatus
	// NewShipment is inserted, covering every item, when the order has no
	// shipment in ShipmentsTo after the move.
	NewShipment *Fulfillment
}

// Filter selects a seller's orders. Zero fields do not filter.
type Filter struct {
	// Statuses matches any of these stored states.
	Statuses []Status
	// CreatedAfter is inclusive, CreatedBefore exclusive, as the spec says.
	CreatedAfter  *time.Time
	CreatedBefore *time.Time
}

// Key is a position in the (created_at, id) order that listings use.
type Key struct {
	CreatedAt time.Time
	ID        string
}

// Page selects a window of a listing: After (keyset, stable under inserts)
// when set, Offset otherwise.
type Page struct {
	Ascending bool
	Limit     int
	Offset    int
	After     *Key
}

// Store is the orders storage. Every method takes the seller the caller acts
// for and never returns another seller's rows.
type Store interface {
	// GetOrder returns the seller's order with its items and fulfillments,
	// or ErrNotFound.
	GetOrder(ctx context.Context, sellerID, orderID string) (*Order, error)
	// ListOrders returns one page of the seller's orders matching f, sorted
	// by (created_at, id), with items and fulfillments, and whether more
	// orders follow the page.
	ListOrders(ctx context.Context, sellerID string, f Filter, p Page) ([]*Order, bool, error)
	// CountOrders counts the seller's orders matching f.
	CountOrders(ctx context.Context, sellerID string, f Filter) (int64, error)
	// CreateOrders inserts orders, their items and fulfillments in one
	// transaction. IDs must be set; each order carries its own seller.
	CreateOrders(ctx context.Context, orders []*Order) error
	// MoveOrder applies m to the seller's order with one conditional
	// statement (the order moves only from one of m.From) and, when it
	// moved, m's changes to its shipments. It returns the order as it then
	// stands and whether this call moved it; ErrNotFound when the seller has
	// no such order.
	MoveOrder(ctx context.Context, sellerID, orderID string, m Move) (o *Order, moved bool, err error)
	// MoveOrders applies m (without NewShipment) to those of the seller's
	// orders named that are in one of m.From, with statements for the whole
	// batch, and returns the ids it moved.
	MoveOrders(ctx context.Context, sellerID string, ids []string, m Move) (moved []string, err error)
	// MarkCancellationRequested stamps the seller's order as asked about by
	// its buyer at at; ErrNotFound when the seller has no such order.
	MarkCancellationRequested(ctx context.Context, sellerID, orderID string, at time.Time) error
	// GetOrders returns those of the seller's orders named that exist, with
	// items and fulfillments, in no particular order.
	GetOrders(ctx context.Context, sellerID string, ids []string) ([]*Order, error)
	// InTx runs fn with a transaction in its context (joining one ctx
	// already carries): every Store method, and any other store reading
	// its client through the context, takes part in it.
	InTx(ctx context.Context, fn func(ctx context.Context) error) error
}
