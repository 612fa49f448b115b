package shopclock

import (
	"context"
	"time"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/seller"
)

// EntStore keeps offsets on the sellers table.
type EntStore struct {
	client *ent.Client
}

// NewEntStore returns a store over client.
func NewEntStore(client *ent.Client) *EntStore { return &EntStore{client: client} }

// Offset implements Store.
func (s *EntStore) Offset(ctx context.Context, sellerID string) (time.Duration, error) {
	ms, err := s.client.Seller.Query().Where(seller.ID(sellerID), seller.TestShop(true)).Select(seller.FieldClockOffsetMs).Int(ctx)
	if ent.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// Advance implements Store: one statement adds to the offset, so concurrent
// moves add up rather than overwrite each other.
func (s *EntStore) Advance(ctx context.Context, sellerID string, by time.Duration) (time.Duration, error) {
	n, err := s.client.Seller.Update().Where(seller.ID(sellerID), seller.TestShop(true)).AddClockOffsetMs(by.Milliseconds()).Save(ctx)
	if err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, ErrNotTestShop
	}
	return s.Offset(ctx, sellerID)
}
