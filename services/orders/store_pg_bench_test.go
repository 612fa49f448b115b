package orders

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	gojson "github.com/goccy/go-json"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
)

// BenchmarkOrderColumnDecode decodes the JSON column of the order read
// (GetOrderPostgresSQL's last column, as PostgreSQL writes it for an order
// with two items and a fulfillment) with the decoder the store uses and,
// beside it, with encoding/json, which it replaced.
//
//	CI=true go test -run '^$' -bench OrderColumnDecode -benchmem ./services/orders/
func BenchmarkOrderColumnDecode(b *testing.B) {
	d, _, o := benchOrder(b)
	var column []byte
	cols := make([]any, 20)
	for i := range cols[:19] {
		cols[i] = new(any)
	}
	cols[19] = &column
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := d.Pool.QueryRow(ctx, GetOrderPostgresSQL, o.ID, o.SellerID).Scan(cols...); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		unmarshal func([]byte, any) error
	}{{"go-json", gojson.Unmarshal}, {"encoding-json", json.Unmarshal}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(column)))
			for b.Loop() {
				var r orderJSON
				if err := c.unmarshal(column, &r); err != nil || len(r.Items) != 2 || len(r.Fulfillments) != 1 {
					b.Fatalf("%d items, %d fulfillments, %v", len(r.Items), len(r.Fulfillments), err)
				}
			}
		})
	}
}

// BenchmarkGetOrderPostgres is the store's order read on PostgreSQL, the
// statement's round trip included: its allocations are the store's share of
// core's on the hottest read.
//
//	CI=true go test -run '^$' -bench GetOrderPostgres -benchmem ./services/orders/
func BenchmarkGetOrderPostgres(b *testing.B) {
	_, st, o := benchOrder(b)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b.ReportAllocs()
	for b.Loop() {
		got, err := st.GetOrder(ctx, o.SellerID, o.ID)
		if err != nil || len(got.Items) != 2 {
			b.Fatalf("%v %v", got, err)
		}
	}
}

// BenchmarkGetOrderPostgresConcurrent is the same read from many callers at
// once, as core serves it under load: the reads that arrive while one round
// trip is out go together in the next (reads/roundtrip).
//
//	CI=true go test -run '^$' -bench GetOrderPostgresConcurrent -benchmem ./services/orders/
func BenchmarkGetOrderPostgresConcurrent(b *testing.B) {
	_, st, o := benchOrder(b)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	before := st.orderReads.Stats()
	b.ReportAllocs()
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			got, err := st.GetOrder(ctx, o.SellerID, o.ID)
			if err != nil || len(got.Items) != 2 {
				b.Errorf("%v %v", got, err)
				return
			}
		}
	})
	after := st.orderReads.Stats()
	b.ReportMetric(float64(after.Reads-before.Reads)/float64(after.RoundTrips-before.RoundTrips), "reads/roundtrip")
}

// benchOrder stores an order with two items and a fulfillment on a fresh
// PostgreSQL database.
func benchOrder(b *testing.B) (*db.DB, *EntStore, *Order) {
	d := dbtest.Postgres(b)
	createSellers(b, d.Ent, "sel_a")
	st := NewEntStore(d)
	o := fixture("ord_bench", "sel_a", StatusShipped, t0)
	mustCreate(b, st, o)
	return d, st, o
}
