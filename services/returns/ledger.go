package returns

import (
	"context"
	"time"
)

// RefundSource says who refunded a return.
type RefundSource string

// The refunders.
const (
	// RefundBySeller: the seller approved a refund-only request or a
	// received parcel.
	RefundBySeller RefundSource = "SELLER"
	// RefundByDeadline: the seller let a deadline pass (a refund-only
	// request not answered, a received parcel not inspected).
	RefundByDeadline RefundSource = "DEADLINE"
	// RefundByPlatform: the platform decided a dispute for the buyer.
	RefundByPlatform RefundSource = "PLATFORM"
)

// RefundRecord is one refund in the ledger.
type RefundRecord struct {
	ID       string
	SellerID string
	ReturnID string
	OrderID  string
	// Amount is what was refunded, Requested what the buyer asked back
	// (centavos); Amount below Requested is a partial refund.
	Amount    int64
	Requested int64
	Currency  string
	Source    RefundSource
	CreatedAt time.Time
}

// Full reports whether the refund is the whole amount asked back.
func (r RefundRecord) Full() bool { return r.Amount >= r.Requested }

// Ledger is the refund boundary: the one way money goes back to a buyer.
// The platform's ledger (a table, EntLedger) is the first implementation;
// a payment provider's refund call would sit behind the same interface.
// Every method runs on the transaction ctx carries, so a refund commits with
// the return's move to REFUNDED or not at all.
type Ledger interface {
	// Refund writes the refund; a return is refunded at most once (a
	// second refund of it fails).
	Refund(ctx context.Context, r RefundRecord) error
	// Refunds reads the refunds of the seller's returns ids, by return id,
	// oldest first.
	Refunds(ctx context.Context, sellerID string, returnIDs []string) (map[string][]RefundRecord, error)
}
