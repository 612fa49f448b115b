package catalog_test

import (
	"fmt"
	"testing"

	"github.com/mallplatform/partnerapi/services/catalog"
)

// BenchmarkBulkUpdateInventory100 is a full inventory batch: 100 items on
// 34 products of three variants (by variant id, set and adjust alternating),
// each applied with its conditional UPDATE, with the events of every
// variant and product that changed.
func BenchmarkBulkUpdateInventory100(b *testing.B) {
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			svc, _, ctx := benchService(b, be.open(b))
			var variants []string
			for len(variants) < 100 {
				p, err := svc.CreateProduct(ctx, benchInput())
				if err != nil {
					b.Fatal(err)
				}
				for _, v := range p.Variants {
					variants = append(variants, v.ID)
				}
			}
			items := make([]catalog.StockItem, 100)
			b.ReportAllocs()
			b.ResetTimer()
			for n := 0; b.Loop(); n++ {
				for i := range items {
					q, a := int64(1000+n), int64(1)
					items[i] = catalog.StockItem{VariantID: &variants[i]}
					if i%2 == 0 {
						items[i].Quantity = &q
					} else {
						items[i].Adjust = &a
					}
				}
				res, err := svc.BulkUpdateInventory(ctx, items)
				if err != nil || len(res.Errors) != 0 {
					b.Fatal(err, fmt.Sprint(res.Errors))
				}
			}
		})
	}
}
