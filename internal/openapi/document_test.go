package openapi_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	_ "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/openapi/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/payouts/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/sandbox/v1"
	"github.com/mallplatform/partnerapi/internal/openapi"
	"github.com/mallplatform/partnerapi/internal/policy"
)

func build(t *testing.T) map[string]any {
	t.Helper()
	table, err := policy.Load()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := openapi.Build(table)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := openapi.Build(table)
	if !bytes.Equal(raw, again) {
		t.Fatal("two builds of the same table differ")
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// at walks a decoded document.
func at(t *testing.T, v any, path ...string) any {
	t.Helper()
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%v: not an object at %q", path, p)
		}
		v = m[p]
	}
	return v
}

func schema(t *testing.T, doc map[string]any, name string) map[string]any {
	s, _ := at(t, doc, "components", "schemas", name).(map[string]any)
	if s == nil {
		t.Fatalf("no schema %s", name)
	}
	return s
}

func required(t *testing.T, s map[string]any, field string) bool {
	for _, r := range s["required"].([]any) {
		if r == field {
			return true
		}
	}
	return false
}

// The wire conventions the spec binds reach the document from the codec's
// plans: money as JSON integers, enums by wire name, null and absent as
// each field's presence says.
func TestDocumentFollowsTheWire(t *testing.T) {
	doc := build(t)
	if doc["openapi"] != "3.1.0" || at(t, doc, "info", "version") != "1.0.0" {
		t.Fatalf("openapi %v, version %v", doc["openapi"], at(t, doc, "info", "version"))
	}
	order := schema(t, doc, "Order")
	if typ := at(t, order, "properties", "total", "type"); typ != "integer" {
		t.Errorf("Order.total is %v, want integer (centavos)", typ)
	}
	status, _ := at(t, order, "properties", "status", "enum").([]any)
	if !slices.Contains(status, any("READY_TO_SHIP")) || slices.Contains(status, any("ORDER_STATUS_READY_TO_SHIP")) {
		t.Errorf("Order.status enum %v, want wire names", status)
	}
	if typ := at(t, order, "properties", "shipByDate", "type"); !slices.Equal(typ.([]any), []any{"string", "null"}) || !required(t, order, "shipByDate") {
		t.Errorf("shipByDate is %v (required %v), want a required string or null", typ, required(t, order, "shipByDate"))
	}
	for _, f := range []string{"buyerEmail", "slaBreached", "shippingChannel", "bookingStatus"} {
		if required(t, order, f) {
			t.Errorf("Order.%s is required; it is absent when not applicable", f)
		}
	}
	if at(t, order, "additionalProperties") != false {
		t.Error("Order admits properties the encoder never writes")
	}
	variant := schema(t, doc, "VariantCreateInput")
	if at(t, variant, "properties", "price", "maximum") != 99999999.0 || !required(t, variant, "price") {
		t.Errorf("variant price: %v", at(t, variant, "properties", "price"))
	}
	if at(t, variant, "properties", "options", "type") != "object" {
		t.Error("variant options do not travel as an object")
	}
}

// Routes carry their policy: signing as security, the seller headers, the
// idempotency header, the error codes of each status, and 501 where the
// route is declared but not built.
func TestDocumentCarriesThePolicy(t *testing.T) {
	doc := build(t)
	create := at(t, doc, "paths", "/open/v1/products", "post").(map[string]any)
	sec := at(t, create, "security").([]any)[0].(map[string]any)
	if !slices.Equal(sec["PartnerId"].([]any), []any{"catalog:write"}) || sec["SellerId"] == nil || sec["Signature"] == nil {
		t.Errorf("product create security: %v", sec)
	}
	if at(t, create, "responses", "201") == nil {
		t.Error("product create has no 201")
	}
	codes := at(t, create, "responses", "400", "content", "application/json", "schema", "allOf").([]any)[1]
	enum := at(t, codes, "properties", "error", "properties", "code", "enum").([]any)
	if !slices.Contains(enum, any("CATEGORY_NOT_FOUND")) || !slices.Contains(enum, any("INVALID_JSON")) {
		t.Errorf("product create 400 codes: %v", enum)
	}
	if at(t, create, "responses", "429", "headers", "Retry-After") == nil || at(t, create, "responses", "201", "headers", "X-RateLimit-Limit") == nil {
		t.Error("rate-limit headers are not declared")
	}
	bulkCreate := at(t, doc, "paths", "/open/v1/products/bulk", "post").(map[string]any)
	if at(t, bulkCreate, "x-mp-policy", "gzipBody") != true || at(t, bulkCreate, "x-mp-policy", "idempotency") != "optional" ||
		!strings.Contains(at(t, bulkCreate, "description").(string), "Content-Encoding: gzip") {
		t.Error("bulk create does not say it takes a gzip body and an optional Idempotency-Key")
	}
	bulk := at(t, doc, "paths", "/open/v1/orders/bulk-cancel", "post").(map[string]any)
	var key map[string]any
	for _, p := range at(t, bulk, "parameters").([]any) {
		if p.(map[string]any)["name"] == "Idempotency-Key" {
			key = p.(map[string]any)
		}
	}
	if key == nil || key["required"] != true {
		t.Errorf("bulk cancel's Idempotency-Key: %v", key)
	}
	spec := at(t, doc, "paths", "/open/v1/openapi.json", "get").(map[string]any)
	if s := at(t, spec, "security").([]any); len(s) != 0 {
		t.Errorf("the document's own route asks for %v; it is unsigned", s)
	}
}

// Every request body and path parameter has an example, so the conformance
// test can send every route as the document describes it. A raw body (an
// image upload) has no JSON to show: its media types and a binary schema
// describe it, and the conformance test sends an image.
func TestDocumentHasExamples(t *testing.T) {
	doc := build(t)
	for path, item := range at(t, doc, "paths").(map[string]any) {
		for verb, op := range item.(map[string]any) {
			o := op.(map[string]any)
			if rb, ok := o["requestBody"].(map[string]any); ok {
				content := at(t, rb, "content").(map[string]any)
				if _, isJSON := content["application/json"]; !isJSON {
					for mt, media := range content {
						if !strings.HasPrefix(mt, "image/") || at(t, media, "schema", "format") != "binary" {
							t.Errorf("%s %s: raw body %s is not a binary image: %v", verb, path, mt, media)
						}
					}
				} else if at(t, rb, "content", "application/json", "example") == nil {
					t.Errorf("%s %s: request body without an example (internal/openapi/examples.go)", verb, path)
				}
			}
			params, _ := o["parameters"].([]any)
			for _, p := range params {
				pm := p.(map[string]any)
				if pm["in"] == "path" && pm["example"] == nil {
					t.Errorf("%s %s: path parameter %v without an example", verb, path, pm["name"])
				}
			}
		}
	}
}
