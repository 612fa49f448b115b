package ordergen_test

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/psgc"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/sandbox/ordergen"
)

var t0 = time.Date(2026, 3, 1, 4, 0, 0, 0, time.UTC)

func createSellers(t testing.TB, d *db.DB, ids ...string) {
	t.Helper()
	for _, id := range ids {
		err := d.Ent.Seller.Create().SetID(id).SetName("Seller " + id).SetShopName("Shop " + id).SetTestShop(true).Exec(context.Background())
		if err != nil {
			t.Fatalf("create seller %s: %v", id, err)
		}
	}
}

func ids(os []*orders.Order) []string {
	out := make([]string, len(os))
	for i, o := range os {
		out[i] = o.ID
	}
	return out
}

func TestSeed(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		createSellers(t, d, "sel_a", "sel_b")
		st := orders.NewEntStore(d)
		now := time.Date(2026, 3, 10, 2, 0, 0, 0, time.UTC)
		ctx := context.Background()
		if err := ordergen.Seed(ctx, st, "sel_a", nil, 40, now, rand.New(rand.NewPCG(1, 2))); err != nil {
			t.Fatalf("seed: %v", err)
		}
		// Fewer than the minimum is raised to it.
		if err := ordergen.Seed(ctx, st, "sel_b", nil, 3, now, rand.New(rand.NewPCG(3, 4))); err != nil {
			t.Fatalf("seed: %v", err)
		}
		if n, _ := st.CountOrders(ctx, "sel_b", orders.Filter{}); n != ordergen.MinOrders {
			t.Errorf("sel_b seeded %d, want %d", n, ordergen.MinOrders)
		}
		rows, more, err := st.ListOrders(ctx, "sel_a", orders.Filter{}, orders.Page{Limit: 100})
		if err != nil || more || len(rows) != 40 {
			t.Fatalf("list seeded: %d more=%v err=%v", len(rows), more, err)
		}
		checkSeeded(t, rows, now)
	})
}

// checkSeeded asserts what the sandbox promises about seeded orders.
func checkSeeded(t *testing.T, rows []*orders.Order, now time.Time) {
	t.Helper()
	statuses := map[orders.Status]int{}
	var breached, onTime, handover, arrange, withChannel, withoutChannel, line2, noEmail int
	cities := map[string]psgc.Place{}
	for _, c := range psgc.Cities() {
		cities[c.Name+"|"+psgc.PlaceOf(c).Province] = psgc.PlaceOf(c)
	}
	for _, o := range rows {
		statuses[o.Status]++
		if o.CreatedAt.Before(now.Add(-60*24*time.Hour)) || o.CreatedAt.After(now) {
			t.Errorf("%s created %v, outside the past 60 days", o.ID, o.CreatedAt)
		}
		if o.UpdatedAt.Before(o.CreatedAt) || o.UpdatedAt.After(now) {
			t.Errorf("%s updated %v before creation or in the future", o.ID, o.UpdatedAt)
		}
		if len(o.Items) < 1 || len(o.Items) > 4 {
			t.Errorf("%s has %d items", o.ID, len(o.Items))
		}
		var sum int64
		itemQty := map[string]int64{}
		for _, it := range o.Items {
			if it.Quantity*it.UnitPrice != it.TotalPrice || it.Quantity < 1 {
				t.Errorf("%s item %s: %d x %d != %d", o.ID, it.ID, it.Quantity, it.UnitPrice, it.TotalPrice)
			}
			sum += it.TotalPrice
			itemQty[it.ID] = it.Quantity
		}
		if o.Subtotal != sum || o.Total != o.Subtotal+o.Shipping+o.Tax-o.Discount || o.Total < 0 || o.Discount > o.Subtotal {
			t.Errorf("%s money: subtotal %d (items %d) shipping %d tax %d discount %d total %d", o.ID, o.Subtotal, sum, o.Shipping, o.Tax, o.Discount, o.Total)
		}
		if o.Currency != "PHP" || o.CustomerID == "" {
			t.Errorf("%s currency %q customer %q", o.ID, o.Currency, o.CustomerID)
		}
		if o.BuyerEmail == "" {
			noEmail++
		}
		for _, a := range []orders.Address{o.ShippingAddress, o.BillingAddress} {
			if _, ok := cities[a.City+"|"+a.Province]; !ok {
				t.Errorf("%s address not PSGC-aligned: %q / %q", o.ID, a.City, a.Province)
			}
			if len(a.PostalCode) != 4 || a.Country != "PH" || len(a.Phone) != 13 || a.Phone[:4] != "+639" || a.Name == "" || a.Line1 == "" {
				t.Errorf("%s address: %+v", o.ID, a)
			}
			if a.Line2 != nil {
				line2++
			}
		}
		shipped := o.Status == orders.StatusShipped || o.Status == orders.StatusDelivered || o.Status == orders.StatusReturnRefund
		if shipped {
			covered := map[string]int64{}
			for _, f := range o.Fulfillments {
				if f.TrackingNumber == "" || f.TrackingCompany == "" || f.OrderID != o.ID {
					t.Errorf("%s fulfillment %+v", o.ID, f)
				}
				for _, fi := range f.Items {
					if _, ok := itemQty[fi.ItemID]; !ok {
						t.Errorf("%s fulfillment references unknown item %s", o.ID, fi.ItemID)
					}
					covered[fi.ItemID] += fi.Quantity
				}
			}
			if !reflect.DeepEqual(covered, itemQty) {
				t.Errorf("%s fulfillments cover %v of %v", o.ID, covered, itemQty)
			}
		} else if len(o.Fulfillments) > 0 && o.BookingStatus == nil {
			t.Errorf("%s (%s) has fulfillments without a booking", o.ID, o.Status)
		}
		if o.BookingStatus != nil {
			if o.Status != orders.StatusReadyToShip {
				t.Errorf("%s: booking on a %s order", o.ID, o.Status)
			}
			if *o.BookingStatus == orders.BookingReadyForHandover {
				handover++
			} else {
				arrange++
			}
		}
		if o.ShippingChannel != nil {
			withChannel++
		} else {
			withoutChannel++
		}
		if o.ShipByDate != nil && o.Status.PreShipment() {
			if now.After(*o.ShipByDate) {
				breached++
			} else {
				onTime++
			}
			if m := o.ShipByDate.In(time.FixedZone("PHT", 8*3600)); m.Hour() != 23 || m.Minute() != 59 {
				t.Errorf("%s ship-by %v is not the end of a Manila day", o.ID, m)
			}
		}
	}
	for _, s := range orders.AllStatuses {
		if statuses[s] == 0 {
			t.Errorf("no %s order seeded: %v", s, statuses)
		}
	}
	if breached == 0 || onTime == 0 || handover == 0 || arrange == 0 || withChannel == 0 || withoutChannel == 0 || line2 == 0 {
		t.Errorf("presence cases missing: breached %d onTime %d handover %d arrange %d channel %d/%d line2 %d",
			breached, onTime, handover, arrange, withChannel, withoutChannel, line2)
	}
	_ = noEmail
}

func TestGenerateIsDeterministic(t *testing.T) {
	now := time.Date(2026, 3, 10, 2, 0, 0, 0, time.UTC)
	a, err := ordergen.Generate("sel_a", nil, 60, now, rand.New(rand.NewPCG(9, 9)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ordergen.Generate("sel_a", nil, 60, now, rand.New(rand.NewPCG(9, 9)))
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed gave different orders")
	}
	c, _ := ordergen.Generate("sel_a", nil, 60, now, rand.New(rand.NewPCG(9, 10)))
	if reflect.DeepEqual(ids(a), ids(c)) {
		t.Fatal("different seeds gave the same ids")
	}
	checkSeeded(t, a, now)
	for _, seed := range []uint64{1, 2, 3, 4, 5, 6, 7, 8} {
		some, _ := ordergen.Generate("sel_x", nil, ordergen.MinOrders, now, rand.New(rand.NewPCG(seed, 0)))
		checkSeeded(t, some, now)
	}
}

func TestGenerateWithCatalogProducts(t *testing.T) {
	products := []ordergen.Product{
		{ProductID: "prd_real_1", VariantID: "var_real_1", Title: "Real Product One", SKU: "R-1", UnitPrice: 12345, Thumbnail: "https://cdn.example.ph/1.jpg"},
		{ProductID: "prd_real_2", Title: "Real Product Two", SKU: "R-2", UnitPrice: 99900},
	}
	lines, err := ordergen.Generate("sel_a", products, 30, t0, rand.New(rand.NewPCG(5, 5)))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range lines {
		for _, it := range o.Items {
			switch it.ProductID {
			case "prd_real_1":
				if it.VariantID == nil || *it.VariantID != "var_real_1" || it.Thumbnail == nil {
					t.Errorf("line of product 1: %+v", it)
				}
			case "prd_real_2":
				if it.VariantID != nil || it.Thumbnail != nil {
					t.Errorf("line of product 2 invented a variant or thumbnail: %+v", it)
				}
			default:
				t.Errorf("line references unknown product %s", it.ProductID)
			}
		}
	}
	if _, err := ordergen.Generate("sel_a", []ordergen.Product{{Title: "no id"}}, 30, t0, rand.New(rand.NewPCG(5, 5))); err == nil {
		t.Error("a product without id was accepted")
	}
}

// TestSeededOrdersAsPartnersSeeThem: the orders service lists a seeded shop
// with every partner status, the SLA and booking presence cases, and no
// checkout state (PENDING, PAID) on the wire, page after page.
func TestSeededOrdersAsPartnersSeeThem(t *testing.T) {
	d := dbtest.Postgres(t)
	createSellers(t, d, "sel_a")
	st := orders.NewEntStore(d)
	now := time.Date(2026, 3, 10, 2, 0, 0, 0, time.UTC)
	if err := ordergen.Seed(context.Background(), st, "sel_a", nil, 60, now, rand.New(rand.NewPCG(11, 11))); err != nil {
		t.Fatal(err)
	}
	svc := orders.NewService(orders.Config{Store: st, Business: clock.NewManual(now)})
	p := &principal.Principal{AppID: "app_1", Scopes: []string{"orders:read", orders.ScopeBuyerEmail}, SellerID: "sel_a"}
	ctx := principal.WithSeller(principal.NewContext(context.Background(), p), "sel_a")
	seen := map[orders.Status]int{}
	var breached, withBooking int
	params := orders.ListParams{Limit: 25}
	for {
		res, err := svc.ListOrders(ctx, params)
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != 60 {
			t.Fatalf("total %d", res.Total)
		}
		for _, v := range res.Items {
			seen[v.Status]++
			if (v.Order.ShipByDate == nil) != (v.SLABreached == nil) {
				t.Errorf("%s: shipByDate %v but slaBreached %v", v.Order.ID, v.Order.ShipByDate, v.SLABreached)
			}
			if v.SLABreached != nil && *v.SLABreached {
				breached++
			}
			if v.BookingStatus != nil {
				withBooking++
				if v.Status != orders.StatusReadyToShip {
					t.Errorf("%s: bookingStatus on %v", v.Order.ID, v.Status)
				}
			}
		}
		if res.NextCursor == "" {
			break
		}
		params.Cursor = res.NextCursor
	}
	for _, s := range []orders.Status{orders.StatusReadyToShip, orders.StatusShipped, orders.StatusDelivered, orders.StatusCancelled, orders.StatusReturnRefund} {
		if seen[s] == 0 {
			t.Errorf("no %v order in the listing: %v", s, seen)
		}
	}
	if seen[orders.StatusPending]+seen[orders.StatusPaid] != 0 {
		t.Errorf("checkout states leak into the partner view: %v", seen)
	}
	if breached == 0 || withBooking == 0 {
		t.Errorf("breached %d, with booking %d", breached, withBooking)
	}
}
