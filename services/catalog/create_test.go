package catalog_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/catalog"
)

func str(s string) *structpb.Value  { return structpb.NewStringValue(s) }
func num(f float64) *structpb.Value { return structpb.NewNumberValue(f) }
func boolv(b bool) *structpb.Value  { return structpb.NewBoolValue(b) }
func list(vs ...any) *structpb.Value {
	l, err := structpb.NewList(vs)
	if err != nil {
		panic(err)
	}
	return structpb.NewListValue(l)
}

func attr(id string, v *structpb.Value) *catalogv1.AttributeValueInput {
	return &catalogv1.AttributeValueInput{AttributeId: id, Value: v}
}

// skuSeq numbers fixture SKUs: a seller's SKUs are unique across its
// products, so each fixture draws its own.
var skuSeq atomic.Int64

// uniqueSKU is prefix with a number no other fixture of the run has.
func uniqueSKU(prefix string) string { return fmt.Sprintf("%s-%05d", prefix, skuSeq.Add(1)) }

// smartphone is a valid create body: one variant, product dimensions, the
// category's mandatory attributes, a SKU of its own.
func smartphone() *catalogv1.ProductCreateInput {
	return &catalogv1.ProductCreateInput{
		Title:       "Acme Phone X 128GB",
		Description: ptr("Dual SIM, 5G."),
		Category:    catalog.SmartphonesCategoryID,
		Images:      []string{"https://img.example.ph/x1.jpg", "https://img.example.ph/x2.jpg"},
		Weight:      ptr(190.0),
		Length:      ptr(16.0),
		Width:       ptr(7.5),
		Height:      ptr(0.9),
		AttributeValues: []*catalogv1.AttributeValueInput{
			attr(catalog.AttrElectronicsBrand, str("Acme")),
			attr(catalog.AttrSmartphoneStorage, str("128GB")),
		},
		Variants: []*catalogv1.VariantCreateInput{
			{Sku: ptr(uniqueSKU("ACME-X-128")), Price: ptr(int64(1_499_900)), Stock: ptr(int64(25))},
		},
	}
}

func (h *harness) create(ctx context.Context, in *catalogv1.ProductCreateInput) (*catalogv1.Product, error) {
	resp, err := h.client.CreateProduct(ctx, &catalogv1.CreateProductRequest{Product: in})
	return resp.GetData(), err
}

func (h *harness) mustCreate(t testing.TB, seller string, in *catalogv1.ProductCreateInput) *catalogv1.Product {
	t.Helper()
	p, err := h.create(as(seller), in)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	return p
}

// createN creates n products for seller, one clock millisecond apart.
func (h *harness) createN(t testing.TB, seller string, n int) []*catalogv1.Product {
	t.Helper()
	out := make([]*catalogv1.Product, n)
	for i := range out {
		in := smartphone()
		in.Title = fmt.Sprintf("Acme Phone number %03d", i)
		out[i] = h.mustCreate(t, seller, in)
		h.clock.Advance(time.Millisecond)
	}
	return out
}

var shortIDPattern = regexp.MustCompile(`^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{10}$`)

func TestCreateProduct(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		in := smartphone()
		in.AttributeValues = append(in.AttributeValues,
			attr(catalog.AttrSmartphoneColour, str("Blue")),
			attr(catalog.AttrSmartphoneNetwork, list("4G LTE", "5G")),
			attr(catalog.AttrSmartphoneDualSIM, boolv(true)),
			attr(catalog.AttrElectronicsWarrantyMonths, num(12)),
		)
		in.Variants = []*catalogv1.VariantCreateInput{
			{Title: ptr("Black"), Sku: ptr("ACME-X-BLK"), Price: ptr(int64(1_499_900)), Stock: ptr(int64(25)),
				Options: []*catalogv1.OptionInput{{Name: "Colour", Value: "Black"}}},
			{Title: ptr("Blue"), Sku: ptr("ACME-X-BLU"), Price: ptr(int64(1_549_900)), Stock: ptr(int64(0)),
				Options: []*catalogv1.OptionInput{{Name: "Colour", Value: "Blue"}},
				Images:  []string{"https://img.example.ph/x-blue.jpg"}, Weight: ptr(195.0)},
		}
		p := h.mustCreate(t, sellerA, in)

		now := h.clock.Now()
		want := &catalogv1.Product{
			ProductId:   p.GetProductId(),
			ShortId:     p.GetShortId(),
			Name:        "Acme Phone X 128GB",
			Description: "Dual SIM, 5G.",
			Status:      catalogv1.ProductStatus_PRODUCT_STATUS_PROPOSED,
			Sku:         "ACME-X-BLK",
			Price:       1_499_900,
			Stock:       25,
			Category:    "Smartphones",
			Thumbnail:   "https://img.example.ph/x1.jpg",
			Images:      in.Images,
			Weight:      190,
			Dimensions:  &catalogv1.Dimensions{Length: 16, Width: 7.5, Height: 0.9},
			Variants: []*catalogv1.ProductVariant{
				{VariantId: p.GetVariants()[0].GetVariantId(), Sku: ptr("ACME-X-BLK"), Price: ptr(int64(1_499_900)), StockQuantity: ptr(int64(25)),
					Options:    []*catalogv1.VariantOption{{Name: ptr("Colour"), Value: ptr("Black")}},
					Dimensions: &catalogv1.Dimensions{Length: 16, Width: 7.5, Height: 0.9}, Weight: 190,
					Images: in.Images},
				{VariantId: p.GetVariants()[1].GetVariantId(), Sku: ptr("ACME-X-BLU"), Price: ptr(int64(1_549_900)), StockQuantity: ptr(int64(0)),
					Options:    []*catalogv1.VariantOption{{Name: ptr("Colour"), Value: ptr("Blue")}},
					Dimensions: &catalogv1.Dimensions{Length: 16, Width: 7.5, Height: 0.9}, Weight: 195,
					Images: []string{"https://img.example.ph/x-blue.jpg"}},
			},
			OptionsOrder: []*catalogv1.OptionGroup{{Title: "Colour", Values: []string{"Black", "Blue"}}},
		}
		if diff := cmp.Diff(want, p, protocmp.Transform(), protocmp.IgnoreFields(&catalogv1.Product{}, "created_at", "updated_at")); diff != "" {
			t.Errorf("created product (-want +got):\n%s", diff)
		}
		if !p.GetCreatedAt().AsTime().Equal(now) || !p.GetUpdatedAt().AsTime().Equal(now) {
			t.Errorf("timestamps %v %v, want the clock's %v", p.GetCreatedAt().AsTime(), p.GetUpdatedAt().AsTime(), now)
		}
		if !shortIDPattern.MatchString(p.GetShortId()) || !strings.HasPrefix(p.GetProductId(), "prd_") {
			t.Errorf("ids: product %q short %q", p.GetProductId(), p.GetShortId())
		}
		if p.GetVariants()[0].GetVariantId() == p.GetVariants()[1].GetVariantId() {
			t.Error("variants share an id")
		}

		// What was stored reads back the same through the listing, and the
		// attribute values are stored as compact JSON of the right types.
		listed, err := h.client.ListProducts(as(sellerA), &catalogv1.ListProductsRequest{})
		if err != nil || len(listed.GetData()) != 1 {
			t.Fatalf("list: %v %v", listed, err)
		}
		if diff := cmp.Diff(p, listed.GetData()[0], protocmp.Transform()); diff != "" {
			t.Errorf("listed product differs from the created one (-created +listed):\n%s", diff)
		}
		stored, err := h.store.GetProduct(context.Background(), sellerA, p.GetProductId())
		if err != nil {
			t.Fatal(err)
		}
		gotValues := map[string]string{}
		for _, av := range stored.AttributeValues {
			var v any
			if err := json.Unmarshal(av.Value, &v); err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(v)
			gotValues[av.AttributeID] = string(b)
		}
		wantValues := map[string]string{
			catalog.AttrElectronicsBrand:          `"Acme"`,
			catalog.AttrSmartphoneStorage:         `"128GB"`,
			catalog.AttrSmartphoneColour:          `"Blue"`,
			catalog.AttrSmartphoneNetwork:         `["4G LTE","5G"]`,
			catalog.AttrSmartphoneDualSIM:         `true`,
			catalog.AttrElectronicsWarrantyMonths: `12`,
		}
		if diff := cmp.Diff(wantValues, gotValues); diff != "" {
			t.Errorf("stored attribute values (-want +got):\n%s", diff)
		}
		if stored.CategoryID != catalog.SmartphonesCategoryID || stored.SellerID != sellerA {
			t.Errorf("stored category %q seller %q", stored.CategoryID, stored.SellerID)
		}

		// A variant without SKU: the product's sku is empty, the variant's null.
		bare := smartphone()
		bare.Variants[0].Sku = nil
		p = h.mustCreate(t, sellerA, bare)
		if p.GetSku() != "" || p.GetVariants()[0].Sku != nil || len(p.GetOptionsOrder()) != 0 || len(p.GetVariants()[0].GetOptions()) != 0 {
			t.Errorf("product without sku or options: %v", p)
		}
		if p.GetShortId() == want.ShortId {
			t.Error("two products share a short id")
		}
	})
}

func TestCreateProductOptionsOrder(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		opts := func(kv ...string) []*catalogv1.OptionInput {
			var out []*catalogv1.OptionInput
			for i := 0; i < len(kv); i += 2 {
				out = append(out, &catalogv1.OptionInput{Name: kv[i], Value: kv[i+1]})
			}
			return out
		}
		in := smartphone()
		in.Variants = nil
		for i, o := range [][]*catalogv1.OptionInput{
			opts("Colour", "Red", "Size", "M"),
			opts("Size", "S", "Colour", "Red"), // keys in another order
			opts("Colour", "Blue", "Size", "M"),
			opts("Size", "L", "Colour", "Green"),
		} {
			in.Variants = append(in.Variants, &catalogv1.VariantCreateInput{
				Sku: ptr(fmt.Sprintf("SKU-%d", i)), Price: ptr(int64(100)), Stock: ptr(int64(1)), Options: o,
			})
		}
		p := h.mustCreate(t, sellerA, in)
		want := []*catalogv1.OptionGroup{
			{Title: "Colour", Values: []string{"Red", "Blue", "Green"}},
			{Title: "Size", Values: []string{"M", "S", "L"}},
		}
		if diff := cmp.Diff(want, p.GetOptionsOrder(), protocmp.Transform()); diff != "" {
			t.Errorf("options_order (-want +got):\n%s", diff)
		}
		// Each variant's options follow the group order, whatever order they
		// were sent in.
		second := p.GetVariants()[1].GetOptions()
		if len(second) != 2 || second[0].GetName() != "Colour" || second[0].GetValue() != "Red" || second[1].GetName() != "Size" || second[1].GetValue() != "S" {
			t.Errorf("variant 1 options: %v", second)
		}
	})
}

func TestCreateProductDimensions(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)

		// use_variant_dimensions: product figures are the largest of the
		// variants', whatever was sent at product level.
		in := smartphone()
		in.UseVariantDimensions = true
		in.Weight, in.Length, in.Width, in.Height = nil, nil, nil, nil
		in.Variants = []*catalogv1.VariantCreateInput{
			{Sku: ptr("S"), Price: ptr(int64(1)), Stock: ptr(int64(1)), Weight: ptr(500.0), Length: ptr(30.0), Width: ptr(5.0), Height: ptr(2.0),
				Options: []*catalogv1.OptionInput{{Name: "Size", Value: "S"}}},
			{Sku: ptr("L"), Price: ptr(int64(1)), Stock: ptr(int64(1)), Weight: ptr(750.5), Length: ptr(25.0), Width: ptr(9.0), Height: ptr(1.5),
				Options: []*catalogv1.OptionInput{{Name: "Size", Value: "L"}}},
		}
		p := h.mustCreate(t, sellerA, in)
		if p.GetWeight() != 750.5 || !cmp.Equal(p.GetDimensions(), &catalogv1.Dimensions{Length: 30, Width: 9, Height: 2}, protocmp.Transform()) {
			t.Errorf("derived figures: weight %v dimensions %v", p.GetWeight(), p.GetDimensions())
		}
		if v := p.GetVariants()[1]; v.GetWeight() != 750.5 || v.GetDimensions().GetWidth() != 9 {
			t.Errorf("variant figures: %v", v)
		}

		// Without it, a variant's figures default one by one to the product's.
		in = smartphone()
		in.Variants[0].Height = ptr(3.0)
		p = h.mustCreate(t, sellerA, in)
		if v := p.GetVariants()[0]; v.GetWeight() != 190 || !cmp.Equal(v.GetDimensions(), &catalogv1.Dimensions{Length: 16, Width: 7.5, Height: 3}, protocmp.Transform()) {
			t.Errorf("defaulted variant figures: %v", v)
		}

		// The cross-field rules run in the validator.
		in = smartphone()
		in.Height = nil
		_, err := h.create(as(sellerA), in)
		wantCode(t, err, apierr.ValidationError, "required unless use_variant_dimensions is true")

		in = smartphone()
		in.UseVariantDimensions = true
		in.Variants[0].Weight, in.Variants[0].Length, in.Variants[0].Width = ptr(1.0), ptr(1.0), ptr(1.0)
		_, err = h.create(as(sellerA), in)
		wantCode(t, err, apierr.ValidationError, "every variant needs weight, length, width and height")
	})
}

func TestCreateProductCategoryRules(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		cases := []struct {
			category  string
			code      apierr.Code
			fragments []string
		}{
			{"999999", apierr.CategoryNotFound, []string{`"999999" is not a known category id`, "GET /open/v1/categories"}},
			{"Smartphones", apierr.CategoryNotFound, []string{"category name", "category_id", "GET /open/v1/categories"}},
			{"smartphones", apierr.CategoryNotFound, []string{"category name"}},
			{catalog.RetiredCategoryID, apierr.CategoryNotFound, []string{"retired"}},
			{catalog.MobilePhonesCategoryID, apierr.ValidationError, []string{"category: ", "parent category", "leaf"}},
			{catalog.ElectronicsCategoryID, apierr.ValidationError, []string{"parent category"}},
		}
		for _, tc := range cases {
			t.Run(tc.category, func(t *testing.T) {
				in := smartphone()
				in.Category = tc.category
				_, err := h.create(as(sellerA), in)
				wantCode(t, err, tc.code, tc.fragments...)
			})
		}
		// A parent category is reported together with the body's other
		// mistakes.
		in := smartphone()
		in.Category = catalog.MobilePhonesCategoryID
		in.Variants = append(in.Variants, in.Variants[0])
		_, err := h.create(as(sellerA), in)
		wantCode(t, err, apierr.ValidationError, "parent category", "variants[1].sku")
	})
}

func TestCreateProductAttributeValues(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		base := func(extra ...*catalogv1.AttributeValueInput) []*catalogv1.AttributeValueInput {
			return append([]*catalogv1.AttributeValueInput{
				attr(catalog.AttrElectronicsBrand, str("Acme")),
				attr(catalog.AttrSmartphoneStorage, str("128GB")),
			}, extra...)
		}
		groceries := func(expiry *structpb.Value) []*catalogv1.AttributeValueInput {
			return []*catalogv1.AttributeValueInput{attr(catalog.AttrGroceriesBrand, str("Kape Tayo")), attr(catalog.AttrGroceriesExpiry, expiry)}
		}
		cases := []struct {
			name     string
			category string
			values   []*catalogv1.AttributeValueInput
			// ok, or the fragments a VALIDATION_ERROR message must hold.
			fragments []string
		}{
			{"every type valid", "", base(
				attr(catalog.AttrSmartphoneColour, str("Red")),
				attr(catalog.AttrSmartphoneNetwork, list("5G")),
				attr(catalog.AttrSmartphoneDualSIM, boolv(false)),
				attr(catalog.AttrElectronicsWarrantyMonths, num(0)),
				attr(catalog.AttrElectronicsWarrantyType, str("No warranty")),
			), nil},
			{"text 1000 chars", "", []*catalogv1.AttributeValueInput{
				attr(catalog.AttrElectronicsBrand, str(strings.Repeat("é", 1000))), attr(catalog.AttrSmartphoneStorage, str("1TB")),
			}, nil},
			{"text as number", "", []*catalogv1.AttributeValueInput{
				attr(catalog.AttrElectronicsBrand, num(7)), attr(catalog.AttrSmartphoneStorage, str("1TB")),
			}, []string{"attribute_values[0].value: must be a string of 1 to 1000 characters"}},
			{"text blank", "", []*catalogv1.AttributeValueInput{
				attr(catalog.AttrElectronicsBrand, str("   ")), attr(catalog.AttrSmartphoneStorage, str("1TB")),
			}, []string{"attribute_values[0].value: must be a string"}},
			{"text 1001 chars", "", []*catalogv1.AttributeValueInput{
				attr(catalog.AttrElectronicsBrand, str(strings.Repeat("a", 1001))), attr(catalog.AttrSmartphoneStorage, str("1TB")),
			}, []string{"attribute_values[0].value: must be a string of 1 to 1000 characters"}},
			{"text null", "", []*catalogv1.AttributeValueInput{
				attr(catalog.AttrElectronicsBrand, structpb.NewNullValue()), attr(catalog.AttrSmartphoneStorage, str("1TB")),
			}, []string{"attribute_values[0].value: is required"}},
			{"select not allowed", "", base(attr(catalog.AttrSmartphoneColour, str("Teal"))),
				[]string{"attribute_values[2].value: must be one of: Black, White, Silver, Gold, Blue, Green, Purple, Red"}},
			{"select wrong case", "", base(attr(catalog.AttrSmartphoneColour, str("red"))), []string{"attribute_values[2].value: must be one of"}},
			{"select as list", "", base(attr(catalog.AttrSmartphoneColour, list("Red"))), []string{"attribute_values[2].value: must be one of"}},
			{"number as string", "", base(attr(catalog.AttrElectronicsWarrantyMonths, str("12"))), []string{"attribute_values[2].value: must be a number"}},
			{"boolean as string", "", base(attr(catalog.AttrSmartphoneDualSIM, str("yes"))), []string{"attribute_values[2].value: must be true or false"}},
			{"multivalue empty", "", base(attr(catalog.AttrSmartphoneNetwork, list())), []string{"attribute_values[2].value: must be a non-empty array of values from: 2G, 3G, 4G LTE, 5G"}},
			{"multivalue scalar", "", base(attr(catalog.AttrSmartphoneNetwork, str("5G"))), []string{"attribute_values[2].value: must be a non-empty array"}},
			{"multivalue unknown", "", base(attr(catalog.AttrSmartphoneNetwork, list("5G", "6G"))), []string{"attribute_values[2].value[1]: must be one of: 2G, 3G, 4G LTE, 5G"}},
			{"multivalue duplicate", "", base(attr(catalog.AttrSmartphoneNetwork, list("5G", "4G LTE", "5G"))), []string{"attribute_values[2].value[2]: duplicates attribute_values[2].value[0]"}},
			{"multivalue non-string", "", base(attr(catalog.AttrSmartphoneNetwork, list(5.0))), []string{"attribute_values[2].value[0]: must be one of"}},
			{"date valid", catalog.CoffeeCategoryID, groceries(str("2027-02-28")), nil},
			{"date impossible", catalog.CoffeeCategoryID, groceries(str("2027-02-30")), []string{"attribute_values[1].value: must be a date as YYYY-MM-DD"}},
			{"date short", catalog.CoffeeCategoryID, groceries(str("2027-2-3")), []string{"attribute_values[1].value: must be a date as YYYY-MM-DD"}},
			{"date with time", catalog.CoffeeCategoryID, groceries(str("2027-02-03T00:00:00Z")), []string{"must be a date as YYYY-MM-DD"}},
			{"date as number", catalog.CoffeeCategoryID, groceries(num(20270203)), []string{"must be a date as YYYY-MM-DD"}},
			{"attribute of another category", "", base(attr("100025-dress-length", str("Mini"))),
				[]string{`attribute_values[2].attribute_id: "100025-dress-length" is not an attribute of category 100003`, "/open/v1/categories/100003/attributes"}},
			{"unknown attribute", "", base(attr("nope", str("x"))), []string{`attribute_values[2].attribute_id: "nope" is not an attribute`}},
			{"duplicate attribute", "", base(attr(catalog.AttrElectronicsBrand, str("Other"))),
				[]string{`attribute_values[2].attribute_id: "100001-brand" is already set by attribute_values[0]`}},
			{"mandatory missing", "", nil,
				[]string{"attribute_values: missing mandatory attributes of category 100003: Brand (100001-brand), Storage capacity (100003-storage-capacity)"}},
			{"inherited mandatory missing", catalog.DressesCategoryID, []*catalogv1.AttributeValueInput{attr("100025-dress-length", str("Midi"))},
				[]string{"missing mandatory attributes of category 100025: Size (100024-size)"}},
			{"several mistakes at once", "", []*catalogv1.AttributeValueInput{
				attr(catalog.AttrElectronicsBrand, boolv(true)), attr(catalog.AttrSmartphoneColour, str("Teal")),
			}, []string{"attribute_values[0].value", "attribute_values[1].value", "Storage capacity"}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				in := smartphone()
				if tc.category != "" {
					in.Category = tc.category
				}
				in.AttributeValues = tc.values
				_, err := h.create(as(sellerA), in)
				if tc.fragments == nil {
					if err != nil {
						t.Fatalf("want success, got %v", err)
					}
					return
				}
				wantCode(t, err, apierr.ValidationError, tc.fragments...)
			})
		}
	})
}

func TestCreateProductVariantRules(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		variant := func(sku string, kv ...string) *catalogv1.VariantCreateInput {
			v := &catalogv1.VariantCreateInput{Price: ptr(int64(100)), Stock: ptr(int64(1))}
			if sku != "" {
				v.Sku = ptr(sku)
			}
			for i := 0; i < len(kv); i += 2 {
				v.Options = append(v.Options, &catalogv1.OptionInput{Name: kv[i], Value: kv[i+1]})
			}
			return v
		}
		cases := []struct {
			name      string
			variants  []*catalogv1.VariantCreateInput
			fragments []string
		}{
			{"several without options or sku", []*catalogv1.VariantCreateInput{variant(""), variant("")}, nil},
			{"duplicate sku", []*catalogv1.VariantCreateInput{variant("A", "Colour", "Red"), variant("B", "Colour", "Blue"), variant("A", "Colour", "Green")},
				[]string{`variants[2].sku: "A" is already used by variants[0]`}},
			{"sku case differs", []*catalogv1.VariantCreateInput{variant("a", "Colour", "Red"), variant("A", "Colour", "Blue")}, nil},
			{"options on some variants only", []*catalogv1.VariantCreateInput{variant("A", "Colour", "Red"), variant("B")},
				[]string{"variants[1].options: missing Colour", "same option names (Colour)"}},
			{"first variant without options", []*catalogv1.VariantCreateInput{variant("A"), variant("B", "Colour", "Red")},
				[]string{"variants[0].options: missing Colour"}},
			{"different option names", []*catalogv1.VariantCreateInput{variant("A", "Colour", "Red", "Size", "M"), variant("B", "Colour", "Red", "Length", "M")},
				[]string{"variants[0].options: missing Length", "variants[1].options: missing Size", "(Colour, Size, Length)"}},
			{"same combination", []*catalogv1.VariantCreateInput{variant("A", "Colour", "Red", "Size", "M"), variant("B", "Colour", "Red", "Size", "L"), variant("C", "Size", "M", "Colour", "Red")},
				[]string{"variants[2].options: same combination as variants[0] (Colour: Red, Size: M)"}},
			{"duplicate option name in a variant", []*catalogv1.VariantCreateInput{variant("A", "Colour", "Red", "Colour", "Blue")},
				[]string{`variants[0].options["Colour"]: duplicate option name`}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				in := smartphone()
				in.Variants = tc.variants
				p, err := h.create(as(sellerA), in)
				if tc.fragments == nil {
					if err != nil {
						t.Fatalf("want success, got %v", err)
					}
					if len(p.GetVariants()) != len(tc.variants) {
						t.Errorf("stored %d variants", len(p.GetVariants()))
					}
					return
				}
				wantCode(t, err, apierr.ValidationError, tc.fragments...)
			})
		}
	})
}

// The spec's product limits, as the validator interceptor applies them.
func TestCreateProductLimits(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		images := func(n int) []string {
			out := make([]string, n)
			for i := range out {
				out[i] = fmt.Sprintf("https://img.example.ph/%d.jpg", i)
			}
			return out
		}
		variants := func(n int) []*catalogv1.VariantCreateInput {
			out := make([]*catalogv1.VariantCreateInput, n)
			for i := range out {
				out[i] = &catalogv1.VariantCreateInput{Sku: ptr(fmt.Sprintf("V-%03d", i)), Price: ptr(int64(100)), Stock: ptr(int64(1))}
			}
			return out
		}
		cases := []struct {
			name   string
			mutate func(in *catalogv1.ProductCreateInput)
			// nil: accepted; otherwise VALIDATION_ERROR naming these.
			fragments []string
		}{
			{"title 8", func(in *catalogv1.ProductCreateInput) { in.Title = "12345678" }, nil},
			{"title 100", func(in *catalogv1.ProductCreateInput) { in.Title = strings.Repeat("t", 100) }, nil},
			{"title 7", func(in *catalogv1.ProductCreateInput) { in.Title = "1234567" }, []string{"title"}},
			{"title 101", func(in *catalogv1.ProductCreateInput) { in.Title = strings.Repeat("t", 101) }, []string{"title"}},
			{"description 10001", func(in *catalogv1.ProductCreateInput) { in.Description = ptr(strings.Repeat("d", 10001)) }, []string{"description"}},
			{"category empty", func(in *catalogv1.ProductCreateInput) { in.Category = "" }, []string{"category"}},
			{"category 121", func(in *catalogv1.ProductCreateInput) { in.Category = strings.Repeat("1", 121) }, []string{"category"}},
			{"no images", func(in *catalogv1.ProductCreateInput) { in.Images = nil }, []string{"images"}},
			{"20 images", func(in *catalogv1.ProductCreateInput) { in.Images = images(20) }, nil},
			{"21 images", func(in *catalogv1.ProductCreateInput) { in.Images = images(21) }, []string{"images"}},
			{"http image", func(in *catalogv1.ProductCreateInput) { in.Images[1] = "http://img.example.ph/x.jpg" }, []string{"images[1]"}},
			{"image not a URL", func(in *catalogv1.ProductCreateInput) { in.Images[0] = "not a url" }, []string{"images[0]"}},
			{"image without host", func(in *catalogv1.ProductCreateInput) { in.Images[0] = "https://" }, []string{"images[0]: must be an https URL with a host"}},
			{"variant image without host", func(in *catalogv1.ProductCreateInput) { in.Variants[0].Images = []string{"https:///v.jpg"} }, []string{"variants[0].images[0]: must be an https URL with a host"}},
			{"image 2049 chars", func(in *catalogv1.ProductCreateInput) {
				in.Images[0] = "https://img.example.ph/" + strings.Repeat("a", 2049-len("https://img.example.ph/"))
			}, []string{"images[0]"}},
			{"variant http image", func(in *catalogv1.ProductCreateInput) {
				in.Variants[0].Images = []string{"http://img.example.ph/v.jpg"}
			}, []string{"variants[0].images[0]"}},
			{"variant 21 images", func(in *catalogv1.ProductCreateInput) { in.Variants[0].Images = images(21) }, []string{"variants[0].images"}},
			{"no variants", func(in *catalogv1.ProductCreateInput) { in.Variants = nil }, []string{"variants"}},
			{"100 variants", func(in *catalogv1.ProductCreateInput) { in.Variants = variants(100) }, nil},
			{"101 variants", func(in *catalogv1.ProductCreateInput) { in.Variants = variants(101) }, []string{"variants"}},
			{"51 attribute values", func(in *catalogv1.ProductCreateInput) {
				for len(in.AttributeValues) < 51 {
					in.AttributeValues = append(in.AttributeValues, attr(catalog.AttrSmartphoneDualSIM, boolv(true)))
				}
			}, []string{"attribute_values"}},
			{"attribute id empty", func(in *catalogv1.ProductCreateInput) { in.AttributeValues[0].AttributeId = "" }, []string{"attribute_values[0].attribute_id"}},
			{"attribute value missing", func(in *catalogv1.ProductCreateInput) { in.AttributeValues[0].Value = nil }, []string{"attribute_values[0].value"}},
			{"price 0", func(in *catalogv1.ProductCreateInput) { in.Variants[0].Price = ptr(int64(0)) }, nil},
			{"price 99999999", func(in *catalogv1.ProductCreateInput) { in.Variants[0].Price = ptr(int64(99_999_999)) }, nil},
			{"price -1", func(in *catalogv1.ProductCreateInput) { in.Variants[0].Price = ptr(int64(-1)) }, []string{"variants[0].price"}},
			{"price 100000000", func(in *catalogv1.ProductCreateInput) { in.Variants[0].Price = ptr(int64(100_000_000)) }, []string{"variants[0].price"}},
			{"price missing", func(in *catalogv1.ProductCreateInput) { in.Variants[0].Price = nil }, []string{"variants[0].price"}},
			{"stock 1000000000", func(in *catalogv1.ProductCreateInput) { in.Variants[0].Stock = ptr(int64(1_000_000_000)) }, nil},
			{"stock -1", func(in *catalogv1.ProductCreateInput) { in.Variants[0].Stock = ptr(int64(-1)) }, []string{"variants[0].stock"}},
			{"stock 1000000001", func(in *catalogv1.ProductCreateInput) { in.Variants[0].Stock = ptr(int64(1_000_000_001)) }, []string{"variants[0].stock"}},
			{"stock missing", func(in *catalogv1.ProductCreateInput) { in.Variants[0].Stock = nil }, []string{"variants[0].stock"}},
			{"sku empty", func(in *catalogv1.ProductCreateInput) { in.Variants[0].Sku = ptr("") }, []string{"variants[0].sku"}},
			{"weight 0", func(in *catalogv1.ProductCreateInput) { in.Weight = ptr(0.0) }, []string{"weight"}},
			{"variant length negative", func(in *catalogv1.ProductCreateInput) { in.Variants[0].Length = ptr(-1.0) }, []string{"variants[0].length"}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				in := smartphone()
				tc.mutate(in)
				_, err := h.create(as(sellerA), in)
				if tc.fragments == nil {
					if err != nil {
						t.Fatalf("want success, got %v", err)
					}
					return
				}
				wantCode(t, err, apierr.ValidationError, tc.fragments...)
			})
		}
		_, err := h.client.CreateProduct(as(sellerA), &catalogv1.CreateProductRequest{})
		wantCode(t, err, apierr.ValidationError)
	})
}
