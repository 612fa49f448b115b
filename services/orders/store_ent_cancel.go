package orders

import (
	"context"
	"fmt"
	"time"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/fulfillment"
	"github.com/mallplatform/partnerapi/ent/order"
	"github.com/mallplatform/partnerapi/internal/db"
)

// CancelOrder implements Store: UPDATE … WHERE id AND seller AND status IN
// (from), so two cancellations racing on one order cannot both win (on
// PostgreSQL the second waits for the first's row lock, then finds the
// status changed). The order is read back in the same transaction.
func (s *EntStore) CancelOrder(ctx context.Context, sellerID, orderID string, from []Status, at time.Time) (*Order, bool, error) {
	var o *Order
	cancelled := false
	err := s.InTx(ctx, func(ctx context.Context) error {
		if len(from) > 0 {
			in := make([]order.Status, len(from))
			for i, st := range from {
				in[i] = order.Status(st)
			}
			n, err := s.sellerOrderUpdate(ctx, sellerID).
				Where(order.ID(orderID), order.StatusIn(in...)).
				SetStatus(order.StatusCancelled).SetUpdatedAt(at).
				Save(ctx)
			if err != nil {
				return fmt.Errorf("orders: cancel: %w", err)
			}
			cancelled = n == 1
		}
		if cancelled {
			// Only an order this call cancelled is the seller's; the
			// shipment update needs no seller filter of its own.
			_, err := s.db(ctx).Fulfillment.Update().
				Where(fulfillment.OrderID(orderID), fulfillment.StatusEQ(fulfillment.StatusPending)).
				SetStatus(fulfillment.StatusCancelled).SetUpdatedAt(at).
				Save(ctx)
			if err != nil {
				return fmt.Errorf("orders: cancel shipments: %w", err)
			}
		}
		var err error
		o, err = s.GetOrder(ctx, sellerID, orderID)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	return o, cancelled, nil
}

// InTx implements Store.
func (s *EntStore) InTx(ctx context.Context, fn func(ctx context.Context) error) error {
	return db.InTx(ctx, s.client, fn)
}

// sellerOrderUpdate starts every update of orders, with the seller filter
// as sellerOrders writes it for queries.
func (s *EntStore) sellerOrderUpdate(ctx context.Context, sellerID string) *ent.OrderUpdate {
	return s.db(ctx).Order.Update().Where(order.SellerID(sellerID))
}
