package catalog_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/pagination"
	"github.com/mallplatform/partnerapi/services/catalog"
)

// jsonEqual compares raw JSON by meaning: PostgreSQL's jsonb re-renders it.
func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return string(a) == string(b)
	}
	return cmp.Equal(x, y)
}

var productOpts = cmp.Options{cmp.Comparer(jsonEqual), cmpopts.EquateEmpty()}

func TestStoreTaxonomy(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		st := catalog.NewEntStore(d)
		if err := catalog.SeedCategories(ctx, st); err != nil {
			t.Fatal(err)
		}
		// Seeding again is a no-op, not a conflict.
		cats, attrs, err := catalog.DefaultTaxonomy()
		if err != nil {
			t.Fatal(err)
		}
		inserted, err := st.InsertTaxonomy(ctx, cats, attrs)
		if err != nil || inserted {
			t.Fatalf("second seed: inserted=%v err=%v, want nothing written", inserted, err)
		}

		var listed []catalog.Category
		for _, c := range cats {
			if c.Active {
				listed = append(listed, c)
			}
		}
		total, err := st.CountCategories(ctx)
		if err != nil || total != int64(len(listed)) {
			t.Fatalf("count = %d, %v; want %d", total, err, len(listed))
		}
		// Walk the listing with keyset windows of 7 and compare with the
		// seeded pre-order.
		var got []catalog.Category
		w := pagination.Window[pagination.NumKey]{Page: 1, Limit: 7}
		for {
			page, more, err := st.ListCategories(ctx, w)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, page...)
			if !more {
				break
			}
			last := page[len(page)-1]
			pos := int64(last.Position)
			w = pagination.Window[pagination.NumKey]{Page: w.Page + 1, Limit: 7, After: &pagination.NumKey{N: pos, ID: last.ID}}
		}
		if diff := cmp.Diff(listed, got, cmpopts.EquateApproxTime(time.Millisecond)); diff != "" {
			t.Errorf("listing differs from the seeded pre-order (-want +got):\n%s", diff)
		}
		// An offset window lands on the same rows as the keyset one.
		byOffset, _, err := st.ListCategories(ctx, pagination.Window[pagination.NumKey]{Page: 3, Limit: 7, Offset: 14})
		if err != nil || len(byOffset) != 7 || byOffset[0].ID != listed[14].ID {
			t.Errorf("offset window: %v %v", categoryIDs(byOffset), err)
		}

		c, err := st.GetCategory(ctx, catalog.RetiredCategoryID)
		if err != nil || c.Active || c.ParentID != catalog.MobilePhonesCategoryID {
			t.Errorf("retired category: %+v %v", c, err)
		}
		if _, err := st.GetCategory(ctx, "999999"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("unknown category: %v, want ErrNotFound", err)
		}
		for name, want := range map[string]bool{"smartphones": true, "SMARTPHONES": true, "Smart": false} {
			if ok, err := st.CategoryNameExists(ctx, name); err != nil || ok != want {
				t.Errorf("CategoryNameExists(%q) = %v, %v; want %v", name, ok, err, want)
			}
		}
		for id, want := range map[string]bool{catalog.MobilePhonesCategoryID: true, catalog.SmartphonesCategoryID: false} {
			if ok, err := st.HasActiveChildren(ctx, id); err != nil || ok != want {
				t.Errorf("HasActiveChildren(%s) = %v, %v; want %v", id, ok, err, want)
			}
		}

		// JSON column round trip, and ordering by (category, position).
		gotAttrs, err := st.ListAttributes(ctx, []string{catalog.SmartphonesCategoryID, catalog.ElectronicsCategoryID})
		if err != nil {
			t.Fatal(err)
		}
		var wantAttrs []catalog.Attribute
		for _, a := range attrs {
			if a.CategoryID == catalog.ElectronicsCategoryID || a.CategoryID == catalog.SmartphonesCategoryID {
				wantAttrs = append(wantAttrs, a)
			}
		}
		if diff := cmp.Diff(wantAttrs, gotAttrs, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("attributes (-want +got):\n%s", diff)
		}
	})
}

// A category is listed only when every ancestor is active, and an inactive
// child does not make its parent a parent.
func TestStoreInactiveSubtree(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		st := catalog.NewEntStore(d)
		cats := []catalog.Category{
			{ID: "1", Name: "Gone", Active: false, Position: 10},
			{ID: "2", Name: "Under gone", ParentID: "1", Active: true, Position: 20},
			{ID: "3", Name: "Deep under gone", ParentID: "2", Active: true, Position: 30},
			{ID: "4", Name: "Here", Active: true, Position: 40},
			{ID: "5", Name: "Retired child", ParentID: "4", Active: false, Position: 50},
		}
		if _, err := st.InsertTaxonomy(ctx, cats, nil); err != nil {
			t.Fatal(err)
		}
		got, more, err := st.ListCategories(ctx, pagination.Window[pagination.NumKey]{Page: 1, Limit: 10})
		if err != nil || more {
			t.Fatal(more, err)
		}
		if diff := cmp.Diff([]string{"4"}, categoryIDs(got)); diff != "" {
			t.Errorf("listed (-want +got):\n%s", diff)
		}
		if n, err := st.CountCategories(ctx); err != nil || n != 1 {
			t.Errorf("count = %d, %v; want 1", n, err)
		}
		if ok, err := st.HasActiveChildren(ctx, "4"); err != nil || ok {
			t.Errorf("a category whose only child is retired counts as a parent: %v %v", ok, err)
		}
	})
}

func TestStoreProductRoundTrip(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		st := catalog.NewEntStore(d)
		addSeller(t, d, "slr_a")
		at := time.Date(2026, 5, 4, 3, 2, 1, 789_000_000, time.UTC)
		p := storedProduct("slr_a", catalog.StatusProposed, at)
		p.OptionsOrder = []catalog.OptionGroup{{Title: "Colour", Values: []string{"Red", "Blue"}}, {Title: "Size", Values: []string{"M"}}}
		p.UseVariantDimensions = true
		p.AttributeValues = append(p.AttributeValues,
			catalog.AttributeValue{AttributeID: catalog.AttrSmartphoneNetwork, Value: json.RawMessage(`["4G LTE","5G"]`)},
			catalog.AttributeValue{AttributeID: catalog.AttrSmartphoneDualSIM, Value: json.RawMessage(`true`)},
			catalog.AttributeValue{AttributeID: catalog.AttrElectronicsWarrantyMonths, Value: json.RawMessage(`12.5`)},
		)
		p.Variants[0].Options = []catalog.Option{{Name: ptr("Colour"), Value: ptr("Red")}, {Name: ptr("Size"), Value: ptr("M")}}
		p.Variants = append(p.Variants,
			catalog.Variant{ID: "var_2", Position: 1, Title: "Blue",
				Options: []catalog.Option{{Name: ptr("Colour"), Value: ptr("Blue")}, {Name: nil, Value: ptr("M")}},
				Images:  []string{}},
		)
		if err := st.CreateProduct(ctx, p); err != nil {
			t.Fatal(err)
		}
		got, err := st.GetProduct(ctx, "slr_a", p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(p, got, productOpts); diff != "" {
			t.Errorf("read back differs (-want +got):\n%s", diff)
		}
		if v := got.Variants[1]; v.SKU != nil || v.Price != nil || v.Stock != nil {
			t.Errorf("null variant fields came back set: %+v", v)
		}

		// Without option groups, options_order stays absent (nil), not [].
		bare := storedProduct("slr_a", catalog.StatusLive, at.Add(time.Second))
		if err := st.CreateProduct(ctx, bare); err != nil {
			t.Fatal(err)
		}
		got, err = st.GetProduct(ctx, "slr_a", bare.ID)
		if err != nil || got.OptionsOrder != nil {
			t.Errorf("options_order = %#v, %v; want nil", got.OptionsOrder, err)
		}

		// The short id is unique; a clash is reported for a retry and leaves
		// nothing behind.
		clash := storedProduct("slr_a", catalog.StatusProposed, at)
		clash.ShortID = p.ShortID
		if err := st.CreateProduct(ctx, clash); !errors.Is(err, catalog.ErrShortIDTaken) {
			t.Errorf("short id clash: %v, want ErrShortIDTaken", err)
		}
		if _, err := st.GetProduct(ctx, "slr_a", clash.ID); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("clashing product was stored: %v", err)
		}
		// A failing variant insert rolls the product back too.
		broken := storedProduct("slr_a", catalog.StatusProposed, at)
		broken.Variants = append(broken.Variants, broken.Variants[0]) // same variant id twice
		if err := st.CreateProduct(ctx, broken); err == nil {
			t.Fatal("duplicate variant id was accepted")
		}
		if _, err := st.GetProduct(ctx, "slr_a", broken.ID); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("product without its variants was committed: %v", err)
		}
	})
}

func TestStoreSellerIsolation(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		st := catalog.NewEntStore(d)
		addSeller(t, d, "slr_a")
		addSeller(t, d, "slr_b")
		at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
		a := storedProduct("slr_a", catalog.StatusLive, at)
		b := storedProduct("slr_b", catalog.StatusLive, at)
		for _, p := range []*catalog.Product{a, b} {
			if err := st.CreateProduct(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := st.GetProduct(ctx, "slr_b", a.ID); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("seller b read seller a's product: %v", err)
		}
		called := false
		_, err := st.UpdateProduct(ctx, "slr_b", a.ID, func(p *catalog.Product) (bool, error) {
			called = true
			p.Name = "hijacked"
			return true, nil
		})
		if !errors.Is(err, catalog.ErrNotFound) || called {
			t.Errorf("seller b updated seller a's product: err=%v apply called=%v", err, called)
		}
		got, _ := st.GetProduct(ctx, "slr_a", a.ID)
		if got.Name != a.Name {
			t.Errorf("name = %q after a foreign update", got.Name)
		}
		for seller, want := range map[string]string{"slr_a": a.ID, "slr_b": b.ID} {
			list, more, err := st.ListProducts(ctx, seller, catalog.ProductFilter{}, pagination.Window[pagination.TimeKey]{Page: 1, Limit: 10})
			if err != nil || more || len(list) != 1 || list[0].ID != want {
				t.Errorf("%s lists %v (more=%v, err=%v), want only %s", seller, productIDs(list), more, err, want)
			}
			if n, err := st.CountProducts(ctx, seller, catalog.ProductFilter{}); err != nil || n != 1 {
				t.Errorf("%s count = %d, %v; want 1", seller, n, err)
			}
		}
		if n, err := st.CountProducts(ctx, "slr_nobody", catalog.ProductFilter{}); err != nil || n != 0 {
			t.Errorf("unknown seller count = %d, %v", n, err)
		}
	})
}

func TestStoreKeysetStableUnderInserts(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		st := catalog.NewEntStore(d)
		addSeller(t, d, "slr_a")
		base := time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC)
		// 25 products; each pair shares a created_at so the id
		// tie-break is exercised.
		var want []string
		for i := 0; i < 25; i++ {
			at := base.Add(time.Duration(i/2) * time.Minute)
			p := storedProduct("slr_a", catalog.StatusLive, at)
			p.ID = "prd_" + string(rune('a'+i))
			if err := st.CreateProduct(ctx, p); err != nil {
				t.Fatal(err)
			}
			want = append(want, p.ID)
		}
		// Newest first: created_at desc, id desc.
		slices.Reverse(want)

		w := pagination.Window[pagination.TimeKey]{Page: 1, Limit: 10}
		first, more, err := st.ListProducts(ctx, "slr_a", catalog.ProductFilter{}, w)
		if err != nil || !more {
			t.Fatal(more, err)
		}
		// New products arrive between pages (newer and, through a skewed
		// clock, older ones): the keyset walk neither repeats nor skips.
		for i, at := range []time.Time{base.Add(time.Hour), base.Add(-time.Hour)} {
			p := storedProduct("slr_a", catalog.StatusLive, at)
			p.ID = "prd_new" + string(rune('0'+i))
			if err := st.CreateProduct(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		got := productIDs(first)
		for more {
			last := first[len(first)-1]
			at := last.CreatedAt
			w = pagination.Window[pagination.TimeKey]{Page: w.Page + 1, Limit: 10, After: &pagination.TimeKey{At: at, ID: last.ID}}
			first, more, err = st.ListProducts(ctx, "slr_a", catalog.ProductFilter{}, w)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, productIDs(first)...)
		}
		wantAfter := append(slices.Clone(want), "prd_new1")
		if diff := cmp.Diff(wantAfter, got); diff != "" {
			t.Errorf("keyset walk (-want +got):\n%s", diff)
		}
		if n, err := st.CountProducts(ctx, "slr_a", catalog.ProductFilter{}); err != nil || n != 27 {
			t.Errorf("count = %d, %v; want 27", n, err)
		}
	})
}

func TestStoreStatusFilter(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		st := catalog.NewEntStore(d)
		addSeller(t, d, "slr_a")
		addSeller(t, d, "slr_b")
		base := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
		statuses := []catalog.ProductStatus{
			catalog.StatusLive, catalog.StatusUnlisted, catalog.StatusDelisted,
			catalog.StatusProposed, catalog.StatusUnderReview, catalog.StatusArchived,
		}
		wantByStatus := map[catalog.ProductStatus][]string{}
		for i := 0; i < 18; i++ {
			s := statuses[i%len(statuses)]
			p := storedProduct("slr_a", s, base.Add(time.Duration(i)*time.Second))
			if err := st.CreateProduct(ctx, p); err != nil {
				t.Fatal(err)
			}
			wantByStatus[s] = append([]string{p.ID}, wantByStatus[s]...)
		}
		// Another seller's live product never shows up in seller a's filter.
		if err := st.CreateProduct(ctx, storedProduct("slr_b", catalog.StatusLive, base)); err != nil {
			t.Fatal(err)
		}
		for _, s := range statuses {
			f := catalog.ProductFilter{Status: s}
			list, more, err := st.ListProducts(ctx, "slr_a", f, pagination.Window[pagination.TimeKey]{Page: 1, Limit: 2})
			if err != nil || !more {
				t.Fatalf("%s: more=%v err=%v", s, more, err)
			}
			rest, more, err := st.ListProducts(ctx, "slr_a", f, pagination.Window[pagination.TimeKey]{Page: 2, Limit: 2, Offset: 2})
			if err != nil || more {
				t.Fatalf("%s page 2: more=%v err=%v", s, more, err)
			}
			if diff := cmp.Diff(wantByStatus[s], productIDs(append(list, rest...))); diff != "" {
				t.Errorf("status %s (-want +got):\n%s", s, diff)
			}
			for _, p := range append(list, rest...) {
				if p.Status != s {
					t.Errorf("status %s listed a %s product", s, p.Status)
				}
			}
			if n, err := st.CountProducts(ctx, "slr_a", f); err != nil || n != 3 {
				t.Errorf("count %s = %d, %v; want 3", s, n, err)
			}
		}
	})
}

func TestStoreUpdateProduct(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		st := catalog.NewEntStore(d)
		addSeller(t, d, "slr_a")
		at := time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)
		p := storedProduct("slr_a", catalog.StatusLive, at)
		if err := st.CreateProduct(ctx, p); err != nil {
			t.Fatal(err)
		}

		// An error from apply aborts and comes back unchanged.
		errRule := errors.New("rule says no")
		_, err := st.UpdateProduct(ctx, "slr_a", p.ID, func(q *catalog.Product) (bool, error) {
			q.Name = "should not stick"
			return true, errRule
		})
		if !errors.Is(err, errRule) {
			t.Errorf("apply error = %v, want it returned as is", err)
		}
		// No change reported: nothing is written.
		if _, err := st.UpdateProduct(ctx, "slr_a", p.ID, func(q *catalog.Product) (bool, error) {
			q.Name = "not reported"
			return false, nil
		}); err != nil {
			t.Fatal(err)
		}
		got, _ := st.GetProduct(ctx, "slr_a", p.ID)
		if got.Name != p.Name {
			t.Errorf("name = %q after aborted or unreported changes", got.Name)
		}

		later := at.Add(time.Hour)
		updated, err := st.UpdateProduct(ctx, "slr_a", p.ID, func(q *catalog.Product) (bool, error) {
			q.Name = "Renamed product"
			q.Description = ""
			q.Images = []string{"https://img.example.ph/new.jpg"}
			q.CategoryID, q.CategoryName = catalog.CookwareCategoryID, "Cookware"
			q.AttributeValues = []catalog.AttributeValue{{AttributeID: catalog.AttrCookwareMaterial, Value: json.RawMessage(`"Clay"`)}}
			q.UpdatedAt = later
			return true, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err = st.GetProduct(ctx, "slr_a", p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(updated, got, productOpts); diff != "" {
			t.Errorf("returned and stored product differ (-returned +stored):\n%s", diff)
		}
		if !got.UpdatedAt.Equal(later) || !got.CreatedAt.Equal(at) || got.Images[0] != "https://img.example.ph/new.jpg" {
			t.Errorf("after update: %+v", got)
		}
		if diff := cmp.Diff(p.Variants, got.Variants, productOpts); diff != "" {
			t.Errorf("variants changed by a product update (-before +after):\n%s", diff)
		}
	})
}

func categoryIDs(cs []catalog.Category) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

func productIDs(ps []*catalog.Product) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}
