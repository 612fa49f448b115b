package returns

import (
	"context"
	"time"

	"github.com/mallplatform/partnerapi/internal/deadline"
)

// Return is a buyer's return as the domain holds it.
type Return struct {
	ID       string
	OrderID  string
	SellerID string
	State
	Reason    string
	BuyerNote string
	Evidence  []string
	Items     []Item
	// RefundAmount is what the buyer asks back, RefundedAmount what was
	// refunded so far (less for a partial refund), both in centavos.
	RefundAmount         int64
	RefundedAmount       int64
	Currency             string
	ReturnTrackingNumber string
	RejectReason         string
	RejectNote           string
	Dispute              *DisputeCase
	CreatedAt            time.Time
	UpdatedAt            time.Time
}

// Item is one order line returned.
type Item struct {
	ItemID       string
	Quantity     int64
	RefundAmount int64
}

// DisputeCase is a return's dispute.
type DisputeCase struct {
	ID string
	// RaisedBy is SELLER or BUYER (an escalated rejection).
	RaisedBy    string
	ReasonCode  string
	Description string
	Evidence    []string
	// Outcome is REFUNDED or CLOSED once the platform decided; empty before.
	Outcome   string
	DecidedAt *time.Time
	CreatedAt time.Time
}

// Filter narrows a seller's listing; zero fields do not filter.
type Filter struct {
	Status        Status
	OrderID       string
	CreatedAfter  *time.Time
	CreatedBefore *time.Time
}

// Key is a return's place in a listing: newest first, by creation time,
// then id.
type Key struct {
	CreatedAt time.Time
	ID        string
}

// Page is one page's window: after a key (keyset) or at an offset.
type Page struct {
	After  *Key
	Offset int
	Limit  int
}

// Move is a manual move to store: the return goes from From to To's status
// and deadlines, with the fields the move sets.
type Move struct {
	From Status
	To   State
	At   time.Time
	// Set by a rejection.
	RejectReason, RejectNote string
	// Set by a refund (the amount refunded so far) and by the buyer's
	// shipping (the parcel's tracking number); nil leaves them.
	RefundedAmount *int64
	TrackingNumber *string
	// Dispute is the dispute the move opens; the service writes it
	// (AddDispute) once the move applied, Move ignores it.
	Dispute *DisputeCase
	// DisputeOutcome is the platform's decision the move makes (REFUNDED
	// or CLOSED), written by DecideDispute once the move applied.
	DisputeOutcome Status
}

// Store keeps returns. Every method runs on the transaction ctx carries
// when it carries one, and every query is the seller's: another seller's
// return is NOT_FOUND.
type Store interface {
	// Create inserts r with its items (r.Items in order).
	Create(ctx context.Context, r *Return) error
	// Get reads the seller's return with its items and dispute.
	Get(ctx context.Context, sellerID, id string) (*Return, error)
	// List reads a page of the seller's returns, newest first, and
	// whether more follow.
	List(ctx context.Context, sellerID string, f Filter, p Page) ([]*Return, bool, error)
	// Count counts the seller's returns that f selects.
	Count(ctx context.Context, sellerID string, f Filter) (int64, error)
	// Move applies m only when the return is still in m.From, and reports
	// whether it did: of two moves racing from one status, one wins.
	Move(ctx context.Context, sellerID, id string, m Move) (bool, error)
	// AddDispute records the return's dispute (one per return).
	AddDispute(ctx context.Context, sellerID, returnID string, d DisputeCase) error
	// DecideDispute records the platform's decision of the return's
	// dispute.
	DecideDispute(ctx context.Context, sellerID, returnID, outcome string, at time.Time) error

	// The deadline mechanism's (deadline.Store[*Return]).
	Load(ctx context.Context, ref deadline.Ref) (*Return, error)
	Advance(ctx context.Context, ref deadline.Ref, m deadline.Move) (bool, error)
	Due(ctx context.Context, seller string, now time.Time, limit int) ([]deadline.Ref, error)
}
