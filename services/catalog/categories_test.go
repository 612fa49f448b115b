package catalog_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/catalog"
)

func TestListCategories(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		// Categories need no seller headers.
		ctx := as("", "catalog:read")

		first, err := h.client.ListCategories(ctx, &catalogv1.ListCategoriesRequest{})
		if err != nil {
			t.Fatal(err)
		}
		m := first.GetMeta()
		if m.GetPage() != 1 || m.GetLimit() != 20 || len(first.GetData()) != 20 || m.NextCursor == nil {
			t.Fatalf("default page: meta %v with %d items", m, len(first.GetData()))
		}
		total := m.GetTotal()

		// Walk every page with the cursor.
		var all []*catalogv1.Category
		req := &catalogv1.ListCategoriesRequest{Limit: ptr(int32(7))}
		for page := int32(1); ; page++ {
			resp, err := h.client.ListCategories(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if resp.GetMeta().GetPage() != page || resp.GetMeta().GetTotal() != total || resp.GetMeta().GetLimit() != 7 {
				t.Fatalf("page %d: meta %v", page, resp.GetMeta())
			}
			all = append(all, resp.GetData()...)
			if resp.GetMeta().NextCursor == nil {
				if len(resp.GetData()) == 0 || len(resp.GetData()) > 7 {
					t.Errorf("last page holds %d items", len(resp.GetData()))
				}
				break
			}
			req.Cursor = resp.GetMeta().NextCursor
		}
		if int64(len(all)) != total {
			t.Fatalf("walked %d categories, meta.total says %d", len(all), total)
		}

		// Parents precede their children; roots have no parent.
		index := map[string]int{}
		roots, parents := 0, map[string]bool{}
		for i, c := range all {
			if _, dup := index[c.GetCategoryId()]; dup {
				t.Errorf("category %s listed twice", c.GetCategoryId())
			}
			index[c.GetCategoryId()] = i
			if c.ParentCategoryId == nil {
				roots++
				continue
			}
			parents[c.GetParentCategoryId()] = true
			pi, ok := index[c.GetParentCategoryId()]
			if !ok || pi >= i {
				t.Errorf("category %s comes before (or without) its parent %s", c.GetCategoryId(), c.GetParentCategoryId())
			}
		}
		leaves := 0
		for _, c := range all {
			if !parents[c.GetCategoryId()] {
				leaves++
			}
		}
		if roots < 8 || leaves < 60 {
			t.Errorf("taxonomy has %d roots and %d leaves; want at least 8 and 60", roots, leaves)
		}
		if _, listed := index[catalog.RetiredCategoryID]; listed {
			t.Error("the retired category is listed")
		}
		phones := all[index[catalog.SmartphonesCategoryID]]
		if phones.GetName() != "Smartphones" || phones.GetHandle() != "smartphones" || phones.Description == nil ||
			phones.GetParentCategoryId() != catalog.MobilePhonesCategoryID {
			t.Errorf("smartphones: %v", phones)
		}

		// page=N is the same window as the N-th cursor page.
		byPage, err := h.client.ListCategories(ctx, &catalogv1.ListCategoriesRequest{Page: ptr(int32(3)), Limit: ptr(int32(7))})
		if err != nil {
			t.Fatal(err)
		}
		var gotIDs []string
		for _, c := range byPage.GetData() {
			gotIDs = append(gotIDs, c.GetCategoryId())
		}
		var wantIDs []string
		for _, c := range all[14:21] {
			wantIDs = append(wantIDs, c.GetCategoryId())
		}
		if diff := cmp.Diff(wantIDs, gotIDs); diff != "" || byPage.GetMeta().GetPage() != 3 {
			t.Errorf("page 3 (-want +got):\n%s", diff)
		}
		past, err := h.client.ListCategories(ctx, &catalogv1.ListCategoriesRequest{Page: ptr(int32(1000))})
		if err != nil || len(past.GetData()) != 0 || past.GetMeta().NextCursor != nil || past.GetMeta().GetTotal() != total {
			t.Errorf("page past the end: %v %v", past, err)
		}

		// Paging rules come from the validator and the cursor codec.
		for name, r := range map[string]*catalogv1.ListCategoriesRequest{
			"limit 0":   {Limit: ptr(int32(0))},
			"limit 101": {Limit: ptr(int32(101))},
			"page 0":    {Page: ptr(int32(0))},
		} {
			_, err := h.client.ListCategories(ctx, r)
			t.Run(name, func(t *testing.T) { wantCode(t, err, apierr.ValidationError) })
		}
		_, err = h.client.ListCategories(ctx, &catalogv1.ListCategoriesRequest{Cursor: ptr("not-a-cursor")})
		wantCode(t, err, apierr.BadRequest, "cursor")

		// A product listing cursor is not a category cursor.
		h.createN(t, sellerA, 3)
		products, err := h.client.ListProducts(as(sellerA), &catalogv1.ListProductsRequest{Limit: ptr(int32(1))})
		if err != nil {
			t.Fatal(err)
		}
		_, err = h.client.ListCategories(ctx, &catalogv1.ListCategoriesRequest{Cursor: products.GetMeta().NextCursor})
		wantCode(t, err, apierr.BadRequest, "cursor")
	})
}

func TestListCategoryAttributes(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		ctx := as("", "catalog:read")

		resp, err := h.client.ListCategoryAttributes(ctx, &catalogv1.ListCategoryAttributesRequest{Id: catalog.SmartphonesCategoryID})
		if err != nil {
			t.Fatal(err)
		}
		var order []string
		byID := map[string]*catalogv1.CategoryAttribute{}
		for _, a := range resp.GetData() {
			order = append(order, a.GetAttributeId())
			byID[a.GetAttributeId()] = a
		}
		// Inherited attributes first (root downwards), then the leaf's own.
		want := []string{
			catalog.AttrElectronicsBrand, catalog.AttrElectronicsWarrantyMonths, catalog.AttrElectronicsWarrantyType,
			catalog.AttrSmartphoneStorage, "100003-ram", catalog.AttrSmartphoneColour, catalog.AttrSmartphoneNetwork, catalog.AttrSmartphoneDualSIM,
		}
		if diff := cmp.Diff(want, order); diff != "" {
			t.Errorf("attribute order (-want +got):\n%s", diff)
		}
		brand := byID[catalog.AttrElectronicsBrand]
		if brand.GetName() != "Brand" || !brand.GetMandatory() || brand.GetInputType() != catalogv1.AttributeInputType_ATTRIBUTE_INPUT_TYPE_TEXT || len(brand.GetAllowedValues()) != 0 {
			t.Errorf("brand: %v", brand)
		}
		storage := byID[catalog.AttrSmartphoneStorage]
		if !storage.GetMandatory() || storage.GetInputType() != catalogv1.AttributeInputType_ATTRIBUTE_INPUT_TYPE_SELECT || !cmp.Equal(storage.GetAllowedValues(), []string{"32GB", "64GB", "128GB", "256GB", "512GB", "1TB"}) {
			t.Errorf("storage: %v", storage)
		}
		warranty := byID[catalog.AttrElectronicsWarrantyMonths]
		if warranty.GetMandatory() || warranty.GetUnit() != "months" || warranty.GetInputType() != catalogv1.AttributeInputType_ATTRIBUTE_INPUT_TYPE_NUMBER {
			t.Errorf("warranty: %v", warranty)
		}
		if byID[catalog.AttrSmartphoneNetwork].GetInputType() != catalogv1.AttributeInputType_ATTRIBUTE_INPUT_TYPE_MULTIVALUE ||
			byID[catalog.AttrSmartphoneDualSIM].GetInputType() != catalogv1.AttributeInputType_ATTRIBUTE_INPUT_TYPE_BOOLEAN {
			t.Errorf("input types: %v", resp.GetData())
		}

		// A parent lists what it has (its own and inherited).
		parent, err := h.client.ListCategoryAttributes(ctx, &catalogv1.ListCategoryAttributesRequest{Id: catalog.MobilePhonesCategoryID})
		if err != nil || len(parent.GetData()) != 3 {
			t.Errorf("parent attributes: %v %v", parent, err)
		}
		coffee, err := h.client.ListCategoryAttributes(ctx, &catalogv1.ListCategoryAttributesRequest{Id: catalog.CoffeeCategoryID})
		if err != nil {
			t.Fatal(err)
		}
		var date *catalogv1.CategoryAttribute
		for _, a := range coffee.GetData() {
			if a.GetAttributeId() == catalog.AttrGroceriesExpiry {
				date = a
			}
		}
		if date == nil || !date.GetMandatory() || date.GetInputType() != catalogv1.AttributeInputType_ATTRIBUTE_INPUT_TYPE_DATE {
			t.Errorf("coffee expiry date: %v", date)
		}

		for _, id := range []string{"999999", catalog.RetiredCategoryID, "Smartphones"} {
			_, err := h.client.ListCategoryAttributes(ctx, &catalogv1.ListCategoryAttributesRequest{Id: id})
			wantCode(t, err, apierr.NotFound, id)
		}
		_, err = h.client.ListCategoryAttributes(ctx, &catalogv1.ListCategoryAttributesRequest{Id: ""})
		wantCode(t, err, apierr.ValidationError, "id")
	})
}
