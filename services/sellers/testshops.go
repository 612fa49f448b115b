package sellers

import (
	"context"
	"fmt"
)

// testShopAddresses are every sandbox test shop's pickup addresses: one in
// Metro Manila (the default) and one outside it, so that quotes from either
// zone can be tried. The codes are real PSGC codes; the names and postal
// codes come from internal/psgc.
var testShopAddresses = []NewPickupAddress{
	{IsDefault: true, Name: "Makati Warehouse", Line1: "Unit 5, 1234 Chino Roces Avenue", Line2: "Barangay Pio del Pilar",
		PSGCCode: "1380300000", Phone: "+639171110001"},
	{Name: "Santa Rosa Fulfilment Hub", Line1: "Lot 7, Laguna Technopark", PSGCCode: "0403428000", Phone: "+639171110002"},
}

// SeedTestShop gives a new test shop its two pickup addresses.
func (s *Service) SeedTestShop(ctx context.Context, sellerID string) error {
	if _, err := s.AddPickupAddresses(ctx, sellerID, testShopAddresses); err != nil {
		return fmt.Errorf("sellers: test shop addresses: %w", err)
	}
	return nil
}
