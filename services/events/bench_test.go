package events_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/services/events"
)

// BenchmarkFeedDepth reads a page of 100 events of a seller holding 100,000
// on PostgreSQL, through the gateway and core: the first page, the page at
// the end reached with the cursor, and the page at the end reached with
// created_after. It reports the median and 95th percentile of each.
//
//	CI=true go test -run '^$' -bench FeedDepth -benchtime 50x ./services/events/
func BenchmarkFeedDepth(b *testing.B) {
	const depth = 100_000
	env := testenv.Start(b, testenv.Options{Postgres: true, Unlimited: true})
	ctx := context.Background()
	seller := env.Creds.Sellers[0].SellerID
	st := events.NewEntStore(env.DB)
	start := env.Clock.Now().Add(-24 * time.Hour)
	batch := make([]events.Event, 0, 1000)
	for i := 0; i < depth; i++ {
		batch = append(batch, events.Event{ID: fmt.Sprintf("evt_bench%07d", i), SellerID: seller, Type: "order.created",
			ResourceID: fmt.Sprintf("ord_bench%07d", i), Data: []byte(`{"id":"x"}`), CreatedAt: start.Add(time.Duration(i) * time.Second / 2)})
		if len(batch) == cap(batch) {
			if err := st.AppendMany(ctx, batch, env.Clock.Now()); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	if _, err := env.DB.SQL.ExecContext(ctx, "VACUUM ANALYZE events"); err != nil {
		b.Fatal(err)
	}
	full := env.Client(b, "full", 0)
	get := func(query string) feedPage {
		r := get(b, full, "/open/v1/events", query)
		var p feedPage
		if r.Status != 200 || json.Unmarshal(r.Body, &p) != nil {
			b.Fatalf("feed: %d %.300s", r.Status, r.Body)
		}
		return p
	}
	// The cursor at the end: walk the feed once.
	cursor, pages := "", 0
	for {
		q := "limit=100&type=order.created"
		if cursor != "" {
			q += "&cursor=" + url.QueryEscape(cursor)
		}
		p := get(q)
		pages++
		if p.Meta.NextCursor == "" {
			break
		}
		if pages == depth/100-1 {
			cursor = p.Meta.NextCursor
			break
		}
		cursor = p.Meta.NextCursor
	}
	late := url.QueryEscape(start.Add(time.Duration(depth-100) * time.Second / 2).Format(time.RFC3339Nano))
	cases := []struct{ name, query string }{
		{"first", "limit=100&type=order.created"},
		{"cursor-at-100000", "limit=100&type=order.created&cursor=" + url.QueryEscape(cursor)},
		{"created_after-at-100000", "limit=100&type=order.created&created_after=" + late},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			times := make([]time.Duration, 0, b.N)
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				if p := get(c.query); len(p.Data) != 100 {
					b.Fatalf("%s: %d events", c.name, len(p.Data))
				}
				times = append(times, time.Since(t0))
			}
			sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
			at := func(p float64) float64 {
				return float64(times[min(len(times)-1, int(p*float64(len(times))))]) / float64(time.Millisecond)
			}
			b.ReportMetric(at(0.5), "p50-ms")
			b.ReportMetric(at(0.95), "p95-ms")
		})
	}
}
