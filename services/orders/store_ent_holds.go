package orders

import (
	"context"
	"fmt"

	"github.com/mallplatform/partnerapi/ent/order"
	"github.com/mallplatform/partnerapi/ent/orderitem"
)

// HoldsVariants reports whether an order of the seller not yet shipped
// (PENDING, PAID or READY_TO_SHIP) has a line on one of the variants: the
// orders' named read behind the catalog's delete check (catalog.OrderHolds).
// It reads through the transaction ctx carries, so the check and the
// catalog's archive commit together.
func (s *EntStore) HoldsVariants(ctx context.Context, sellerID string, variantIDs []string) (bool, error) {
	if sellerID == "" || len(variantIDs) == 0 {
		return false, nil
	}
	pre := make([]order.Status, len(preShipment))
	for i, st := range preShipment {
		pre[i] = order.Status(st)
	}
	held, err := s.db(ctx).OrderItem.Query().
		Where(inIDs(orderitem.FieldVariantID, variantIDs),
			orderitem.HasOrderWith(order.SellerID(sellerID), order.StatusIn(pre...))).
		Exist(ctx)
	if err != nil {
		return false, fmt.Errorf("orders: variants held by orders: %w", err)
	}
	return held, nil
}
