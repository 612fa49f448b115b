package shopclock_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/sandbox/shopclock"
)

func sellers(t *testing.T, d *db.DB) {
	t.Helper()
	for id, test := range map[string]bool{"slr_test": true, "slr_live": false} {
		if err := d.Ent.Seller.Create().SetID(id).SetName(id).SetShopName(id).SetTestShop(test).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

func forSeller(id string) context.Context {
	return principal.WithSeller(context.Background(), id)
}

// A test shop's clock moves forward only, concurrent moves add up, and
// every replica (a Clock on the same store) sees the move within CacheTTL;
// other sellers, and requests for no seller, keep the wall clock.
func TestShopClocks(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		sellers(t, d)
		ctx := context.Background()
		wall := clock.NewManual(time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC))
		store := shopclock.NewEntStore(d.Ent)
		replica := func() *shopclock.Clock {
			c, err := shopclock.New(shopclock.Config{Wall: wall, Store: store})
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
		a, b := replica(), replica()
		if got := b.Business(forSeller("slr_test")); !got.Equal(wall.Now()) {
			t.Fatalf("an unmoved shop: %v, want the wall clock %v", got, wall.Now())
		}

		now, err := a.Advance(ctx, "slr_test", 36*time.Hour)
		if err != nil || !now.Equal(wall.Now().Add(36*time.Hour)) {
			t.Fatalf("advance: %v %v", now, err)
		}
		if got := a.Business(forSeller("slr_test")); !got.Equal(wall.Now().Add(36 * time.Hour)) {
			t.Fatalf("the moving replica: %v", got)
		}
		// The other replica read the offset before the move: it follows
		// once its cached value expires.
		wall.Advance(shopclock.CacheTTL)
		if got := b.Business(forSeller("slr_test")); !got.Equal(wall.Now().Add(36 * time.Hour)) {
			t.Fatalf("another replica after %s: %v", shopclock.CacheTTL, got)
		}

		var wg sync.WaitGroup
		for range 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := store.Advance(ctx, "slr_test", time.Hour); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if off, err := store.Offset(ctx, "slr_test"); err != nil || off != 46*time.Hour {
			t.Fatalf("after ten concurrent moves of an hour: %v %v, want 46h", off, err)
		}

		for _, id := range []string{"slr_live", "slr_nobody"} {
			if _, err := a.Advance(ctx, id, time.Hour); !errors.Is(err, shopclock.ErrNotTestShop) {
				t.Errorf("advance %s: %v, want ErrNotTestShop", id, err)
			}
			if got := a.Business(forSeller(id)); !got.Equal(wall.Now()) {
				t.Errorf("%s's business time %v, want the wall clock", id, got)
			}
		}
		for _, by := range []time.Duration{0, -time.Hour} {
			if _, err := a.Advance(ctx, "slr_test", by); err == nil {
				t.Errorf("moved by %v", by)
			}
		}
		if got := a.Business(context.Background()); !got.Equal(wall.Now()) {
			t.Errorf("no seller: %v, want the wall clock", got)
		}
	})
}
