package returns

import (
	"context"
	"fmt"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/returnrefund"
	"github.com/mallplatform/partnerapi/internal/db"
)

// EntLedger is the platform's ledger of refunds, the return_refunds table.
type EntLedger struct {
	client *ent.Client
}

// NewEntLedger returns the ledger over d.
func NewEntLedger(d *db.DB) *EntLedger { return &EntLedger{client: d.Ent} }

var _ Ledger = (*EntLedger)(nil)

func (l *EntLedger) db(ctx context.Context) *ent.Client { return db.Client(ctx, l.client) }

// Refund implements Ledger.
func (l *EntLedger) Refund(ctx context.Context, r RefundRecord) error {
	err := l.db(ctx).ReturnRefund.Create().SetID(r.ID).SetSellerID(r.SellerID).SetReturnID(r.ReturnID).
		SetOrderID(r.OrderID).SetAmount(r.Amount).SetRequestedAmount(r.Requested).SetCurrency(r.Currency).
		SetSource(returnrefund.Source(r.Source)).SetCreatedAt(r.CreatedAt).Exec(ctx)
	if err != nil {
		return fmt.Errorf("returns: ledger refund of %s: %w", r.ReturnID, err)
	}
	return nil
}

// Refunds implements Ledger.
func (l *EntLedger) Refunds(ctx context.Context, sellerID string, returnIDs []string) (map[string][]RefundRecord, error) {
	out := map[string][]RefundRecord{}
	if sellerID == "" || len(returnIDs) == 0 {
		return out, nil
	}
	rows, err := l.db(ctx).ReturnRefund.Query().
		Where(returnrefund.SellerID(sellerID), returnrefund.ReturnIDIn(returnIDs...)).
		Order(returnrefund.ByCreatedAt(), returnrefund.ByID()).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("returns: ledger refunds: %w", err)
	}
	for _, r := range rows {
		out[r.ReturnID] = append(out[r.ReturnID], RefundRecord{ID: r.ID, SellerID: r.SellerID, ReturnID: r.ReturnID,
			OrderID: r.OrderID, Amount: r.Amount, Requested: r.RequestedAmount, Currency: r.Currency,
			Source: RefundSource(r.Source), CreatedAt: r.CreatedAt.UTC()})
	}
	return out, nil
}
