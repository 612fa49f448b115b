package developer

import (
	"context"
	"fmt"
	"time"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/developertestshop"
)

var _ TestShopStore = (*EntStore)(nil)

// CountTestShops implements TestShopStore.
func (s *EntStore) CountTestShops(ctx context.Context, accountID string, reservedSince time.Time) (int, error) {
	n, err := s.db(ctx).DeveloperTestShop.Query().Where(developertestshop.AccountID(accountID),
		developertestshop.Or(developertestshop.SellerIDNotNil(), developertestshop.CreatedAtGTE(reservedSince))).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("developer: count test shops: %w", err)
	}
	return n, nil
}

// ReserveTestShop implements TestShopStore.
func (s *EntStore) ReserveTestShop(ctx context.Context, r TestShopRecord) error {
	err := s.db(ctx).DeveloperTestShop.Create().SetID(r.ID).SetAccountID(r.AccountID).SetShopName(r.ShopName).
		SetCreatedAt(r.CreatedAt).Exec(ctx)
	if err != nil {
		return fmt.Errorf("developer: reserve test shop: %w", err)
	}
	return nil
}

// CompleteTestShop implements TestShopStore.
func (s *EntStore) CompleteTestShop(ctx context.Context, id, sellerID, username string) error {
	err := s.db(ctx).DeveloperTestShop.UpdateOneID(id).SetSellerID(sellerID).SetUsername(username).Exec(ctx)
	if err != nil {
		return fmt.Errorf("developer: complete test shop: %w", err)
	}
	return nil
}

// DropTestShop implements TestShopStore.
func (s *EntStore) DropTestShop(ctx context.Context, id string) error {
	if _, err := s.db(ctx).DeveloperTestShop.Delete().Where(developertestshop.ID(id)).Exec(ctx); err != nil {
		return fmt.Errorf("developer: drop test shop: %w", err)
	}
	return nil
}

// TestShops implements TestShopStore.
func (s *EntStore) TestShops(ctx context.Context, accountID string) ([]TestShopRecord, error) {
	rows, err := s.db(ctx).DeveloperTestShop.Query().
		Where(developertestshop.AccountID(accountID), developertestshop.SellerIDNotNil()).
		Order(developertestshop.ByCreatedAt(), developertestshop.ByID()).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("developer: test shops: %w", err)
	}
	out := make([]TestShopRecord, len(rows))
	for i, r := range rows {
		out[i] = testShopRecord(r)
	}
	return out, nil
}

// TestShop implements TestShopStore.
func (s *EntStore) TestShop(ctx context.Context, accountID, sellerID string) (TestShopRecord, error) {
	r, err := s.db(ctx).DeveloperTestShop.Query().
		Where(developertestshop.AccountID(accountID), developertestshop.SellerID(sellerID)).Only(ctx)
	if ent.IsNotFound(err) {
		return TestShopRecord{}, ErrNotFound
	}
	if err != nil {
		return TestShopRecord{}, fmt.Errorf("developer: test shop: %w", err)
	}
	return testShopRecord(r), nil
}

func testShopRecord(r *ent.DeveloperTestShop) TestShopRecord {
	out := TestShopRecord{ID: r.ID, AccountID: r.AccountID, ShopName: r.ShopName, Username: r.Username,
		CreatedAt: r.CreatedAt}
	if r.SellerID != nil {
		out.SellerID = *r.SellerID
	}
	return out
}
