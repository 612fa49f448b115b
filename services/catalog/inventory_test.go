package catalog_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/event"
	"github.com/mallplatform/partnerapi/ent/productvariant"
	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/catalog"
)

func (h *harness) bulkInventory(ctx context.Context, items ...*catalogv1.InventoryItemInput) (*catalogv1.BulkUpdateInventoryResult, error) {
	resp, err := h.inventory.BulkUpdateInventory(ctx, &catalogv1.BulkUpdateInventoryRequest{Items: items})
	return resp.GetData(), err
}

func (h *harness) bulkVariants(ctx context.Context, id string, items ...*catalogv1.VariantUpdateInput) (*catalogv1.BulkUpdateVariantsResult, error) {
	resp, err := h.inventory.BulkUpdateVariants(ctx, &catalogv1.BulkUpdateVariantsRequest{Id: id,
		Update: &catalogv1.VariantsUpdateInput{Variants: items}})
	return resp.GetData(), err
}

func (h *harness) stored(t testing.TB, seller, id string) *catalog.Product {
	t.Helper()
	p, err := h.store.GetProduct(context.Background(), seller, id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// twoVariants is a product of seller with two variants: stock 5 (primary)
// and 3.
func (h *harness) twoVariants(t testing.TB, seller, skuPrefix string) *catalogv1.Product {
	t.Helper()
	in := smartphone()
	in.Variants = []*catalogv1.VariantCreateInput{
		{Sku: ptr(skuPrefix + "-128"), Price: ptr(int64(1_499_900)), Stock: ptr(int64(5))},
		{Sku: ptr(skuPrefix + "-256"), Price: ptr(int64(1_699_900)), Stock: ptr(int64(3))},
	}
	return h.mustCreate(t, seller, in)
}

type recorded struct {
	Type string
	Data map[string]any
}

// events returns the events recorded for resource, oldest first.
func (h *harness) events(t testing.TB, resource string) []recorded {
	t.Helper()
	rows, err := h.db.Ent.Event.Query().Where(event.ResourceID(resource)).Order(ent.Asc(event.FieldSequence)).All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := make([]recorded, len(rows))
	for i, r := range rows {
		out[i].Type = r.Type
		if err := json.Unmarshal(r.Data, &out[i].Data); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func itemErr(t testing.TB, errs []*catalogv1.BulkItemError, index int32, code apierr.Code, fragment string) {
	t.Helper()
	for _, e := range errs {
		if e.GetIndex() == index {
			if e.GetCode() != apierr.Name(code) || !strings.Contains(e.GetMessage(), fragment) {
				t.Errorf("item %d: %s %q, want %s mentioning %q", index, e.GetCode(), e.GetMessage(), apierr.Name(code), fragment)
			}
			return
		}
	}
	t.Errorf("item %d: no error, want %s", index, apierr.Name(code))
}

func TestBulkUpdateInventory(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		p := h.twoVariants(t, sellerA, "INV")
		other := h.twoVariants(t, sellerB, "OTHER")
		v0, v1 := p.GetVariants()[0].GetVariantId(), p.GetVariants()[1].GetVariantId()
		created := p.GetUpdatedAt().AsTime()
		h.clock.Advance(time.Minute)

		res, err := h.bulkInventory(as(sellerA),
			&catalogv1.InventoryItemInput{VariantId: ptr(v0), Quantity: ptr(int64(10))},                                 // 0 set
			&catalogv1.InventoryItemInput{Sku: ptr("INV-256"), Adjust: ptr(int64(-1))},                                  // 1 adjust by SKU
			&catalogv1.InventoryItemInput{VariantId: ptr("var_01kaq3m8v5yq6b7c9d0e1f2g3j"), Quantity: ptr(int64(1))},    // 2 unknown
			&catalogv1.InventoryItemInput{VariantId: ptr(other.GetVariants()[0].GetVariantId()), Adjust: ptr(int64(1))}, // 3 another seller's
			&catalogv1.InventoryItemInput{Sku: ptr("OTHER-128"), Quantity: ptr(int64(1))},                               // 4 another seller's SKU
			&catalogv1.InventoryItemInput{VariantId: ptr(v1), Quantity: ptr(int64(7)), ExpectedQuantity: ptr(int64(3))}, // 5 stale guard (now 2)
			&catalogv1.InventoryItemInput{VariantId: ptr(v1), Adjust: ptr(int64(-3))},                                   // 6 below 0
			&catalogv1.InventoryItemInput{VariantId: ptr(v1), Adjust: ptr(int64(catalog.MaxStock))},                     // 7 above the maximum
			&catalogv1.InventoryItemInput{VariantId: ptr(v1), Adjust: ptr(int64(1)), ExpectedQuantity: ptr(int64(2))},   // 8 guard holds
			&catalogv1.InventoryItemInput{VariantId: ptr("not an id"), Adjust: ptr(int64(1))},                           // 9 not an id at all
		)
		if err != nil {
			t.Fatal(err)
		}
		if s := res.GetSummary(); s.GetTotal() != 10 || s.GetSucceeded() != 3 || s.GetFailed() != 7 {
			t.Errorf("summary %v, want 10/3/7", s)
		}
		want := []struct {
			id    string
			sku   string
			stock int64
		}{{v0, "INV-128", 10}, {v1, "INV-256", 2}, {v1, "INV-256", 3}}
		if len(res.GetUpdated()) != len(want) {
			t.Fatalf("updated %v, want %d items", res.GetUpdated(), len(want))
		}
		for i, w := range want {
			u := res.GetUpdated()[i]
			if u.GetVariantId() != w.id || u.GetSku() != w.sku || u.GetStockQuantity() != w.stock {
				t.Errorf("updated[%d] = %v, want %s %s %d", i, u, w.id, w.sku, w.stock)
			}
		}
		for i, e := range res.GetErrors() {
			if i > 0 && e.GetIndex() <= res.GetErrors()[i-1].GetIndex() {
				t.Errorf("errors not in submission order: %v", res.GetErrors())
			}
		}
		itemErr(t, res.GetErrors(), 2, apierr.NotFound, "not found")
		itemErr(t, res.GetErrors(), 3, apierr.NotFound, "not found")
		itemErr(t, res.GetErrors(), 4, apierr.NotFound, "OTHER-128")
		itemErr(t, res.GetErrors(), 5, apierr.ConcurrentModification, "the stock is 2, not the expected 3")
		itemErr(t, res.GetErrors(), 6, apierr.ValidationError, "below 0")
		itemErr(t, res.GetErrors(), 7, apierr.ValidationError, "above 1000000000")
		itemErr(t, res.GetErrors(), 9, apierr.NotFound, "not found")

		// Stored; the product's stock follows its primary variant, and its
		// updated_at moved.
		got := h.stored(t, sellerA, p.GetProductId())
		if *got.Variants[0].Stock != 10 || *got.Variants[1].Stock != 3 {
			t.Errorf("stock %d/%d, want 10/3", *got.Variants[0].Stock, *got.Variants[1].Stock)
		}
		if !got.UpdatedAt.Equal(h.clock.Now()) || got.UpdatedAt.Equal(created) {
			t.Errorf("updated_at %v, want %v", got.UpdatedAt, h.clock.Now())
		}
		if o := h.stored(t, sellerB, other.GetProductId()); *o.Variants[0].Stock != 5 {
			t.Errorf("another seller's stock changed: %d", *o.Variants[0].Stock)
		}

		// One inventory.updated per variant, from before the request to
		// after it; one product.updated whose view carries the new stock.
		ev0, ev1 := h.events(t, v0), h.events(t, v1)
		if len(ev0) != 1 || ev0[0].Type != "inventory.updated" || ev0[0].Data["previous"] != 5.0 || ev0[0].Data["stock_quantity"] != 10.0 ||
			ev0[0].Data["productId"] != p.GetProductId() || ev0[0].Data["variantId"] != v0 || ev0[0].Data["sku"] != "INV-128" {
			t.Errorf("events of %s: %v", v0, ev0)
		}
		if len(ev1) != 0 {
			// -1 then +1: the variant's stock ended where it started.
			t.Errorf("events of %s: %v, want none", v1, ev1)
		}
		pe := h.events(t, p.GetProductId())
		if len(pe) != 2 || pe[1].Type != "product.updated" || pe[1].Data["stock"] != 10.0 {
			t.Errorf("product events %v, want product.created then product.updated with stock 10", pe)
		}

		// Nothing changes: no event, updated_at stays.
		h.clock.Advance(time.Minute)
		res, err = h.bulkInventory(as(sellerA),
			&catalogv1.InventoryItemInput{VariantId: ptr(v0), Quantity: ptr(int64(10))},
			&catalogv1.InventoryItemInput{VariantId: ptr(v1), Adjust: ptr(int64(0))})
		if err != nil || res.GetSummary().GetSucceeded() != 2 {
			t.Fatalf("no-op: %v %v", res, err)
		}
		if n := len(h.events(t, v0)) + len(h.events(t, p.GetProductId())); n != 3 {
			t.Errorf("a no-op recorded events: %d, want 3 as before", n)
		}
		if u := h.stored(t, sellerA, p.GetProductId()).UpdatedAt; !u.Equal(h.clock.Now().Add(-time.Minute)) {
			t.Errorf("a no-op moved updated_at to %v", u)
		}
	})
}

// The net effect per variant: -1 then +1 leaves the stock where it was, and
// no event says it changed.
func TestBulkUpdateInventoryNetEffect(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		p := h.twoVariants(t, sellerA, "NET")
		v1 := p.GetVariants()[1].GetVariantId()
		res, err := h.bulkInventory(as(sellerA),
			&catalogv1.InventoryItemInput{VariantId: ptr(v1), Adjust: ptr(int64(-1))},
			&catalogv1.InventoryItemInput{VariantId: ptr(v1), Adjust: ptr(int64(1))})
		if err != nil || res.GetSummary().GetSucceeded() != 2 {
			t.Fatalf("%v %v", res, err)
		}
		if got := res.GetUpdated(); got[0].GetStockQuantity() != 2 || got[1].GetStockQuantity() != 3 {
			t.Errorf("updated %v, want 2 then 3", got)
		}
		if ev := h.events(t, v1); len(ev) != 0 {
			t.Errorf("events %v, want none", ev)
		}
		if ev := h.events(t, p.GetProductId()); len(ev) != 1 {
			t.Errorf("product events %v, want only product.created", ev)
		}
	})
}

func TestBulkUpdateInventorySKUAndUnknownStock(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		ctx := context.Background()
		h.twoVariants(t, sellerA, "DUP")
		h.twoVariants(t, sellerB, "MINE")

		// Create refuses a SKU the seller already has, but two creates
		// racing (the rule is checked, not indexed) can both keep one: a
		// second product written straight to the store stands for them.
		twin := storedProduct(sellerA, catalog.StatusLive, h.clock.Now())
		twin.Variants[0].SKU = ptr("DUP-128")
		archived := storedProduct(sellerA, catalog.StatusArchived, h.clock.Now())
		archived.Variants[0].SKU = ptr("GONE-1")
		unknown := storedProduct(sellerA, catalog.StatusLive, h.clock.Now())
		unknown.Variants[0].SKU = ptr("UNKNOWN-1")
		unknown.Variants[0].Stock = nil
		for _, p := range []*catalog.Product{twin, archived, unknown} {
			if err := h.store.CreateProduct(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		uv := unknown.Variants[0].ID

		res, err := h.bulkInventory(as(sellerA),
			&catalogv1.InventoryItemInput{Sku: ptr("DUP-128"), Quantity: ptr(int64(1))},                                 // 0 ambiguous
			&catalogv1.InventoryItemInput{Sku: ptr("GONE-1"), Quantity: ptr(int64(1))},                                  // 1 archived
			&catalogv1.InventoryItemInput{VariantId: ptr(archived.Variants[0].ID), Quantity: ptr(int64(1))},             // 2 archived by id
			&catalogv1.InventoryItemInput{Sku: ptr("MINE-128"), Quantity: ptr(int64(1))},                                // 3 seller B's SKU
			&catalogv1.InventoryItemInput{VariantId: ptr(uv), Adjust: ptr(int64(1))},                                    // 4 unknown: no adjust
			&catalogv1.InventoryItemInput{VariantId: ptr(uv), Quantity: ptr(int64(4)), ExpectedQuantity: ptr(int64(0))}, // 5 unknown is not 0
			&catalogv1.InventoryItemInput{Sku: ptr("UNKNOWN-1"), Quantity: ptr(int64(4))},                               // 6 unknown: set works
			&catalogv1.InventoryItemInput{Sku: ptr("UNKNOWN-1"), Adjust: ptr(int64(-1))},                                // 7 now known
		)
		if err != nil {
			t.Fatal(err)
		}
		itemErr(t, res.GetErrors(), 0, apierr.ValidationError, "ambiguous")
		itemErr(t, res.GetErrors(), 1, apierr.NotFound, "GONE-1")
		itemErr(t, res.GetErrors(), 2, apierr.NotFound, "not found")
		itemErr(t, res.GetErrors(), 3, apierr.NotFound, "MINE-128")
		itemErr(t, res.GetErrors(), 4, apierr.ValidationError, "unknown")
		itemErr(t, res.GetErrors(), 5, apierr.ConcurrentModification, "the stock is unknown")
		if u := res.GetUpdated(); len(u) != 2 || u[0].GetStockQuantity() != 4 || u[1].GetStockQuantity() != 3 || u[0].GetVariantId() != uv {
			t.Errorf("updated %v, want %s at 4 then 3", u, uv)
		}
		ev := h.events(t, uv)
		if len(ev) != 1 || ev[0].Data["previous"] != nil || ev[0].Data["stock_quantity"] != 3.0 {
			t.Errorf("events of the variant whose stock was unknown: %v, want one with previous null", ev)
		}
		if _, ok := ev[0].Data["previous"]; !ok {
			t.Errorf("previous is left out, want null: %v", ev[0].Data)
		}
	})
}

func TestBulkUpdateInventoryValidation(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		v := h.twoVariants(t, sellerA, "VAL").GetVariants()[0].GetVariantId()
		for name, items := range map[string][]*catalogv1.InventoryItemInput{
			"both variantId and sku":     {{VariantId: ptr(v), Sku: ptr("VAL-128"), Quantity: ptr(int64(1))}},
			"neither variantId nor sku":  {{Quantity: ptr(int64(1))}},
			"both quantity and adjust":   {{VariantId: ptr(v), Quantity: ptr(int64(1)), Adjust: ptr(int64(1))}},
			"no change":                  {{VariantId: ptr(v)}},
			"quantity above the maximum": {{VariantId: ptr(v), Quantity: ptr(int64(catalog.MaxStock + 1))}},
			"negative quantity":          {{VariantId: ptr(v), Quantity: ptr(int64(-1))}},
			"no items":                   {},
			"101 items": func() []*catalogv1.InventoryItemInput {
				out := make([]*catalogv1.InventoryItemInput, 101)
				for i := range out {
					out[i] = &catalogv1.InventoryItemInput{VariantId: ptr(v), Adjust: ptr(int64(1))}
				}
				return out
			}(),
		} {
			_, err := h.bulkInventory(as(sellerA), items...)
			if err == nil {
				t.Errorf("%s: accepted", name)
				continue
			}
			wantCode(t, err, apierr.ValidationError)
		}
		if s := h.stored(t, sellerA, h.variantProduct(t, v)).Variants[0].Stock; *s != 5 {
			t.Errorf("a refused request changed the stock to %d", *s)
		}
		// The route needs the write scope and a seller.
		_, err := h.bulkInventory(as(sellerA, "catalog:read"), &catalogv1.InventoryItemInput{VariantId: ptr(v), Adjust: ptr(int64(1))})
		wantCode(t, err, apierr.Forbidden)
		_, err = h.bulkInventory(as(""), &catalogv1.InventoryItemInput{VariantId: ptr(v), Adjust: ptr(int64(1))})
		wantCode(t, err, apierr.SellerTokenRequired)
	})
}

func (h *harness) variantProduct(t testing.TB, variantID string) string {
	t.Helper()
	v, err := h.db.Ent.ProductVariant.Query().Where(productvariant.ID(variantID)).Only(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return v.ProductID
}

// Fifty concurrent adjustments of -1 on a stock of 50 take it to 0 exactly;
// the fifty-first is refused, and the stock is never negative.
func TestBulkUpdateInventoryConcurrentAdjusts(t *testing.T) {
	h := newHarness(t, dbtest.Postgres(t))
	in := smartphone()
	in.Variants[0].Stock = ptr(int64(50))
	p := h.mustCreate(t, sellerA, in)
	v := p.GetVariants()[0].GetVariantId()

	const calls = 51
	var wg sync.WaitGroup
	results := make([]*catalogv1.BulkUpdateInventoryResult, calls)
	errs := make([]error, calls)
	for i := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = h.bulkInventory(as(sellerA), &catalogv1.InventoryItemInput{VariantId: ptr(v), Adjust: ptr(int64(-1))})
		}()
	}
	wg.Wait()
	succeeded, refused := 0, 0
	seen := map[int64]bool{}
	for i := range calls {
		if errs[i] != nil {
			t.Fatalf("call %d: %v", i, errs[i])
		}
		switch r := results[i]; {
		case r.GetSummary().GetSucceeded() == 1:
			succeeded++
			left := r.GetUpdated()[0].GetStockQuantity()
			if left < 0 || seen[left] {
				t.Errorf("stock after a call: %d (seen before: %v)", left, seen[left])
			}
			seen[left] = true
		case r.GetErrors()[0].GetCode() == "VALIDATION_ERROR":
			refused++
		default:
			t.Errorf("call %d: %v", i, r)
		}
	}
	if succeeded != 50 || refused != 1 {
		t.Errorf("%d succeeded, %d refused; want 50 and 1", succeeded, refused)
	}
	if s := *h.stored(t, sellerA, p.GetProductId()).Variants[0].Stock; s != 0 {
		t.Errorf("stock %d, want 0", s)
	}
	ev := h.events(t, v)
	if len(ev) != 50 {
		t.Fatalf("%d inventory.updated events, want 50", len(ev))
	}
	for i, e := range ev {
		if e.Data["previous"] != float64(50-i) || e.Data["stock_quantity"] != float64(49-i) {
			t.Errorf("event %d: %v, want %d → %d", i, e.Data, 50-i, 49-i)
		}
	}
}

func TestBulkUpdateVariants(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		p := h.twoVariants(t, sellerA, "VAR")
		id := p.GetProductId()
		v0, v1 := p.GetVariants()[0].GetVariantId(), p.GetVariants()[1].GetVariantId()
		other := h.twoVariants(t, sellerB, "VOTHER")
		h.clock.Advance(time.Minute)

		res, err := h.bulkVariants(as(sellerA), id,
			&catalogv1.VariantUpdateInput{VariantId: v0, Price: ptr(int64(1_399_900)), Stock: ptr(int64(8))},
			&catalogv1.VariantUpdateInput{VariantId: v1, Price: ptr(int64(1_599_900))},
			&catalogv1.VariantUpdateInput{VariantId: other.GetVariants()[0].GetVariantId(), Stock: ptr(int64(1))},
			&catalogv1.VariantUpdateInput{VariantId: v1, Stock: ptr(int64(1))},
		)
		if err != nil {
			t.Fatal(err)
		}
		if s := res.GetSummary(); s.GetTotal() != 4 || s.GetSucceeded() != 2 || s.GetFailed() != 2 {
			t.Errorf("summary %v", s)
		}
		if u := res.GetUpdated(); len(u) != 2 || u[0].GetVariantId() != v0 || u[0].GetStockQuantity() != 8 ||
			u[1].GetVariantId() != v1 || u[1].GetStockQuantity() != 3 || u[1].GetSku() != "VAR-256" {
			t.Errorf("updated %v", u)
		}
		itemErr(t, res.GetErrors(), 2, apierr.NotFound, "no variant")
		itemErr(t, res.GetErrors(), 3, apierr.ValidationError, "more than once")

		// The product's price and stock follow its primary variant.
		got, err := h.client.ListProducts(as(sellerA), &catalogv1.ListProductsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for _, gp := range got.GetData() {
			if gp.GetProductId() == id {
				if gp.GetPrice() != 1_399_900 || gp.GetStock() != 8 || gp.GetVariants()[1].GetPrice() != 1_599_900 ||
					!gp.GetUpdatedAt().AsTime().Equal(h.clock.Now()) {
					t.Errorf("product after the update: price %d stock %d, variant 1 price %d, updated %v",
						gp.GetPrice(), gp.GetStock(), gp.GetVariants()[1].GetPrice(), gp.GetUpdatedAt().AsTime())
				}
			}
		}
		// inventory.updated for the stock that moved, none for a price;
		// one product.updated.
		if ev := h.events(t, v0); len(ev) != 1 || ev[0].Data["previous"] != 5.0 || ev[0].Data["stock_quantity"] != 8.0 {
			t.Errorf("events of %s: %v", v0, ev)
		}
		if ev := h.events(t, v1); len(ev) != 0 {
			t.Errorf("a price change recorded inventory.updated: %v", ev)
		}
		if ev := h.events(t, id); len(ev) != 2 || ev[1].Type != "product.updated" || ev[1].Data["price"] != 1_399_900.0 {
			t.Errorf("product events %v", ev)
		}

		// The same values again: nothing recorded, updated_at stays.
		h.clock.Advance(time.Minute)
		if _, err := h.bulkVariants(as(sellerA), id, &catalogv1.VariantUpdateInput{VariantId: v1, Price: ptr(int64(1_599_900)), Stock: ptr(int64(3))}); err != nil {
			t.Fatal(err)
		}
		if ev := h.events(t, id); len(ev) != 2 {
			t.Errorf("a no-op recorded %d product events, want 2", len(ev))
		}
		if u := h.stored(t, sellerA, id).UpdatedAt; u.Equal(h.clock.Now()) {
			t.Error("a no-op moved updated_at")
		}

		// Whole-request refusals.
		_, err = h.bulkVariants(as(sellerB), id, &catalogv1.VariantUpdateInput{VariantId: v0, Stock: ptr(int64(1))})
		wantCode(t, err, apierr.NotFound)
		_, err = h.bulkVariants(as(sellerA), "prd_01kaq3m8v5yq6b7c9d0e1f2g3h", &catalogv1.VariantUpdateInput{VariantId: v0, Stock: ptr(int64(1))})
		wantCode(t, err, apierr.NotFound)
		ctx := context.Background()
		review := storedProduct(sellerA, catalog.StatusUnderReview, h.clock.Now())
		archived := storedProduct(sellerA, catalog.StatusArchived, h.clock.Now())
		for _, sp := range []*catalog.Product{review, archived} {
			if err := h.store.CreateProduct(ctx, sp); err != nil {
				t.Fatal(err)
			}
		}
		_, err = h.bulkVariants(as(sellerA), review.ID, &catalogv1.VariantUpdateInput{VariantId: review.Variants[0].ID, Stock: ptr(int64(1))})
		wantCode(t, err, apierr.ProductUnderReview)
		_, err = h.bulkVariants(as(sellerA), archived.ID, &catalogv1.VariantUpdateInput{VariantId: archived.Variants[0].ID, Stock: ptr(int64(1))})
		wantCode(t, err, apierr.NotFound)
		if s := *h.stored(t, sellerA, review.ID).Variants[0].Stock; s != 5 {
			t.Errorf("a product under review changed: stock %d", s)
		}

		// Form.
		for name, items := range map[string][]*catalogv1.VariantUpdateInput{
			"neither price nor stock": {{VariantId: v0}},
			"price above the maximum": {{VariantId: v0, Price: ptr(int64(100_000_000))}},
			"negative stock":          {{VariantId: v0, Stock: ptr(int64(-1))}},
			"no variants":             {},
			"51 variants": func() []*catalogv1.VariantUpdateInput {
				out := make([]*catalogv1.VariantUpdateInput, 51)
				for i := range out {
					out[i] = &catalogv1.VariantUpdateInput{VariantId: fmt.Sprintf("var_%d", i), Stock: ptr(int64(1))}
				}
				return out
			}(),
		} {
			_, err := h.bulkVariants(as(sellerA), id, items...)
			if err == nil {
				t.Errorf("%s: accepted", name)
				continue
			}
			wantCode(t, err, apierr.ValidationError)
		}
	})
}

// A failure of the platform (here, the event store) fails the whole
// request: no item's change is kept.
func TestBulkUpdateInventoryAllOrNothing(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		p := h.twoVariants(t, sellerA, "ATOM")
		v0, v1 := p.GetVariants()[0].GetVariantId(), p.GetVariants()[1].GetVariantId()
		// The events table refuses writes: the request's last statement.
		if _, err := d.SQL.ExecContext(context.Background(), "DROP TABLE events"); err != nil {
			t.Fatal(err)
		}
		_, err := h.bulkInventory(as(sellerA),
			&catalogv1.InventoryItemInput{VariantId: ptr(v0), Quantity: ptr(int64(9))},
			&catalogv1.InventoryItemInput{VariantId: ptr(v1), Adjust: ptr(int64(-1))})
		wantCode(t, err, apierr.Internal)
		got := h.stored(t, sellerA, p.GetProductId())
		if *got.Variants[0].Stock != 5 || *got.Variants[1].Stock != 3 {
			t.Errorf("stock %d/%d after a failed request, want 5/3", *got.Variants[0].Stock, *got.Variants[1].Stock)
		}
	})
}
