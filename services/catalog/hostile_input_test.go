package catalog_test

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/status"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/grpccodec"
	"github.com/mallplatform/partnerapi/internal/pagination/paginationtest"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/catalog"
)

// hostileIDs are hostile path ids as core receives them (the
// gateway decodes %00, %FF and %C0%AF), and ids of the right alphabet that
// no product or category can have.
var hostileIDs = []string{"\x00", "\xff", "\xc0\xaf", "prd_\x00", "100003\x00", "prd_x", "PRD_01JBCDEFGHJKMNPQRSTVWXYZ0"}

// asGateway sends a call with the gateway's codec, which (unlike
// protobuf-go's) sends invalid UTF-8 in strings as it is: what the gateway
// forwards from a percent-decoded path.
var asGateway = grpc.ForceCodecV2(grpccodec.New())

// noQueries is a Store any call of which panics: a service that answers
// without touching it made no query.
type noQueries struct{ catalog.Store }

// Ids that cannot exist are NOT_FOUND without a query.
func TestIDsThatCannotExistAreNotLookedUp(t *testing.T) {
	svc := catalog.NewService(catalog.Config{Store: noQueries{}})
	ctx := principal.WithSeller(context.Background(), sellerA)
	for _, id := range hostileIDs {
		_, err := svc.UpdateProduct(ctx, id, catalog.ProductUpdate{Title: ptr("A valid title")})
		if apierr.CodeOf(err) != apierr.NotFound {
			t.Errorf("UpdateProduct(%q): %v", id, err)
		}
		_, err = svc.ListCategoryAttributes(ctx, id)
		if apierr.CodeOf(err) != apierr.NotFound {
			t.Errorf("ListCategoryAttributes(%q): %v", id, err)
		}
	}
}

// Every seeded category id has the form validCategoryID accepts, or its
// attributes could never be listed.
func TestSeededCategoryIDsAreNumbers(t *testing.T) {
	cats, _, err := catalog.DefaultTaxonomy()
	if err != nil {
		t.Fatal(err)
	}
	svc := catalog.NewService(catalog.Config{Store: noQueries{}})
	for _, c := range cats {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("category %q was refused without a lookup", c.ID)
				}
			}()
			_, _ = svc.ListCategoryAttributes(context.Background(), c.ID)
		}()
	}
}

// Over gRPC on every driver (PostgreSQL is where such input answered 500):
// unstorable text in a body is VALIDATION_ERROR naming the field, ids that
// cannot exist are NOT_FOUND, and a request with thousands of violations
// gets a bounded message.
func TestHostileInputOverGRPC(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		p := h.mustCreate(t, sellerA, smartphone())
		for field, spoil := range map[string]func(in *catalogv1.ProductCreateInput){
			"title":           func(in *catalogv1.ProductCreateInput) { in.Title = "Acme\x00Phone X" },
			"description":     func(in *catalogv1.ProductCreateInput) { in.Description = ptr("\x00") },
			"category":        func(in *catalogv1.ProductCreateInput) { in.Category = catalog.SmartphonesCategoryID + "\x00" },
			"variants[0].sku": func(in *catalogv1.ProductCreateInput) { in.Variants[0].Sku = ptr("ACME\x00") },
		} {
			in := smartphone()
			spoil(in)
			_, err := h.create(as(sellerA), in)
			wantCode(t, err, apierr.ValidationError, field+": ", "NUL")
		}
		in := smartphone()
		in.Title = "Acme Phone \xff\xc0\xaf"
		_, err := h.client.CreateProduct(as(sellerA), &catalogv1.CreateProductRequest{Product: in}, asGateway)
		wantCode(t, err, apierr.ValidationError, "title: ", "UTF-8")
		for _, upd := range []*catalogv1.ProductUpdateInput{
			{Title: ptr("Acme\x00Phone X")}, {Description: ptr("a\x00")}, {Category: ptr("\x00")},
		} {
			_, err := h.client.UpdateProduct(as(sellerA), &catalogv1.UpdateProductRequest{Id: p.GetProductId(), Product: upd})
			wantCode(t, err, apierr.ValidationError, "NUL")
		}
		for _, id := range hostileIDs {
			_, err := h.client.UpdateProduct(as(sellerA), &catalogv1.UpdateProductRequest{Id: id, Product: &catalogv1.ProductUpdateInput{Title: ptr("A valid title")}}, asGateway)
			wantCode(t, err, apierr.NotFound)
			_, err = h.client.ListCategoryAttributes(as(""), &catalogv1.ListCategoryAttributesRequest{Id: id}, asGateway)
			wantCode(t, err, apierr.NotFound)
		}

		big := smartphone()
		for range 200000 {
			big.Variants = append(big.Variants, &catalogv1.VariantCreateInput{})
		}
		_, err = h.create(as(sellerA), big)
		wantCode(t, err, apierr.ValidationError, "variants: must contain at most 100 items")
		bulk := &catalogv1.BulkCreateProductsRequest{}
		for range 5000 {
			bulk.Products = append(bulk.Products, &catalogv1.ProductCreateInput{})
		}
		// Each empty item fails on its own, with a bounded message.
		resp, err := h.client.BulkCreateProducts(as(sellerA), bulk)
		if err != nil {
			t.Fatalf("bulk of 5,000 empty products: %v", err)
		}
		if got := resp.GetData().GetErrors(); len(got) != 5000 || resp.GetData().GetSummary().GetFailed() != 5000 {
			t.Fatalf("bulk of 5,000 empty products: %d errors, summary %v", len(got), resp.GetData().GetSummary())
		}
		for _, e := range resp.GetData().GetErrors() {
			if e.GetCode() != "VALIDATION_ERROR" || len(e.GetMessage()) > apierr.MaxMessageBytes || !strings.Contains(e.GetMessage(), "title: must be at least 8 characters") {
				t.Fatalf("item %d: %s %q", e.GetIndex(), e.GetCode(), e.GetMessage())
			}
		}
	})
}

// Cursors are tamper-evident: an edited position (an id holding NUL, a page,
// a filter) is BAD_REQUEST, and a genuine cursor still works.
func TestTamperedCursorsAreRefused(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		h.createN(t, sellerA, 3)
		first, err := h.client.ListProducts(as(sellerA), &catalogv1.ListProductsRequest{Limit: ptr(int32(1))})
		if err != nil {
			t.Fatal(err)
		}
		genuine := first.GetMeta().GetNextCursor()
		if _, err := h.client.ListProducts(as(sellerA), &catalogv1.ListProductsRequest{Limit: ptr(int32(1)), Cursor: ptr(genuine)}); err != nil {
			t.Fatalf("genuine cursor: %v", err)
		}
		for name, c := range paginationtest.Tampered(t, genuine) {
			t.Run("products, "+name, func(t *testing.T) {
				_, err := h.client.ListProducts(as(sellerA), &catalogv1.ListProductsRequest{Limit: ptr(int32(1)), Cursor: ptr(c)})
				wantCode(t, err, apierr.BadRequest, "cursor")
			})
		}
		cats, err := h.client.ListCategories(as(""), &catalogv1.ListCategoriesRequest{Limit: ptr(int32(2))})
		if err != nil {
			t.Fatal(err)
		}
		for name, c := range paginationtest.Tampered(t, cats.GetMeta().GetNextCursor()) {
			t.Run("categories, "+name, func(t *testing.T) {
				_, err := h.client.ListCategories(as(""), &catalogv1.ListCategoriesRequest{Cursor: ptr(c)})
				wantCode(t, err, apierr.BadRequest, "cursor")
			})
		}
	})
}

// The catalog's own rules, checked after protovalidate, also name the first
// few violations and count the rest within the bound on messages: 99
// duplicate SKUs are not 99 sentences cut off mid-way.
func TestServiceViolationsAreCounted(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		in := smartphone()
		for len(in.Variants) < 100 {
			in.Variants = append(in.Variants, &catalogv1.VariantCreateInput{Sku: in.Variants[0].Sku, Price: ptr(int64(1)), Stock: ptr(int64(1))})
		}
		_, err := h.create(as(sellerA), in)
		wantCode(t, err, apierr.ValidationError, "variants[1].sku: ", "more violations")
		if _, msg := apierr.FromStatus(status.Convert(err)); len(msg) > apierr.MaxMessageBytes || !strings.HasSuffix(msg, " more violations") {
			t.Errorf("%d bytes: %s", len(msg), msg)
		}
	})
}
