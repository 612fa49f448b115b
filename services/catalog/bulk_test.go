package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"google.golang.org/grpc/status"

	"github.com/mallplatform/partnerapi/ent/event"
	"github.com/mallplatform/partnerapi/ent/product"
	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/core"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/wirejson"
	"github.com/mallplatform/partnerapi/services/catalog"
	"github.com/mallplatform/partnerapi/services/events"
)

func (h *harness) bulk(ctx context.Context, items ...*catalogv1.ProductCreateInput) (*catalogv1.BulkCreateProductsResult, error) {
	resp, err := h.client.BulkCreateProducts(ctx, &catalogv1.BulkCreateProductsRequest{Products: items})
	return resp.GetData(), err
}

// created reads the products a bulk create answered with: each travels as
// the JSON its GET renders.
func created(t *testing.T, res *catalogv1.BulkCreateProductsResult) []*catalogv1.Product {
	t.Helper()
	out := make([]*catalogv1.Product, len(res.GetCreated()))
	for i, raw := range res.GetCreated() {
		out[i] = &catalogv1.Product{}
		if err := wirejson.Unmarshal(raw, out[i]); err != nil {
			t.Fatalf("created[%d]: %v in %.300s", i, err, raw)
		}
	}
	return out
}

// singleError is what single create answers for in: its code and message.
func (h *harness) singleError(t *testing.T, in *catalogv1.ProductCreateInput) (string, string) {
	t.Helper()
	_, err := h.create(as(sellerB), in)
	if err == nil {
		t.Fatal("single create accepted an input bulk refused")
	}
	code, msg := apierr.FromStatus(status.Convert(err))
	return apierr.Name(code), msg
}

func countRows(t *testing.T, d *db.DB, seller string) (products, created int) {
	t.Helper()
	ctx := context.Background()
	p, err := d.Ent.Product.Query().Where(product.SellerID(seller)).Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	e, err := d.Ent.Event.Query().Where(event.SellerID(seller), event.Type("product.created")).Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return p, e
}

// Each item is validated as single create validates it (same codes, same
// messages, the field path of the first violation); rejected items do not
// stop the others; created products come back in submission order.
func TestBulkCreateProducts(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		held := h.mustCreate(t, sellerA, smartphone()) // its SKU is the seller's
		other := h.mustCreate(t, sellerB, smartphone())

		shortTitle := smartphone()
		shortTitle.Title = "Short"
		noPrice := smartphone()
		noPrice.Variants = append(noPrice.Variants, &catalogv1.VariantCreateInput{Sku: ptr(uniqueSKU("NP")), Stock: ptr(int64(1))})
		unknownCategory := smartphone()
		unknownCategory.Category = "999999"
		missingAttr := smartphone()
		missingAttr.AttributeValues = missingAttr.AttributeValues[:1]
		first := smartphone()
		sameSKU := smartphone()
		sameSKU.Variants[0].Sku = first.Variants[0].Sku
		takenSKU := smartphone()
		takenSKU.Variants[0].Sku = ptr(held.GetSku())
		otherSellersSKU := smartphone()
		otherSellersSKU.Variants[0].Sku = ptr(other.GetSku())
		last := smartphone()

		items := []*catalogv1.ProductCreateInput{first, shortTitle, noPrice, unknownCategory, missingAttr, sameSKU, takenSKU, otherSellersSKU, last}
		res, err := h.bulk(as(sellerA), items...)
		if err != nil {
			t.Fatal(err)
		}
		if s := res.GetSummary(); s.GetTotal() != 9 || s.GetSucceeded() != 3 || s.GetFailed() != 6 {
			t.Fatalf("summary %v", s)
		}
		wantCreated := []*catalogv1.ProductCreateInput{first, otherSellersSKU, last}
		for i, p := range created(t, res) {
			if p.GetSku() != wantCreated[i].Variants[0].GetSku() || p.GetStatus() != catalogv1.ProductStatus_PRODUCT_STATUS_PROPOSED || !shortIDPattern.MatchString(p.GetShortId()) {
				t.Errorf("created[%d] = %s %s %s", i, p.GetSku(), p.GetStatus(), p.GetShortId())
			}
		}
		want := []struct {
			index       int32
			code, field string
		}{
			{1, "VALIDATION_ERROR", "title"},
			{2, "VALIDATION_ERROR", "variants[1].price"},
			{3, "CATEGORY_NOT_FOUND", "category"},
			{4, "VALIDATION_ERROR", "attribute_values"},
			{5, "DUPLICATE", "variants[0].sku"},
			{6, "DUPLICATE", "variants[0].sku"},
		}
		if len(res.GetErrors()) != len(want) {
			t.Fatalf("errors %v", res.GetErrors())
		}
		for i, w := range want {
			e := res.GetErrors()[i]
			if e.GetIndex() != w.index || e.GetCode() != w.code || e.GetField() != w.field {
				t.Errorf("errors[%d] = %d %s %q (%s), want %d %s %q", i, e.GetIndex(), e.GetCode(), e.GetField(), e.GetMessage(), w.index, w.code, w.field)
			}
		}
		// The same inputs sent alone get the same codes and messages (for
		// the rules that do not depend on the seller's other products).
		for _, e := range res.GetErrors()[:4] {
			code, msg := h.singleError(t, items[e.GetIndex()])
			if code != e.GetCode() || msg != e.GetMessage() {
				t.Errorf("item %d: bulk %s %q, single %s %q", e.GetIndex(), e.GetCode(), e.GetMessage(), code, msg)
			}
		}
		// Single create applies the seller-wide SKU rule too.
		_, err = h.create(as(sellerA), takenSKU)
		wantCode(t, err, errorsv1.ErrorCode_ERROR_CODE_DUPLICATE, "variants[0].sku: ", held.GetProductId())
		products, created := countRows(t, d, sellerA)
		if products != 4 || created != 4 {
			t.Errorf("seller A: %d products, %d product.created events; want 4 and 4", products, created)
		}
	})
}

// A SKU freed by archiving may be used again. Of items of one batch sharing
// a SKU, the first that passes its other rules keeps it and the later ones
// are refused; an earlier item refused for another reason does not hold it.
func TestBulkCreateSKURules(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		archived := storedProduct(sellerA, catalog.StatusArchived, h.clock.Business(context.Background()))
		if err := h.store.CreateProduct(context.Background(), archived); err != nil {
			t.Fatal(err)
		}
		reuse := smartphone()
		reuse.Variants[0].Sku = archived.Variants[0].SKU
		broken := smartphone()
		broken.Title = "Short"
		sku := uniqueSKU("SHARED")
		broken.Variants[0].Sku = &sku
		keeps := smartphone()
		keeps.Variants[0].Sku = &sku
		refused := smartphone()
		refused.Variants[0].Sku = &sku
		res, err := h.bulk(as(sellerA), reuse, broken, keeps, refused)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.GetCreated()) != 2 || len(res.GetErrors()) != 2 {
			t.Fatalf("created %d, errors %v", len(res.GetCreated()), res.GetErrors())
		}
		if e := res.GetErrors()[1]; e.GetIndex() != 3 || e.GetCode() != "DUPLICATE" || e.GetField() != "variants[0].sku" {
			t.Errorf("errors[1] = %v", e)
		}
	})
}

// A batch whose every item fails is still an answer (200 over HTTP) that
// lists every error, and writes nothing.
func TestBulkCreateAllFail(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		a, b := smartphone(), smartphone()
		a.Category, b.Images = "Smartphones", nil
		res, err := h.bulk(as(sellerA), a, b)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.GetCreated()) != 0 || res.GetSummary().GetFailed() != 2 || res.GetErrors()[0].GetCode() != "CATEGORY_NOT_FOUND" ||
			res.GetErrors()[1].GetField() != "images" {
			t.Fatalf("%v", res)
		}
		if p, e := countRows(t, d, sellerA); p != 0 || e != 0 {
			t.Errorf("%d products, %d events after an all-fail batch", p, e)
		}
	})
}

// The largest batch commits whole on both backends, with one event per
// product.
func TestBulkCreateFiveThousand(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		// The race detector makes the 5,000 items several times slower
		// than in production, past core's 10 s call deadline on a busy
		// machine; the deadline is not what this test is about.
		h := newHarness(t, d, func(c *core.Config) { c.CallTimeout = 2 * time.Minute })
		items := make([]*catalogv1.ProductCreateInput, catalog.MaxBulkCreate)
		for i := range items {
			items[i] = bulkBenchItem(i)
		}
		res, err := h.bulk(as(sellerA), items...)
		if err != nil {
			t.Fatal(err)
		}
		if res.GetSummary().GetSucceeded() != catalog.MaxBulkCreate || len(res.GetErrors()) != 0 {
			t.Fatalf("summary %v, first errors %v", res.GetSummary(), res.GetErrors()[:min(3, len(res.GetErrors()))])
		}
		for i, p := range created(t, res) {
			if p.GetName() != items[i].Title || len(p.GetVariants()) != 2 {
				t.Fatalf("created[%d] = %q with %d variants", i, p.GetName(), len(p.GetVariants()))
			}
		}
		if p, e := countRows(t, d, sellerA); p != catalog.MaxBulkCreate || e != catalog.MaxBulkCreate {
			t.Errorf("%d products, %d events", p, e)
		}
		// Stored as answered: the listing reads them back.
		got, err := h.client.ListProducts(as(sellerA), &catalogv1.ListProductsRequest{Limit: ptr(int32(100))})
		if err != nil || got.GetMeta().GetTotal() != catalog.MaxBulkCreate {
			t.Fatalf("list: %v %v", got.GetMeta(), err)
		}
		byID := map[string]*catalogv1.Product{}
		for _, p := range created(t, res) {
			byID[p.GetProductId()] = p
		}
		for _, p := range got.GetData() {
			want := byID[p.GetProductId()]
			if want == nil || p.GetSku() != want.GetSku() || p.GetPrice() != want.GetPrice() || len(p.GetImages()) != 3 ||
				p.GetVariants()[1].GetStockQuantity() != want.GetVariants()[1].GetStockQuantity() || !p.GetCreatedAt().AsTime().Equal(want.GetCreatedAt().AsTime().Truncate(time.Microsecond)) {
				t.Fatalf("listed %v, created %v", p, want)
			}
		}
		// One more than the schema allows is refused whole.
		_, err = h.bulk(as(sellerA), append(items, bulkBenchItem(5000))...)
		wantCode(t, err, apierr.ValidationError, "products: must contain at most 5000 items")
	})
}

// bulkBenchItem is a realistic item: two variants, three images, two
// attribute values, SKUs of its own.
func bulkBenchItem(i int) *catalogv1.ProductCreateInput {
	in := smartphone()
	in.Title = fmt.Sprintf("Acme Phone X %05d 128GB", i)
	in.Images = []string{"https://img.example.ph/1.jpg", "https://img.example.ph/2.jpg", "https://img.example.ph/3.jpg"}
	in.Variants = []*catalogv1.VariantCreateInput{
		{Title: ptr("Black"), Sku: ptr(fmt.Sprintf("BULK-%05d-BLK", i)), Price: ptr(int64(1_499_900)), Stock: ptr(int64(25)),
			Options: []*catalogv1.OptionInput{{Name: "Colour", Value: "Black"}}},
		{Title: ptr("Blue"), Sku: ptr(fmt.Sprintf("BULK-%05d-BLU", i)), Price: ptr(int64(1_509_900)), Stock: ptr(int64(i % 50)),
			Options: []*catalogv1.OptionInput{{Name: "Colour", Value: "Blue"}}},
	}
	return in
}

// failingEvents is an event store that cannot write: the platform fault
// that must leave nothing behind.
type failingEvents struct{ events.Store }

func (failingEvents) AppendMany(context.Context, []events.Event, time.Time) error {
	return errors.New("events: disk full")
}

// A platform fault after the products were written rolls the whole batch
// back: no product, no event.
func TestBulkCreateRollsBackOnFault(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d) // seeds the taxonomy and the sellers
		svc := catalog.NewService(catalog.Config{Store: h.store, Business: h.clock,
			Events: events.NewRecorder(failingEvents{events.NewEntStore(d)}, nil)})
		srv, err := core.New(core.Config{GatewayToken: internalToken, Services: []core.Registrar{catalog.NewServer(svc).Register}, Sellers: fakeSellers{}})
		if err != nil {
			t.Fatal(err)
		}
		client := catalogv1.NewCatalogServiceClient(dialCore(t, srv))
		_, err = client.BulkCreateProducts(as(sellerA), &catalogv1.BulkCreateProductsRequest{Products: []*catalogv1.ProductCreateInput{bulkBenchItem(1), bulkBenchItem(2)}})
		wantCode(t, err, apierr.Internal)
		if p, e := countRows(t, d, sellerA); p != 0 || e != 0 {
			t.Errorf("%d products, %d events after a failed batch", p, e)
		}
	})
}

// Short ids that clash (with a stored product, or inside the batch) are
// redrawn rather than failing the batch.
func TestCreateProductsRedrawsShortIDs(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		at := h.clock.Business(context.Background())
		existing := storedProduct(sellerA, catalog.StatusLive, at)
		if err := h.store.CreateProduct(context.Background(), existing); err != nil {
			t.Fatal(err)
		}
		a, b := storedProduct(sellerA, catalog.StatusProposed, at), storedProduct(sellerA, catalog.StatusProposed, at)
		a.ShortID, b.ShortID = existing.ShortID, existing.ShortID
		draws := 0
		err := h.store.CreateProducts(context.Background(), []*catalog.Product{a, b}, func() string { draws++; return shortID() })
		if err != nil {
			t.Fatal(err)
		}
		if draws != 2 || a.ShortID == existing.ShortID || b.ShortID == existing.ShortID || a.ShortID == b.ShortID {
			t.Errorf("draws %d, short ids %s %s (existing %s)", draws, a.ShortID, b.ShortID, existing.ShortID)
		}
		for _, p := range []*catalog.Product{a, b} {
			got, err := h.store.GetProduct(context.Background(), sellerA, p.ID)
			if err != nil || got.ShortID != p.ShortID || len(got.Variants) != 1 {
				t.Errorf("stored %v, %v", got, err)
			}
		}
	})
}
