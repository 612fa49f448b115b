package catalog

import (
	"bytes"
	"context"
	"testing"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/wirejson"
	"github.com/mallplatform/partnerapi/services/events"
)

// The answer's created products are their product.created events' data,
// byte for byte what rendering each created product's message writes (what
// the gateway wrote when the products crossed as messages), in submission
// order; a refused item has neither a view nor an event.
func TestBulkViewsAreTheCreatedProductsRendered(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		store := NewEntStore(d)
		ctx := context.Background()
		if err := SeedCategories(ctx, store); err != nil {
			t.Fatal(err)
		}
		if err := d.Ent.Seller.Create().SetID("slr_views").SetName("views").SetShopName("views shop").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		svc := NewService(Config{Store: store, Events: events.NewRecorder(events.NewEntStore(d), nil)})
		ctx = principal.WithSeller(ctx, "slr_views")
		in := []*catalogv1.ProductCreateInput{phaseItem(1), phaseItem(2), phaseItem(3)}
		in[1].Title = "x" // refused: too short
		items, err := bulkItems(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		res, err := svc.BulkCreateProducts(ctx, items)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Created) != 2 || len(res.Views) != 2 || len(res.Errors) != 1 {
			t.Fatalf("%d created, %d views, errors %v", len(res.Created), len(res.Views), res.Errors)
		}
		for i, p := range res.Created {
			want, err := wirejson.Marshal(productToProto(p))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(res.Views[i], want) {
				t.Errorf("view %d\n got %s\nwant %s", i, res.Views[i], want)
			}
			evs, err := d.Ent.Event.Query().All(ctx)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, e := range evs {
				if e.ResourceID == p.ID {
					found = bytes.Equal(e.Data, want)
				}
			}
			if !found {
				t.Errorf("product %s: no product.created event with the answer's view", p.ID)
			}
		}
		if got := bulkResultToProto(len(in), res).GetCreated(); len(got) != 2 || !bytes.Equal(got[1], res.Views[1]) {
			t.Errorf("the answer does not carry the views: %d items", len(got))
		}
	})
}
