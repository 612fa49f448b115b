package catalog_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/services/catalog"
)

func ptr[T any](v T) *T { return &v }

// addSeller inserts a seller row: products reference their seller.
func addSeller(t testing.TB, d *db.DB, id string) {
	t.Helper()
	if err := d.Ent.Seller.Create().SetID(id).SetName(id).SetShopName(id + " shop").Exec(context.Background()); err != nil {
		t.Fatalf("add seller %s: %v", id, err)
	}
}

// storedProduct is a complete domain product written straight through the
// store, for states the API cannot produce (under_review, archived) and for
// storage tests.
func storedProduct(sellerID string, status catalog.ProductStatus, at time.Time) *catalog.Product {
	return &catalog.Product{
		ID:           ids.NewAt("prd", at),
		ShortID:      shortID(),
		SellerID:     sellerID,
		Name:         "Stored product " + string(status),
		Description:  "From the store",
		Status:       status,
		CategoryID:   catalog.SmartphonesCategoryID,
		CategoryName: "Smartphones",
		Images:       []string{"https://img.example.ph/a.jpg", "https://img.example.ph/b.jpg"},
		Weight:       180,
		Dimensions:   catalog.Dimensions{Length: 15, Width: 8, Height: 1},
		AttributeValues: []catalog.AttributeValue{
			{AttributeID: catalog.AttrElectronicsBrand, Value: json.RawMessage(`"Acme"`)},
			{AttributeID: catalog.AttrSmartphoneStorage, Value: json.RawMessage(`"128GB"`)},
		},
		Variants: []catalog.Variant{{
			ID:         ids.NewAt("var", at),
			SKU:        ptr("SKU-" + ids.Token(4)),
			Price:      ptr(int64(1_299_900)),
			Stock:      ptr(int64(5)),
			Options:    []catalog.Option{},
			Weight:     180,
			Dimensions: catalog.Dimensions{Length: 15, Width: 8, Height: 1},
			Images:     []string{"https://img.example.ph/a.jpg"},
		}},
		CreatedAt: at,
		UpdatedAt: at,
	}
}

var shortSeq int

func shortID() string {
	shortSeq++
	return fmt.Sprintf("T%09d", shortSeq)
}
