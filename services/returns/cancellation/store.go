package cancellation

import (
	"context"
	"time"

	"github.com/mallplatform/partnerapi/internal/deadline"
)

// Request is a buyer's cancellation request.
type Request struct {
	ID           string
	SellerID     string
	OrderID      string
	Status       Status
	Reason       string
	RejectReason string
	RequestedAt  time.Time
	RespondBy    time.Time
	DecidedAt    *time.Time
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// Key is a request's place in a listing: newest first, by creation time,
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

// Store keeps requests. Every method runs on the transaction ctx carries
// when it carries one, and every query is the seller's: another seller's
// request is NOT_FOUND.
type Store interface {
	// Create inserts a PENDING request; an order with one pending already
	// answers CONFLICT.
	Create(ctx context.Context, r *Request) error
	// Get reads the seller's request.
	Get(ctx context.Context, sellerID, id string) (*Request, error)
	// ForOrder reads the order's latest request (NOT_FOUND when none).
	ForOrder(ctx context.Context, sellerID, orderID string) (*Request, error)
	// List reads a page of the seller's requests (status "" for all),
	// newest first, and whether more follow.
	List(ctx context.Context, sellerID string, status Status, p Page) ([]*Request, bool, error)
	// Count counts the seller's requests in status ("" for all).
	Count(ctx context.Context, sellerID string, status Status) (int64, error)
	// Decide moves a PENDING request to to at at (with the rejection's
	// reason), only when it is still PENDING, and reports whether it did.
	Decide(ctx context.Context, sellerID, id string, to Status, rejectReason string, at time.Time) (bool, error)
	// Overturn moves a decided request from from to to (with the
	// rejection's reason), only when it is still from, and reports whether
	// it did.
	Overturn(ctx context.Context, sellerID, id string, from, to Status, rejectReason string, at time.Time) (bool, error)
	// LatestForOrders reads the latest request of each of the seller's
	// orders named, keyed by order id (orders without one are absent).
	LatestForOrders(ctx context.Context, sellerID string, orderIDs []string) (map[string]*Request, error)

	// The deadline mechanism's (deadline.Store[*Request]).
	Load(ctx context.Context, ref deadline.Ref) (*Request, error)
	Advance(ctx context.Context, ref deadline.Ref, m deadline.Move) (bool, error)
	Due(ctx context.Context, seller string, now time.Time, limit int) ([]deadline.Ref, error)
}

// SubjectName names the requests' deadlines in logs and job kinds.
const SubjectName = "cancellation_requests"

// NewSubject is the requests' part in the deadline mechanism; record
// writes cancellation.auto_approved (and has the order cancelled through
// the orders service) in the move's transaction.
func NewSubject(store Store, record deadline.Recorder[*Request], inTx deadline.TxRunner) *deadline.Subject[*Request] {
	return &deadline.Subject[*Request]{
		Name:   SubjectName,
		Store:  store,
		Rule:   func(r *Request, now time.Time) (deadline.Move, bool) { return Auto(r.Status, r.RespondBy, now) },
		Record: record,
		InTx:   inTx,
	}
}
