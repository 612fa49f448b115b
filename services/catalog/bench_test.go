package catalog_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/pagination"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/catalog"
	"github.com/mallplatform/partnerapi/services/events"
)

var backends = []struct {
	name string
	open func(testing.TB) *db.DB
}{
	{"sqlite", func(tb testing.TB) *db.DB { return dbtest.SQLite(tb) }},
	{"postgres", func(tb testing.TB) *db.DB { return dbtest.Postgres(tb) }},
}

func benchService(b *testing.B, d *db.DB) (*catalog.Service, *catalog.EntStore, context.Context) {
	b.Helper()
	store := catalog.NewEntStore(d)
	if err := catalog.SeedCategories(context.Background(), store); err != nil {
		b.Fatal(err)
	}
	addSeller(b, d, sellerA)
	addSeller(b, d, sellerB)
	return catalog.NewService(catalog.Config{Store: store, Business: clock.System{}, Events: events.NewRecorder(events.NewEntStore(d), nil)}), store, principal.WithSeller(context.Background(), sellerA)
}

// benchInput is a typical listing: three colour variants, five attribute
// values of four types.
func benchInput() catalog.ProductInput {
	in := catalog.ProductInput{
		Title:       "Acme Phone X 128GB, 5G, dual SIM",
		Description: "A phone for the benchmark.",
		Category:    catalog.SmartphonesCategoryID,
		Images:      []string{"https://img.example.ph/1.jpg", "https://img.example.ph/2.jpg", "https://img.example.ph/3.jpg"},
		Weight:      ptr(190.0), Length: ptr(16.0), Width: ptr(7.5), Height: ptr(0.9),
		AttributeValues: []catalog.AttributeValue{
			{AttributeID: catalog.AttrElectronicsBrand, Value: json.RawMessage(`"Acme"`)},
			{AttributeID: catalog.AttrSmartphoneStorage, Value: json.RawMessage(`"128GB"`)},
			{AttributeID: catalog.AttrSmartphoneNetwork, Value: json.RawMessage(`["4G LTE","5G"]`)},
			{AttributeID: catalog.AttrSmartphoneDualSIM, Value: json.RawMessage(`true`)},
			{AttributeID: catalog.AttrElectronicsWarrantyMonths, Value: json.RawMessage(`12`)},
		},
	}
	for i, colour := range []string{"Black", "Blue", "Green"} {
		in.Variants = append(in.Variants, catalog.VariantInput{
			SKU:     ptr(fmt.Sprintf("ACME-X-%d", i)),
			Price:   ptr(int64(1_499_900 + i*10_000)),
			Stock:   ptr(int64(10 * i)),
			Options: []catalog.OptionInput{{Name: "Colour", Value: colour}},
		})
	}
	return in
}

// go test ./services/catalog -run '^$' -bench . -benchtime 2s
func BenchmarkCreateProduct(b *testing.B) {
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			svc, _, ctx := benchService(b, be.open(b))
			in := benchInput()
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				// A seller's SKUs are unique across its products.
				n++
				for i := range in.Variants {
					in.Variants[i].SKU = ptr(fmt.Sprintf("ACME-X-%d-%d", n, i))
				}
				if _, err := svc.CreateProduct(ctx, in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkListProducts(b *testing.B) {
	const perSeller = 2000
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			d := be.open(b)
			svc, store, ctx := benchService(b, d)
			statuses := []catalog.ProductStatus{catalog.StatusLive, catalog.StatusProposed, catalog.StatusUnlisted, catalog.StatusDelisted}
			base := time.Now().UTC().Add(-time.Hour).Truncate(time.Millisecond)
			for _, seller := range []string{sellerA, sellerB} {
				for i := 0; i < perSeller; i++ {
					p := storedProduct(seller, statuses[i%len(statuses)], base.Add(time.Duration(i)*time.Millisecond))
					if err := store.CreateProduct(context.Background(), p); err != nil {
						b.Fatal(err)
					}
				}
			}
			// Planner statistics, as autovacuum keeps them in production: a
			// freshly loaded table without them sorts instead of walking the
			// (seller_id, created_at, id) index.
			if _, err := d.SQL.ExecContext(context.Background(), "ANALYZE"); err != nil {
				b.Fatal(err)
			}
			first, err := svc.ListProducts(ctx, catalog.ProductFilter{}, pagination.Request{Limit: 20})
			if err != nil {
				b.Fatal(err)
			}
			deep := pagination.Request{Limit: 20}
			for range 50 { // cursor of page 51
				page, err := svc.ListProducts(ctx, catalog.ProductFilter{}, deep)
				if err != nil {
					b.Fatal(err)
				}
				deep.Cursor = page.NextCursor
			}
			cases := []struct {
				name   string
				filter catalog.ProductFilter
				req    pagination.Request
			}{
				{"first-page-20", catalog.ProductFilter{}, pagination.Request{Limit: 20}},
				{"first-page-100", catalog.ProductFilter{}, pagination.Request{Limit: 100}},
				{"status-live-20", catalog.ProductFilter{Status: catalog.StatusLive}, pagination.Request{Limit: 20}},
				{"cursor-page-2", catalog.ProductFilter{}, pagination.Request{Limit: 20, Cursor: first.NextCursor}},
				{"cursor-page-51", catalog.ProductFilter{}, deep},
				{"offset-page-51", catalog.ProductFilter{}, pagination.Request{Limit: 20, Page: 51}},
			}
			for _, tc := range cases {
				b.Run(tc.name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						page, err := svc.ListProducts(ctx, tc.filter, tc.req)
						if err != nil || len(page.Items) == 0 {
							b.Fatal(len(page.Items), err)
						}
					}
				})
			}
		})
	}
}
