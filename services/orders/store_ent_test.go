package orders

import (
	"context"
	"testing"

	"github.com/mallplatform/partnerapi/ent"
)

// createSellers inserts the seller rows orders hang off. Sellers belong to
// another service; tests create them directly, which is why this helper sits
// beside the ent store rather than going through Store.
func createSellers(t testing.TB, client *ent.Client, ids ...string) {
	t.Helper()
	for _, id := range ids {
		err := client.Seller.Create().SetID(id).SetName("Seller " + id).SetShopName("Shop " + id).SetTestShop(true).Exec(context.Background())
		if err != nil {
			t.Fatalf("create seller %s: %v", id, err)
		}
	}
}
