package gateway_test

import (
	"slices"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/catalog"
)

// Bulk create against one product at a time, both through gateway → core on
// PostgreSQL, as a partner sends them (signed; the bulk body gzip-compressed,
// as 5,000 realistic items are over the 1 MB cap in plain JSON). Each item:
// two variants, three images, two attribute values.
//
//	CI=true go test ./gateway -run '^$' -bench 'BulkCreate|SingleCreates' -benchtime 10x
//
// Reported: p50 and p95 of one 5,000-item call (ms), and the time of 5,000
// single creates sent one after the other. The split into validation,
// database and rendering is BenchmarkBulkCreatePhases in services/catalog.
func BenchmarkBulkCreate(b *testing.B) {
	env := testenv.Start(b, testenv.Options{Postgres: true, Unlimited: true})
	c := env.Client(b, "full", 0)
	var took []time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		body := bulkBody(n*catalog.MaxBulkCreate, catalog.MaxBulkCreate)
		n++
		b.StartTimer()
		start := time.Now()
		r, err := c.DoSigned(ctx, sdk.Request{Method: "POST", Path: "/open/v1/products/bulk", Body: body, Gzip: true})
		took = append(took, time.Since(start))
		if err != nil || r.Status != 200 {
			b.Fatalf("%v %d %.300s", err, r.Status, r.Body)
		}
	}
	reportPercentiles(b, took)
}

func BenchmarkSingleCreates(b *testing.B) {
	env := testenv.Start(b, testenv.Options{Postgres: true, Unlimited: true})
	c := env.Client(b, "full", 0)
	n := 1_000_000
	for b.Loop() {
		for range catalog.MaxBulkCreate {
			n++
			r, err := c.DoSigned(ctx, sdk.Request{Method: "POST", Path: "/open/v1/products", Body: []byte(bulkItem(n))})
			if err != nil || r.Status != 201 {
				b.Fatalf("%v %d %.300s", err, r.Status, r.Body)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/5000-products")
}

func reportPercentiles(b *testing.B, took []time.Duration) {
	slices.Sort(took)
	at := func(p float64) float64 {
		return float64(took[min(len(took)-1, int(p*float64(len(took))))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.95), "p95-ms")
	b.Logf("%d calls: p50 %.0f ms, p95 %.0f ms, max %.0f ms", len(took), at(0.5), at(0.95), at(1))
}
