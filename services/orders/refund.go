package orders

import (
	"context"
	"errors"
)

// Refund moves sellerID's order to RETURN_REFUND as the returns domain
// refunded its buyer in full: the transition table's move (from DELIVERED),
// with payment status refunded and order.return_refund, in the caller's
// transaction, so the refund, the return's move and the order's change
// commit together or not at all. The seller is the return's, given by the
// caller (a deadline sweep or the platform's decision carries no seller
// token). moved is false, with nothing written, when the order was refunded
// already (an earlier return of it); an order that was never delivered is
// INVALID_TRANSITION.
func (s *Service) Refund(ctx context.Context, sellerID, orderID string) (moved bool, err error) {
	if sellerID == "" {
		return false, errors.New("orders: a refund needs the return's seller")
	}
	m := lifecycle[StatusReturnRefund]
	m.To = StatusReturnRefund
	return s.parcelStep(ctx, sellerID, orderID, m, StatusReturnRefund)
}
