package catalog

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/wirejson"
	"github.com/mallplatform/partnerapi/services/events"
)

// Where a 5,000-item bulk create spends its time on PostgreSQL, in core:
// validation (protovalidate per item at the edge of the service, then the
// catalog's rules and the SKU checks), the events' data rendered before the
// transaction, the database (one transaction: the seller's SKUs, products,
// variants, events) and rendering (the answer as the gateway writes it). The
// end-to-end figures through the gateway are BenchmarkBulkCreate in
// ./gateway.
//
//	CI=true go test ./services/catalog -run '^$' -bench BulkCreatePhases -benchtime 10x
func BenchmarkBulkCreatePhases(b *testing.B) {
	d := dbtest.Postgres(b)
	store := NewEntStore(d)
	ctx := context.Background()
	if err := SeedCategories(ctx, store); err != nil {
		b.Fatal(err)
	}
	if err := d.Ent.Seller.Create().SetID("slr_bench").SetName("bench").SetShopName("bench shop").Exec(ctx); err != nil {
		b.Fatal(err)
	}
	svc := NewService(Config{Store: store, Events: events.NewRecorder(events.NewEntStore(d), nil)})
	ctx = principal.WithSeller(ctx, "slr_bench")
	var edge, rules, eventData, database, render, total []time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		in := make([]*catalogv1.ProductCreateInput, MaxBulkCreate)
		for i := range in {
			in[i] = phaseItem(n*MaxBulkCreate + i)
		}
		n++
		b.StartTimer()
		start := time.Now()
		items, err := bulkItems(ctx, in)
		if err != nil {
			b.Fatal(err)
		}
		edge = append(edge, time.Since(start))
		res, err := svc.BulkCreateProducts(ctx, items)
		if err != nil || len(res.Created) != MaxBulkCreate {
			b.Fatalf("%d created: %v %v", len(res.Created), err, res.Errors[:min(2, len(res.Errors))])
		}
		rules, eventData, database = append(rules, res.Timing.Validation), append(eventData, res.Timing.Rendering),
			append(database, res.Timing.Database)
		renderStart := time.Now()
		if _, err := wirejson.Marshal(&catalogv1.BulkCreateProductsResponse{Data: bulkResultToProto(len(items), res)}); err != nil {
			b.Fatal(err)
		}
		render = append(render, time.Since(renderStart))
		total = append(total, time.Since(start))
	}
	for _, m := range []struct {
		name string
		d    []time.Duration
	}{{"protovalidate", edge}, {"rules", rules}, {"events", eventData}, {"database", database}, {"render", render}, {"total", total}} {
		slices.Sort(m.d)
		b.ReportMetric(float64(m.d[len(m.d)/2].Microseconds())/1000, m.name+"-p50-ms")
	}
}

func phaseItem(i int) *catalogv1.ProductCreateInput {
	f := func(v float64) *float64 { return &v }
	s := func(v string) *string { return &v }
	n := func(v int64) *int64 { return &v }
	return &catalogv1.ProductCreateInput{
		Title: fmt.Sprintf("Acme Phone X %06d 128GB", i), Category: SmartphonesCategoryID,
		Images: []string{"https://img.example.ph/1.jpg", "https://img.example.ph/2.jpg", "https://img.example.ph/3.jpg"},
		Weight: f(190), Length: f(16), Width: f(7.5), Height: f(0.9),
		AttributeValues: []*catalogv1.AttributeValueInput{
			{AttributeId: AttrElectronicsBrand, Value: structpb.NewStringValue("Acme")},
			{AttributeId: AttrSmartphoneStorage, Value: structpb.NewStringValue("128GB")},
		},
		Variants: []*catalogv1.VariantCreateInput{
			{Sku: s(fmt.Sprintf("PH-%06d-B", i)), Price: n(1_499_900), Stock: n(25), Options: []*catalogv1.OptionInput{{Name: "Colour", Value: "Black"}}},
			{Sku: s(fmt.Sprintf("PH-%06d-W", i)), Price: n(1_499_900), Stock: n(5), Options: []*catalogv1.OptionInput{{Name: "Colour", Value: "White"}}},
		},
	}
}
