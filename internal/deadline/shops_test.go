package deadline_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/deadline"
)

// TestEntShops: the moved shops are the test shops whose clock is ahead.
func TestEntShops(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		for _, s := range []struct {
			id     string
			test   bool
			offset int64
		}{{"sel_live", false, 0}, {"sel_test_still", true, 0}, {"sel_test_moved", true, 3600_000}, {"sel_test_z", true, 1}} {
			if err := d.Ent.Seller.Create().SetID(s.id).SetName(s.id).SetShopName(s.id).SetTestShop(s.test).
				SetClockOffsetMs(s.offset).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		got, err := deadline.NewEntShops(d.Ent).MovedShops(ctx)
		if err != nil || fmt.Sprint(got) != "[sel_test_moved sel_test_z]" {
			t.Fatalf("moved shops %v %v", got, err)
		}
	})
}
