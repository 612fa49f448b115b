package orders

import (
	"context"
	"fmt"

	"github.com/mallplatform/partnerapi/ent/order"
)

// LabelOrders returns those of the seller's orders named that exist,
// without items or fulfillments, in one statement and in no particular
// order (LabelFactsBatch).
func (s *EntStore) LabelOrders(ctx context.Context, sellerID string, ids []string) ([]*Order, error) {
	q, ok := s.sellerOrders(ctx, sellerID)
	if !ok || len(ids) == 0 {
		return nil, nil
	}
	rows, err := q.Where(inIDs(order.FieldID, ids)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("orders: label orders: %w", err)
	}
	out := make([]*Order, len(rows))
	for i, r := range rows {
		out[i] = orderFromEnt(r)
	}
	return out, nil
}
