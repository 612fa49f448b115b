package orders_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"testing"

	"github.com/mallplatform/partnerapi/ent/order"
	"github.com/mallplatform/partnerapi/ent/productvariant"
	"github.com/mallplatform/partnerapi/internal/testenv"
)

// variantStock reads a variant's stock (nil: unknown).
func variantStock(t testing.TB, env *testenv.Env, id string) *int64 {
	t.Helper()
	v, err := env.DB.Ent.ProductVariant.Query().Where(productvariant.ID(id)).Only(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return v.StockQuantity
}

type level struct {
	ProductID string `json:"productId"`
	VariantID string `json:"variantId"`
	Stock     int64  `json:"stock_quantity"`
	Previous  *int64 `json:"previous"`
}

// inventoryEvents returns the inventory.updated events of a variant.
func inventoryEvents(t testing.TB, env *testenv.Env, variantID string) []level {
	t.Helper()
	var out []level
	for _, e := range eventsOf(t, env, variantID) {
		if e.Type != "inventory.updated" {
			t.Errorf("event %s on variant %s", e.Type, variantID)
			continue
		}
		var l level
		if err := json.Unmarshal(e.Data, &l); err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	return out
}

// An order takes its quantities off stock through the inventory path, in
// its own transaction; its cancellation puts them back; both record
// inventory.updated. A line beyond the stock refuses the order.
func TestOrderMovesStock(t *testing.T) {
	backends(t, func(t *testing.T, env *testenv.Env) {
		full := env.Client(t, "full", 0)
		body, err := os.ReadFile("../../examples/product-create.json")
		if err != nil {
			t.Fatal(err)
		}
		r := call(t, full, "POST", "/open/v1/products", "", string(body))
		var created struct {
			Data struct {
				ID       string `json:"product_id"`
				Variants []struct {
					ID    string `json:"variant_id"`
					Stock int64  `json:"stock_quantity"`
				} `json:"variants"`
			} `json:"data"`
		}
		if r.Status != http.StatusCreated || json.Unmarshal(r.Body, &created) != nil {
			t.Fatalf("create product: %d %s", r.Status, r.Body)
		}
		p := created.Data
		v0, v1 := p.Variants[0].ID, p.Variants[1].ID // stock 40 and 15

		line := func(variant string, qty int) string {
			return fmt.Sprintf(`{"items":[{"productId":%q,"variantId":%q,"quantity":%d}],"status":"PAID"}`, p.ID, variant, qty)
		}
		r = call(t, full, "POST", "/open/v1/sandbox/orders", "", line(v0, 3))
		var o struct {
			Data struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		if r.Status != http.StatusCreated || json.Unmarshal(r.Body, &o) != nil {
			t.Fatalf("test order: %d %s", r.Status, r.Body)
		}
		if s := variantStock(t, env, v0); s == nil || *s != 37 {
			t.Errorf("stock after ordering 3 of 40: %v", s)
		}
		ev := inventoryEvents(t, env, v0)
		if len(ev) != 1 || ev[0].Stock != 37 || ev[0].Previous == nil || *ev[0].Previous != 40 || ev[0].ProductID != p.ID {
			t.Errorf("inventory events after the order: %+v", ev)
		}

		// Beyond the stock: refused, nothing written.
		orders, _ := env.DB.Ent.Order.Query().Where(order.SellerID(env.Creds.Sellers[0].SellerID)).Count(context.Background())
		r = call(t, full, "POST", "/open/v1/sandbox/orders", "", line(v1, 16))
		if r.Status != http.StatusBadRequest || errCode(r) != "VALIDATION_ERROR" {
			t.Errorf("an order beyond the stock: %d %s", r.Status, r.Body)
		}
		if n, _ := env.DB.Ent.Order.Query().Where(order.SellerID(env.Creds.Sellers[0].SellerID)).Count(context.Background()); n != orders {
			t.Errorf("orders %d → %d after a refused order", orders, n)
		}
		if s := variantStock(t, env, v1); *s != 15 || len(inventoryEvents(t, env, v1)) != 0 {
			t.Errorf("a refused order moved the stock: %d, events %v", *s, inventoryEvents(t, env, v1))
		}
		// Exactly the stock: accepted, down to 0.
		if r = call(t, full, "POST", "/open/v1/sandbox/orders", "", line(v1, 15)); r.Status != http.StatusCreated {
			t.Errorf("an order of the whole stock: %d %s", r.Status, r.Body)
		}
		if s := variantStock(t, env, v1); *s != 0 {
			t.Errorf("stock %d after ordering all of it", *s)
		}

		// Cancellation puts the quantities back, with its event.
		if r = call(t, full, "POST", "/open/v1/orders/"+o.Data.ID+"/cancel", "", ""); r.Status != http.StatusOK {
			t.Fatalf("cancel: %d %s", r.Status, r.Body)
		}
		if s := variantStock(t, env, v0); *s != 40 {
			t.Errorf("stock after the cancellation: %d, want 40", *s)
		}
		ev = inventoryEvents(t, env, v0)
		if len(ev) != 2 || ev[1].Stock != 40 || *ev[1].Previous != 37 {
			t.Errorf("inventory events after the cancellation: %+v", ev)
		}

		// An unknown stock stays unknown: the order is taken, no event.
		if err := env.DB.Ent.ProductVariant.UpdateOneID(v1).ClearStockQuantity().Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		if r = call(t, full, "POST", "/open/v1/sandbox/orders", "", line(v1, 5)); r.Status != http.StatusCreated {
			t.Errorf("an order of a variant whose stock is unknown: %d %s", r.Status, r.Body)
		}
		if s := variantStock(t, env, v1); s != nil {
			t.Errorf("an unknown stock became %d", *s)
		}
		if n := len(inventoryEvents(t, env, v1)); n != 1 {
			t.Errorf("%d inventory events on %s, want the one of the order that took all of it", n, v1)
		}
	})
}
