package catalog

import (
	"context"
	"sort"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// TakeStock takes a new order's quantities (by variant id) off the seller's
// variants through the inventory path: one conditional update per variant
// (the stock never goes below 0) and its inventory.updated and
// product.updated events, in the order's transaction. A variant ordered
// beyond its stock refuses the whole order (VALIDATION_ERROR naming it);
// variants that do not exist, are another seller's or whose product is
// archived are skipped, and an unknown stock stays unknown.
func (s *Service) TakeStock(ctx context.Context, sellerID string, quantities map[string]int64) error {
	return s.moveStock(ctx, sellerID, quantities, -1)
}

// ReturnStock puts a cancelled order's quantities back on the seller's
// variants, through the same path and with the same events as TakeStock;
// skipped variants are the same.
func (s *Service) ReturnStock(ctx context.Context, sellerID string, quantities map[string]int64) error {
	return s.moveStock(ctx, sellerID, quantities, 1)
}

func (s *Service) moveStock(ctx context.Context, sellerID string, quantities map[string]int64, sign int64) error {
	variantIDs := make([]string, 0, len(quantities))
	for id, q := range quantities {
		if q > 0 {
			variantIDs = append(variantIDs, id)
		}
	}
	if len(variantIDs) == 0 {
		return nil
	}
	sort.Strings(variantIDs)
	return s.store.InTx(ctx, func(ctx context.Context) error {
		plan := make([]planned, len(variantIDs))
		for i, id := range variantIDs {
			d := sign * quantities[id]
			plan[i] = planned{index: i, change: VariantChange{VariantID: id, AdjustStock: &d}}
		}
		_, errs, err := s.applyPlan(ctx, sellerID, plan, func(p planned, st VariantState) *apierr.Error {
			if st.ID == "" || st.ProductStatus == StatusArchived || st.Stock == nil {
				return nil // not the seller's catalog's to count
			}
			if sign < 0 {
				return apierr.Newf(apierr.ValidationError, "variant %s: %d ordered, only %d in stock",
					p.change.VariantID, -*p.change.AdjustStock, *st.Stock)
			}
			return explainStock(p.change, st)
		})
		if err != nil {
			return err
		}
		if len(errs) > 0 {
			return errs[0].Err
		}
		return nil
	})
}
