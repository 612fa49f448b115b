package catalog

import (
	"context"
	"errors"

	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// OrderHolds is the orders service's read the catalog needs before a
// delete: whether an order still to be shipped holds one of the variants.
// The catalog never reads the orders tables itself; orders.EntStore
// implements this, reading through the transaction ctx carries.
type OrderHolds interface {
	// HoldsVariants reports whether an order of the seller in PENDING,
	// PAID or READY_TO_SHIP has a line on one of the variants.
	HoldsVariants(ctx context.Context, sellerID string, variantIDs []string) (bool, error)
}

// DeleteProduct archives one of the seller's products: it leaves the
// default listing, stays readable (and listed under status=archived), and
// no longer changes. Deleting an archived product answers it again without
// a second event. A product an unshipped order still holds is
// PRODUCT_HAS_ACTIVE_ORDERS: the seller must ship or cancel those first.
//
// The check and the archive run in one transaction. An order placed on the
// product at the very moment of the delete can still slip past the check
// (order creation does not lock the product), and the race is accepted: an
// order line is a snapshot (title, SKU and price copied at checkout, the
// product only referenced), so the order is fulfilled, cancelled or
// refunded exactly as one placed a second before the delete, which the
// seller would have had to fulfil anyway; and an archived product is no
// longer sold, so no further order follows.
func (s *Service) DeleteProduct(ctx context.Context, id string) (*Product, error) {
	sellerID, err := principal.RequireSeller(ctx)
	if err != nil {
		return nil, err
	}
	if !ids.Valid("prd", id) {
		return nil, notFoundProduct(id)
	}
	if s.holds == nil {
		return nil, errors.New("catalog: deleting products needs the orders' OrderHolds")
	}
	now := s.clock.Business(ctx).UTC()
	var out *Product
	err = s.store.InTx(ctx, func(ctx context.Context) error {
		p, err := s.store.GetProduct(ctx, sellerID, id)
		if err != nil {
			return err
		}
		if p.Status == StatusArchived {
			out = p
			return nil
		}
		variantIDs := make([]string, len(p.Variants))
		for i, v := range p.Variants {
			variantIDs[i] = v.ID
		}
		held, err := s.holds.HoldsVariants(ctx, sellerID, variantIDs)
		if err != nil {
			return err
		}
		if held {
			return apierr.New(apierr.ProductHasActiveOrders,
				"an order not yet shipped (PENDING, PAID or READY_TO_SHIP) holds one of the product's variants; ship or cancel it before deleting the product")
		}
		from := []ProductStatus{StatusLive, StatusUnlisted, StatusDelisted, StatusProposed, StatusUnderReview}
		p, moved, err := s.store.MoveProduct(ctx, sellerID, id, ProductMove{From: from, To: StatusArchived, At: now})
		if err != nil {
			return err
		}
		out = p
		if !moved {
			// Only a concurrent delete leaves it unmoved: it is archived.
			return nil
		}
		return s.record(ctx, eventsv1.EventType_EVENT_TYPE_PRODUCT_STATUS_CHANGED, p, now)
	})
	if err != nil {
		return nil, s.productErr(err, id)
	}
	return out, nil
}
