package catalog_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	commonv1 "github.com/mallplatform/partnerapi/gen/mp/common/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/catalog"
)

func (h *harness) update(ctx context.Context, id string, in *catalogv1.ProductUpdateInput) (*catalogv1.Product, error) {
	resp, err := h.client.UpdateProduct(ctx, &catalogv1.UpdateProductRequest{Id: id, Product: in})
	return resp.GetData(), err
}

func urls(vs ...string) *commonv1.HTTPSURLList { return &commonv1.HTTPSURLList{Values: vs} }

func TestUpdateProduct(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		in := smartphone()
		in.Variants = append(in.Variants, &catalogv1.VariantCreateInput{
			Sku: ptr("ACME-X-256"), Price: ptr(int64(1_699_900)), Stock: ptr(int64(3)),
			Images: []string{"https://img.example.ph/own.jpg"},
		})
		created := h.mustCreate(t, sellerA, in)
		id := created.GetProductId()

		h.clock.Advance(time.Minute)
		got, err := h.update(as(sellerA), id, &catalogv1.ProductUpdateInput{
			Title:       ptr("Acme Phone X (2026 edition)"),
			Description: ptr(""),
			Images:      urls("https://img.example.ph/new1.jpg", "https://img.example.ph/new2.jpg"),
		})
		if err != nil {
			t.Fatal(err)
		}
		want := cloneProduct(created)
		want.Name = "Acme Phone X (2026 edition)"
		want.Description = ""
		want.Images = []string{"https://img.example.ph/new1.jpg", "https://img.example.ph/new2.jpg"}
		want.Thumbnail = "https://img.example.ph/new1.jpg"
		want.UpdatedAt = got.GetUpdatedAt()
		// Variant images, defaulted or not, are left as stored.
		if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
			t.Errorf("updated product (-want +got):\n%s", diff)
		}
		if !got.GetUpdatedAt().AsTime().Equal(h.clock.Now()) || !got.GetCreatedAt().AsTime().Equal(created.GetCreatedAt().AsTime()) {
			t.Errorf("timestamps: created %v updated %v, clock %v", got.GetCreatedAt().AsTime(), got.GetUpdatedAt().AsTime(), h.clock.Now())
		}
		if v := got.GetVariants(); v[0].GetImages()[0] != in.Images[0] || v[1].GetImages()[0] != "https://img.example.ph/own.jpg" {
			t.Errorf("variant images changed: %v / %v", v[0].GetImages(), v[1].GetImages())
		}

		// Nothing sent, or the same values again: no change, updated_at stays.
		h.clock.Advance(time.Minute)
		for _, upd := range []*catalogv1.ProductUpdateInput{
			{},
			{Title: ptr(want.Name), Images: urls(want.Images...), Category: ptr(catalog.SmartphonesCategoryID)},
		} {
			same, err := h.update(as(sellerA), id, upd)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, same, protocmp.Transform()); diff != "" {
				t.Errorf("no-op update changed the product (-before +after):\n%s", diff)
			}
		}

		// The read path agrees with what update returned.
		list, err := h.client.ListProducts(as(sellerA), &catalogv1.ListProductsRequest{})
		if err != nil || len(list.GetData()) != 1 {
			t.Fatal(list, err)
		}
		if diff := cmp.Diff(got, list.GetData()[0], protocmp.Transform()); diff != "" {
			t.Errorf("listed after update (-update +list):\n%s", diff)
		}

		// The update body's limits, through the validator.
		for name, upd := range map[string]*catalogv1.ProductUpdateInput{
			"title 7":            {Title: ptr("1234567")},
			"title 101":          {Title: ptr(strings.Repeat("t", 101))},
			"description 10001":  {Description: ptr(strings.Repeat("d", 10001))},
			"category empty":     {Category: ptr("")},
			"images empty":       {Images: urls()},
			"21 images":          {Images: urls(strings.Split(strings.Repeat("https://img.example.ph/a.jpg ", 21), " ")[:21]...)},
			"http image":         {Images: urls("http://img.example.ph/a.jpg")},
			"image without host": {Images: urls("https://")},
		} {
			t.Run(name, func(t *testing.T) {
				_, err := h.update(as(sellerA), id, upd)
				wantCode(t, err, apierr.ValidationError)
			})
		}
		_, err = h.client.UpdateProduct(as(sellerA), &catalogv1.UpdateProductRequest{Id: id})
		wantCode(t, err, apierr.ValidationError)
		_, err = h.update(as(sellerA), "prd_missing", &catalogv1.ProductUpdateInput{Title: ptr("A valid title")})
		wantCode(t, err, apierr.NotFound)
	})
}

func TestUpdateProductCategory(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		ctx := context.Background()
		in := smartphone()
		in.AttributeValues = append(in.AttributeValues,
			attr(catalog.AttrElectronicsWarrantyMonths, num(24)),
			attr(catalog.AttrSmartphoneDualSIM, boolv(true)),
		)
		id := h.mustCreate(t, sellerA, in).GetProductId()

		// To Tablets: Brand and warranty are inherited from Electronics and
		// kept; Tablets' mandatory storage capacity is a different attribute
		// the product has no value for.
		_, err := h.update(as(sellerA), id, &catalogv1.ProductUpdateInput{Category: ptr("100005")})
		wantCode(t, err, apierr.ValidationError, "category: ", "100005", "Storage capacity (100005-storage-capacity)")

		// To Speakers: no mandatory attribute beyond Brand. Values the new
		// category does not define are dropped.
		h.clock.Advance(time.Second)
		p, err := h.update(as(sellerA), id, &catalogv1.ProductUpdateInput{Category: ptr("100017")})
		if err != nil {
			t.Fatal(err)
		}
		if p.GetCategory() != "Speakers" || !p.GetUpdatedAt().AsTime().Equal(h.clock.Now()) {
			t.Errorf("after move: category %q updated %v", p.GetCategory(), p.GetUpdatedAt().AsTime())
		}
		stored, err := h.store.GetProduct(ctx, sellerA, id)
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		for _, av := range stored.AttributeValues {
			kept = append(kept, av.AttributeID)
		}
		if diff := cmp.Diff([]string{catalog.AttrElectronicsBrand, catalog.AttrElectronicsWarrantyMonths}, kept); diff != "" || stored.CategoryID != "100017" {
			t.Errorf("kept attribute values in %s (-want +got):\n%s", stored.CategoryID, diff)
		}

		// To a category outside Electronics: its mandatory Brand is another
		// attribute.
		_, err = h.update(as(sellerA), id, &catalogv1.ProductUpdateInput{Category: ptr(catalog.CookwareCategoryID)})
		wantCode(t, err, apierr.ValidationError, "Material (100046-material)")
		// Home & Living's Brand is optional: Pillows takes it with nothing.
		if _, err := h.update(as(sellerA), id, &catalogv1.ProductUpdateInput{Category: ptr("100052")}); err != nil {
			t.Fatal(err)
		}
		stored, _ = h.store.GetProduct(ctx, sellerA, id)
		if len(stored.AttributeValues) != 0 {
			t.Errorf("values left after moving to Pillows: %v", stored.AttributeValues)
		}

		// The create rules for the category id apply.
		for _, tc := range []struct {
			category string
			code     apierr.Code
			fragment string
		}{
			{"999999", apierr.CategoryNotFound, "not a known category id"},
			{"Cookware", apierr.CategoryNotFound, "category name"},
			{catalog.RetiredCategoryID, apierr.CategoryNotFound, "retired"},
			{catalog.MobilePhonesCategoryID, apierr.ValidationError, "parent category"},
		} {
			_, err := h.update(as(sellerA), id, &catalogv1.ProductUpdateInput{Category: ptr(tc.category), Title: ptr("Should not stick")})
			wantCode(t, err, tc.code, tc.fragment)
		}
		stored, _ = h.store.GetProduct(ctx, sellerA, id)
		if stored.Name == "Should not stick" || stored.CategoryID != "100052" {
			t.Errorf("a rejected update changed the product: %q in %s", stored.Name, stored.CategoryID)
		}
	})
}

func TestUpdateProductStatusRules(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		ctx := context.Background()
		at := h.clock.Now()
		for _, tc := range []struct {
			status catalog.ProductStatus
			code   apierr.Code // 0: update allowed
		}{
			{catalog.StatusLive, 0},
			{catalog.StatusUnlisted, 0},
			{catalog.StatusDelisted, 0},
			{catalog.StatusProposed, 0},
			{catalog.StatusUnderReview, apierr.ProductUnderReview},
			{catalog.StatusArchived, apierr.NotFound},
		} {
			t.Run(string(tc.status), func(t *testing.T) {
				p := storedProduct(sellerA, tc.status, at)
				if err := h.store.CreateProduct(ctx, p); err != nil {
					t.Fatal(err)
				}
				for _, upd := range []*catalogv1.ProductUpdateInput{
					{Title: ptr("A new valid title")},
					{Category: ptr(catalog.SmartphonesCategoryID + "x")},
				} {
					got, err := h.update(as(sellerA), p.ID, upd)
					if tc.code == 0 {
						if upd.Category != nil {
							wantCode(t, err, apierr.CategoryNotFound)
							continue
						}
						if err != nil || got.GetName() != "A new valid title" || got.GetStatus() != statusProto(tc.status) {
							t.Errorf("update of a %s product: %v %v", tc.status, got, err)
						}
						continue
					}
					wantCode(t, err, tc.code)
				}
				stored, _ := h.store.GetProduct(ctx, sellerA, p.ID)
				if tc.code != 0 && stored.Name != p.Name {
					t.Errorf("a %s product was changed", tc.status)
				}
			})
		}
	})
}

func TestCrossSeller(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		mine := h.mustCreate(t, sellerA, smartphone())
		theirs := h.mustCreate(t, sellerB, smartphone())

		for _, upd := range []*catalogv1.ProductUpdateInput{
			{Title: ptr("Taken over by B")},
			{Category: ptr("100017")},
			{Category: ptr("999999")},
			{Images: urls("https://evil.example/x.jpg")},
		} {
			_, err := h.update(as(sellerB), mine.GetProductId(), upd)
			// Same answer as for an id that does not exist at all.
			wantCode(t, err, apierr.NotFound)
		}
		_, missing := h.update(as(sellerB), "prd_nonexistent", &catalogv1.ProductUpdateInput{Title: ptr("Taken over by B")})
		_, foreign := h.update(as(sellerB), mine.GetProductId(), &catalogv1.ProductUpdateInput{Title: ptr("Taken over by B")})
		wantCode(t, missing, apierr.NotFound)
		wantCode(t, foreign, apierr.NotFound)

		listB, err := h.client.ListProducts(as(sellerB), &catalogv1.ListProductsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if len(listB.GetData()) != 1 || listB.GetData()[0].GetProductId() != theirs.GetProductId() || listB.GetMeta().GetTotal() != 1 {
			t.Errorf("seller B sees %v", listB)
		}
		listA, err := h.client.ListProducts(as(sellerA), &catalogv1.ListProductsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]*catalogv1.Product{mine}, listA.GetData(), protocmp.Transform()); diff != "" {
			t.Errorf("seller A's product after B's attempts (-want +got):\n%s", diff)
		}
	})
}

// Writers in parallel: creates, and updates of one product touching different
// fields. Every call succeeds (no lock errors, no pool starvation on SQLite),
// and each field ends up with a value one of its writers sent.
func TestConcurrentWrites(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		target := h.mustCreate(t, sellerA, smartphone()).GetProductId()
		const workers = 8
		errs := make(chan error, workers*6)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 3 {
					if _, err := h.create(as(sellerA), smartphone()); err != nil {
						errs <- err
					}
					upd := &catalogv1.ProductUpdateInput{Title: ptr(fmt.Sprintf("Title from %d/%d", w, i))}
					if w%2 == 1 {
						upd = &catalogv1.ProductUpdateInput{Description: ptr(fmt.Sprintf("Description from %d/%d", w, i))}
					}
					if _, err := h.update(as(sellerA), target, upd); err != nil {
						errs <- err
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		list, err := h.client.ListProducts(as(sellerA), &catalogv1.ListProductsRequest{})
		if err != nil || list.GetMeta().GetTotal() != 1+workers*3 {
			t.Fatalf("total %d, %v", list.GetMeta().GetTotal(), err)
		}
		p, err := h.store.GetProduct(context.Background(), sellerA, target)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(p.Name, "Title from ") || !strings.HasPrefix(p.Description, "Description from ") {
			t.Errorf("after concurrent updates: %q / %q", p.Name, p.Description)
		}
	})
}
