package catalog

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/product"
	"github.com/mallplatform/partnerapi/ent/seller"
)

// MoveProduct implements Store: one UPDATE ... WHERE id AND seller_id AND
// status IN (from), then the product read back in the same transaction.
func (s *EntStore) MoveProduct(ctx context.Context, sellerID, id string, m ProductMove) (*Product, bool, error) {
	var out *Product
	moved := false
	err := s.InTx(ctx, func(ctx context.Context) error {
		c := s.db(ctx)
		if len(m.From) > 0 {
			from := make([]product.Status, len(m.From))
			for i, st := range m.From {
				from[i] = product.Status(st)
			}
			u := c.Product.Update().
				Where(product.ID(id), product.SellerID(sellerID), product.StatusIn(from...)).
				SetStatus(product.Status(m.To)).
				SetUpdatedAt(m.At)
			if m.SetNote {
				if m.Note != nil {
					u.SetReviewNote(*m.Note)
				} else {
					u.ClearReviewNote()
				}
			}
			n, err := u.Save(ctx)
			if err != nil {
				return err
			}
			moved = n == 1
		}
		p, err := s.GetProduct(ctx, sellerID, id)
		if err != nil {
			return err
		}
		out = p
		return nil
	})
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return nil, false, ErrNotFound
		}
		return nil, false, fmt.Errorf("catalog: move product: %w", err)
	}
	return out, moved, nil
}

// ProductSeller implements Store.
func (s *EntStore) ProductSeller(ctx context.Context, id string) (string, error) {
	r, err := s.db(ctx).Product.Query().Where(product.ID(id)).Select(product.FieldSellerID).Only(ctx)
	if ent.IsNotFound(err) {
		return "", ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("catalog: product seller: %w", err)
	}
	return r.SellerID, nil
}

// TestShops implements Store.
func (s *EntStore) TestShops(ctx context.Context) ([]string, error) {
	ids, err := s.db(ctx).Seller.Query().Where(seller.TestShop(true)).Order(seller.ByID()).IDs(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: test shops: %w", err)
	}
	return ids, nil
}

// ProposedBefore implements Store.
func (s *EntStore) ProposedBefore(ctx context.Context, sellerID string, t time.Time, limit int) ([]string, error) {
	ids, err := sellerProducts(s.db(ctx), sellerID).
		Where(product.StatusEQ(product.StatusProposed), product.CreatedAtLTE(t)).
		Order(product.ByCreatedAt(), product.ByID()).
		Limit(limit).
		IDs(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: proposed products: %w", err)
	}
	return ids, nil
}
