package openapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
)

// checkInventory draws the answers of the stock and price routes the
// example requests cannot: items applied and refused one by one (200 with
// errors), a body whose item breaks a cross-field rule (400), another
// seller's product (404), a product under review (422).
func (c *checker) checkInventory(t *testing.T) {
	var inventory, variants, create operation
	for _, op := range c.operations() {
		switch {
		case op.method == http.MethodPost && op.path == "/open/v1/inventory/bulk-update":
			inventory = op
		case op.method == http.MethodPost && op.path == "/open/v1/products/{id}/variants/bulk-update":
			variants = op
		case op.method == http.MethodPost && op.path == "/open/v1/products":
			create = op
		}
	}
	if inventory.op == nil || variants.op == nil || create.op == nil {
		t.Fatal("the inventory routes are not in the document")
	}
	full := c.client(t, "full", inventory)

	// A product of seller 0 with its two variants.
	a := c.do(t, create, full, c.exampleRequest(create, nil), true)
	var created struct {
		Data struct {
			ID       string `json:"product_id"`
			Variants []struct {
				ID string `json:"variant_id"`
			} `json:"variants"`
		} `json:"data"`
	}
	if a.status != http.StatusCreated || json.Unmarshal(a.body, &created) != nil || len(created.Data.Variants) != 2 {
		t.Fatalf("creating the example product: %d %s", a.status, a.body)
	}
	id, v0, v1 := created.Data.ID, created.Data.Variants[0].ID, created.Data.Variants[1].ID

	req := c.exampleRequest(inventory, nil)
	req.Body = fmt.Appendf(nil, `{"items":[{"variantId":%q,"adjust":-2},{"variantId":%q,"quantity":1,"expectedQuantity":999},`+
		`{"variantId":%q,"adjust":-1000},{"variantId":"var_01kaq3m8v5yq6b7c9d0e1f2g3j","quantity":1}]}`, v0, v0, v1)
	a = c.do(t, inventory, full, req, true)
	expect(t, "items applied and refused", a, http.StatusOK, "")
	var res struct {
		Data struct {
			Updated []struct {
				VariantID string `json:"variantId"`
				Stock     *int64 `json:"stock_quantity"`
			} `json:"updated"`
			Errors []struct {
				Index int    `json:"index"`
				Code  string `json:"code"`
			} `json:"errors"`
		} `json:"data"`
	}
	if err := json.Unmarshal(a.body, &res); err != nil || len(res.Data.Updated) != 1 || len(res.Data.Errors) != 3 ||
		res.Data.Errors[0].Code != "CONCURRENT_MODIFICATION" || res.Data.Errors[1].Code != "VALIDATION_ERROR" ||
		res.Data.Errors[2].Code != "NOT_FOUND" {
		t.Errorf("inventory answer: %s", a.body)
	}
	req = c.withFreshKey(req)
	req.Body = fmt.Appendf(nil, `{"items":[{"variantId":%q,"sku":"BP22-SLATE","quantity":1}]}`, v0)
	expect(t, "an item naming its variant twice", c.do(t, inventory, full, req, false), http.StatusBadRequest, "VALIDATION_ERROR")

	body := fmt.Sprintf(`{"variants":[{"variantId":%q,"price":179900,"stock":12},{"variantId":%q,"stock":0}]}`, v0, v1)
	req = c.exampleRequest(variants, map[string]string{"id": id})
	req.Body = []byte(body)
	expect(t, "variants of a product just created", c.do(t, variants, full, req, true), http.StatusOK, "")
	expect(t, "another seller's product", c.do(t, variants, c.env.Client(t, "full", 1), c.withFreshKey(req), true),
		http.StatusNotFound, "NOT_FOUND")
	bad := c.withFreshKey(req)
	bad.Body = fmt.Appendf(nil, `{"variants":[{"variantId":%q}]}`, v0)
	expect(t, "a variant with neither price nor stock", c.do(t, variants, full, bad, false), http.StatusBadRequest, "VALIDATION_ERROR")

	// Review is the platform's; the test puts the product there directly.
	if _, err := c.env.DB.SQL.ExecContext(context.Background(),
		fmt.Sprintf("UPDATE products SET status = 'under_review' WHERE id = '%s'", id)); err != nil {
		t.Fatal(err)
	}
	expect(t, "a product under review", c.do(t, variants, full, c.withFreshKey(req), true),
		http.StatusUnprocessableEntity, "PRODUCT_UNDER_REVIEW")
}
