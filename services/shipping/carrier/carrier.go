// Package carrier is the boundary between the shipping service and the
// couriers that move parcels. Each courier is one implementation of Carrier;
// the platform's own logistics network is the first (a simulated courier in
// dev and the sandbox, package simulated). A real courier's adapter is a
// package of its own beside it, and its tracking webhooks enter core through
// an internal gRPC method that appends events the same way the sandbox does,
// so nothing above this package knows which courier moved a parcel.
package carrier

import (
	"context"
	"time"
)

// Carrier is one courier. Every method is called with a deadline (see
// WithDeadline) and must be safe to retry: Book is idempotent on
// BookRequest.Reference, Void on the reference it voids.
type Carrier interface {
	// Book asks the courier to carry a parcel. A second call with the same
	// Reference answers the first booking again and books nothing new.
	Book(ctx context.Context, req BookRequest) (Booking, error)
	// Void cancels the booking of a reference; voiding one already voided
	// (or never booked) succeeds, so a cancellation can be retried.
	Void(ctx context.Context, req VoidRequest) error
	// Track is the courier's events for a tracking number, oldest first.
	Track(ctx context.Context, req TrackRequest) ([]Event, error)
	// LabelData is what the courier wants printed on the parcel's label.
	LabelData(ctx context.Context, req LabelRequest) (Label, error)
}

// Method is how the parcel reaches the courier.
type Method string

const (
	// Pickup: the courier collects it from the seller's address.
	Pickup Method = "PICKUP"
	// Dropoff: the seller hands it in at a branch.
	Dropoff Method = "DROPOFF"
)

// Address is one end of the route, as the courier needs it.
type Address struct {
	Name       string
	Phone      string
	Line1      string
	Line2      string
	City       string
	Province   string
	Region     string
	PostalCode string
	// PSGCCode is the 10-digit code of the city or municipality.
	PSGCCode string
}

// Parcel is what is carried.
type Parcel struct {
	// WeightGrams is the actual weight.
	WeightGrams int64
	// Sides in centimetres; zero when unknown.
	LengthCM, WidthCM, HeightCM int64
	// CODAmount is what the courier collects from the buyer, in centavos
	// (zero when the order is prepaid).
	CODAmount int64
	// DeclaredValue insures the parcel, in centavos.
	DeclaredValue int64
}

// Window is a pickup time window, HH:mm Asia/Manila.
type Window struct{ Start, End string }

// BookRequest is one booking.
type BookRequest struct {
	// Reference is the courier's idempotency key (see Reference).
	Reference string
	// SellerID is the shop the parcel is sent for: a real courier may map
	// it to an account; the simulated one reads its fault queue by it.
	SellerID  string
	OrderID   string
	ChannelID string
	Method    Method
	// PickupDate is YYYY-MM-DD (Asia/Manila), empty for a drop-off.
	PickupDate string
	Window     Window
	Sender     Address
	Recipient  Address
	Parcel     Parcel
}

// Booking is the courier's answer to a booking.
type Booking struct {
	Reference       string
	TrackingNumber  string
	TrackingCompany string
	// RouteCode is the courier's sorting code, printed on the label.
	RouteCode string
	// CarrierStatus is the courier's own words for the booking.
	CarrierStatus string
	BookedAt      time.Time
}

// VoidRequest cancels the booking of Reference.
type VoidRequest struct {
	SellerID       string
	Reference      string
	TrackingNumber string
}

// TrackRequest asks for a parcel's events.
type TrackRequest struct {
	SellerID       string
	TrackingNumber string
}

// LabelRequest asks what to print on a parcel.
type LabelRequest struct {
	SellerID       string
	Reference      string
	TrackingNumber string
}

// Label is the courier's part of a shipping label.
type Label struct {
	TrackingNumber  string
	TrackingCompany string
	RouteCode       string
	// Barcode is the value the label's Code128 and QR carry (the tracking
	// number for the platform's network).
	Barcode string
}

// Event is one step of a parcel, in the platform's words (Status) and the
// courier's own (CarrierStatus).
type Event struct {
	Status        Status
	CarrierStatus string
	Description   string
	Location      string
	OccurredAt    time.Time
}
