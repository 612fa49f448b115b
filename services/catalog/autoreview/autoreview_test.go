package autoreview_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/event"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/services/catalog"
	"github.com/mallplatform/partnerapi/services/catalog/autoreview"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/sandbox/shopclock"
)

const (
	testShop = "slr_test_shop"
	realShop = "slr_real_shop"
)

// product writes a proposed product of seller created at at.
func product(t *testing.T, store *catalog.EntStore, seller string, at time.Time) string {
	t.Helper()
	sku, price, stock := "SKU-"+ids.Token(6), int64(1000), int64(1)
	p := &catalog.Product{
		ID: ids.NewAt("prd", at), ShortID: "A" + ids.Token(9)[:9], SellerID: seller, Name: "Sandbox product",
		Status: catalog.StatusProposed, CategoryID: catalog.SmartphonesCategoryID, CategoryName: "Smartphones",
		Images: []string{"https://img.example.ph/a.jpg"}, Weight: 100, Dimensions: catalog.Dimensions{Length: 1, Width: 1, Height: 1},
		Variants: []catalog.Variant{{ID: ids.NewAt("var", at), SKU: &sku, Price: &price, Stock: &stock, Options: []catalog.Option{},
			Weight: 100, Dimensions: catalog.Dimensions{Length: 1, Width: 1, Height: 1}}},
		CreatedAt: at, UpdatedAt: at,
	}
	if err := store.CreateProduct(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	return p.ID
}

func status(t *testing.T, d *db.DB, id string) string {
	t.Helper()
	p, err := d.Ent.Product.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return string(p.Status)
}

// A test shop's proposed products are approved once older than the delay
// on the shop's own clock, through start review and approve (an event
// each); a shop that is not a test shop is never touched, nor is a product
// already in review by hand.
func TestAutoReviewApprovesTestShopsProposedProducts(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		for id, test := range map[string]bool{testShop: true, realShop: false} {
			if err := d.Ent.Seller.Create().SetID(id).SetName(id).SetShopName(id).SetTestShop(test).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		store := catalog.NewEntStore(d)
		if err := catalog.SeedCategories(ctx, store); err != nil {
			t.Fatal(err)
		}
		wall := clock.NewManual(time.Date(2026, 3, 2, 1, 0, 0, 0, time.UTC))
		shops, err := shopclock.New(shopclock.Config{Wall: wall, Store: shopclock.NewEntStore(d.Ent)})
		if err != nil {
			t.Fatal(err)
		}
		svc := catalog.NewService(catalog.Config{Store: store, Business: shops,
			Events: events.NewRecorder(events.NewEntStore(d), nil), Holds: orders.NewEntStore(d)})
		job, err := autoreview.New(autoreview.Config{Delay: 10 * time.Minute, Candidates: store, Approver: svc, Business: shops})
		if err != nil {
			t.Fatal(err)
		}

		t0 := wall.Now()
		old := product(t, store, testShop, t0.Add(-11*time.Minute))
		young := product(t, store, testShop, t0.Add(-5*time.Minute))
		real := product(t, store, realShop, t0.Add(-time.Hour))
		byHand := product(t, store, testShop, t0.Add(-time.Hour))
		if _, err := svc.Review(ctx, byHand, catalog.StepStartReview, nil); err != nil {
			t.Fatal(err)
		}

		n, err := job.Run(ctx)
		if err != nil || n != 1 {
			t.Fatalf("first run approved %d (%v), want 1", n, err)
		}
		for id, want := range map[string]string{old: "live", young: "proposed", real: "proposed", byHand: "under_review"} {
			if got := status(t, d, id); got != want {
				t.Errorf("%s: %s, want %s", id, got, want)
			}
		}
		rows, err := d.Ent.Event.Query().Where(event.ResourceID(old)).Order(ent.Asc(event.FieldSequence)).All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var types []string
		for _, r := range rows {
			types = append(types, r.Type)
		}
		if !slices.Equal(types, []string{"product.status_changed", "product.status_changed"}) {
			t.Errorf("events of the approval: %v", types)
		}

		// The young product ages on the shop's clock, not the wall clock:
		// moving the shop's clock past the delay approves it.
		if _, err := shops.Advance(ctx, testShop, 6*time.Minute); err != nil {
			t.Fatal(err)
		}
		if n, err := job.Run(ctx); err != nil || n != 1 {
			t.Fatalf("after the shop's clock moved: approved %d (%v), want 1", n, err)
		}
		if got := status(t, d, young); got != "live" {
			t.Errorf("young product after the clock moved: %s", got)
		}
		if n, err := job.Run(ctx); err != nil || n != 0 {
			t.Fatalf("a run with nothing to approve: %d (%v)", n, err)
		}
		if got := status(t, d, real); got != "proposed" {
			t.Errorf("a real shop's product: %s", got)
		}
	})
}

func TestAutoReviewRegistersOneScheduledKind(t *testing.T) {
	d := dbtest.SQLite(t)
	store := catalog.NewEntStore(d)
	svc := catalog.NewService(catalog.Config{Store: store, Events: events.NewRecorder(events.NewEntStore(d), nil), Holds: orders.NewEntStore(d)})
	jobs := worker.NewJobs()
	cfg := autoreview.Config{Delay: time.Minute, Candidates: store, Approver: svc, Business: clock.System{}}
	if err := autoreview.Register(jobs, cfg); err != nil {
		t.Fatal(err)
	}
	if got := jobs.Kinds(); !slices.Equal(got, []string{autoreview.Kind}) {
		t.Fatalf("kinds %v", got)
	}
	cfg.Delay = 0
	if err := autoreview.Register(worker.NewJobs(), cfg); err == nil {
		t.Error("a zero delay registered")
	}
	for delay, want := range map[time.Duration]time.Duration{time.Second: time.Second, 20 * time.Second: 5 * time.Second, time.Hour: time.Minute} {
		if got := autoreview.Interval(delay); got != want {
			t.Errorf("Interval(%s) = %s, want %s", delay, got, want)
		}
	}
	var _ river.JobArgsWithInsertOpts = autoreview.Args{}
}
