package sellers_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/ent/pickupaddress"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/sellers"
)

var storeNow = time.Date(2026, 3, 10, 2, 0, 0, 0, time.UTC)

func createSellers(t *testing.T, d *db.DB, ids ...string) {
	t.Helper()
	for _, id := range ids {
		if err := d.Ent.Seller.Create().SetID(id).SetName("Seller " + id).SetShopName("Shop " + id).SetTestShop(true).
			Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

func newService(d *db.DB) *sellers.Service {
	return sellers.NewService(sellers.Config{Store: sellers.NewEntStore(d), Business: clock.NewManual(storeNow)})
}

// The store's contract, on PostgreSQL and SQLite alike. A district of the
// City of Manila (1380602000, Binondo) is not an address city.
func TestPickupAddressStore(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		createSellers(t, d, "slr_a", "slr_b", "slr_empty")
		svc := newService(d)
		if err := svc.SeedTestShop(ctx, "slr_a"); err != nil {
			t.Fatal(err)
		}
		if err := svc.SeedTestShop(ctx, "slr_b"); err != nil {
			t.Fatal(err)
		}

		t.Run("the default first, names from the PSGC code", func(t *testing.T) {
			as, err := svc.PickupAddresses(ctx, "slr_a")
			if err != nil {
				t.Fatal(err)
			}
			if len(as) != 2 {
				t.Fatalf("%d addresses, want 2", len(as))
			}
			mk, laguna := as[0], as[1]
			if !mk.IsDefault || laguna.IsDefault {
				t.Fatalf("defaults %v, %v: want the first only", mk.IsDefault, laguna.IsDefault)
			}
			if mk.PSGCCode != "1380300000" || mk.City != "City of Makati" || mk.Province != "National Capital Region (NCR)" ||
				mk.PostalCode != "1200" || mk.Region != "National Capital Region (NCR)" || mk.Line2 == "" {
				t.Fatalf("Makati address %+v", mk)
			}
			if laguna.PSGCCode != "0403428000" || laguna.City != "City of Santa Rosa" || laguna.Province != "Laguna" ||
				laguna.PostalCode != "4026" || laguna.Line2 != "" {
				t.Fatalf("Santa Rosa address %+v", laguna)
			}
			if !sellers.ValidAddressID(mk.ID) || mk.SellerID != "slr_a" || !mk.CreatedAt.Equal(storeNow) {
				t.Fatalf("id, seller or time %+v", mk)
			}
		})

		t.Run("default and by id, within the seller", func(t *testing.T) {
			def, err := svc.DefaultPickupAddress(ctx, "slr_a")
			if err != nil || !def.IsDefault || def.SellerID != "slr_a" {
				t.Fatalf("default %+v, %v", def, err)
			}
			got, err := svc.PickupAddress(ctx, "slr_a", def.ID)
			if err != nil || got.ID != def.ID {
				t.Fatalf("by id %+v, %v", got, err)
			}
			if _, err := svc.PickupAddress(ctx, "slr_b", def.ID); !errors.Is(err, sellers.ErrNotFound) {
				t.Fatalf("another seller's address: %v, want ErrNotFound", err)
			}
			if _, err := svc.PickupAddress(ctx, "slr_a", "pad_\x00"); !errors.Is(err, sellers.ErrNotFound) {
				t.Fatalf("malformed id: %v, want ErrNotFound", err)
			}
		})

		t.Run("a shop without addresses", func(t *testing.T) {
			as, err := svc.PickupAddresses(ctx, "slr_empty")
			if err != nil || len(as) != 0 {
				t.Fatalf("%v, %v: want none", as, err)
			}
			if _, err := svc.DefaultPickupAddress(ctx, "slr_empty"); !errors.Is(err, sellers.ErrNotFound) {
				t.Fatalf("default: %v, want ErrNotFound", err)
			}
		})

		t.Run("one default per seller, held by the database", func(t *testing.T) {
			second := []sellers.NewPickupAddress{
				{Name: "Extra", Line1: "1 Street", PSGCCode: "1381300000", Phone: "+639170000000"},
				{IsDefault: true, Name: "Another default", Line1: "2 Street", PSGCCode: "1381300000", Phone: "+639170000000"},
			}
			if _, err := svc.AddPickupAddresses(ctx, "slr_a", second); !errors.Is(err, sellers.ErrDefaultTaken) {
				t.Fatalf("second default: %v, want ErrDefaultTaken", err)
			}
			// The batch is one transaction: its non-default address is not kept either.
			if as, _ := svc.PickupAddresses(ctx, "slr_a"); len(as) != 2 {
				t.Fatalf("%d addresses after a refused batch, want 2", len(as))
			}
			// The database itself refuses a second default (what two
			// writers racing past the check meet), and only a default.
			insert := func(id string, isDefault bool) error {
				return d.Ent.PickupAddress.Create().SetID(id).SetSellerID("slr_a").SetIsDefault(isDefault).
					SetName("N").SetLine1("L").SetCity("C").SetProvince("P").SetRegion("R").SetPostalCode("1100").
					SetPhone("1").SetPsgcCode("1381300000").Exec(ctx)
			}
			if err := insert("pad_raw_default", true); err == nil {
				t.Fatal("a second default row was stored")
			}
			if err := insert("pad_raw_other", false); err != nil {
				t.Fatalf("a second non-default row: %v", err)
			}
			if _, err := d.Ent.PickupAddress.Delete().Where(pickupaddress.ID("pad_raw_other")).Exec(ctx); err != nil {
				t.Fatal(err)
			}
			// Two defaults in one batch are refused the same way.
			if _, err := svc.AddPickupAddresses(ctx, "slr_empty", []sellers.NewPickupAddress{second[1], second[1]}); !errors.Is(err, sellers.ErrDefaultTaken) {
				t.Fatalf("two defaults in a batch: %v, want ErrDefaultTaken", err)
			}
		})

		t.Run("a place is a city or municipality code", func(t *testing.T) {
			for _, code := range []string{"", "1300000000", "0403400000", "9999999999", "1380602000"} {
				_, err := svc.AddPickupAddresses(ctx, "slr_empty", []sellers.NewPickupAddress{{Name: "X", Line1: "Y", PSGCCode: code, Phone: "1"}})
				if err == nil {
					t.Fatalf("PSGC code %q accepted", code)
				}
			}
		})
	})
}
