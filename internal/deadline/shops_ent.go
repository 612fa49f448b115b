package deadline

import (
	"context"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/seller"
)

// EntShops reads the moved shops from the sellers table, where the sandbox
// keeps each test shop's clock offset (services/sandbox/shopclock).
type EntShops struct{ client *ent.Client }

// NewEntShops returns the moved shops of client's database.
func NewEntShops(client *ent.Client) *EntShops { return &EntShops{client: client} }

// MovedShops implements Shops: test shops whose offset is positive.
func (s *EntShops) MovedShops(ctx context.Context) ([]string, error) {
	return s.client.Seller.Query().Where(seller.TestShop(true), seller.ClockOffsetMsGT(0)).
		Order(ent.Asc(seller.FieldID)).IDs(ctx)
}
