package gateway_test

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

// The shipping reads against the signed order read through gateway → core
// on PostgreSQL, each paced at 500 requests per second: the quotes and the
// pickup slots are computed from tables held in memory, so they should cost
// about what the order read costs (the goal: p50 and p99 within 1.2× of it).
//
//	CI=true go test ./gateway -run '^$' -bench ShippingReadsAt500 -benchtime 1x
//
// A p99 over a few thousand requests moves with whatever else the machine
// does during those seconds, so the routes take turns: three rounds of 5 s
// per route, each round in a rotated order, the latencies of a route pooled
// over its rounds. Reported per route: p50 and p99 in ms, and each as a
// ratio to the order read's.
func BenchmarkShippingReadsAt500(b *testing.B) {
	env := testenv.Start(b, testenv.Options{Postgres: true, Unlimited: true})
	c := env.Client(b, "full", 0)
	order := firstOrderID(b, c, "status=READY_TO_SHIP&limit=1")
	routes := []struct{ name, path string }{
		{"order", "/open/v1/orders/" + order},
		{"options", "/open/v1/shipping/options?origin_city=Makati&destination_city=Cebu+City&actual_weight=1200&length=30&width=20&height=20"},
		{"eligible-dates", "/open/v1/orders/" + order + "/shipment/eligible-dates"},
	}
	const rate, seconds, rounds = 500, 5, 3
	for b.Loop() {
		took := make([][]time.Duration, len(routes))
		for round := range rounds {
			for k := range routes {
				i := (k + round) % len(routes)
				took[i] = append(took[i], paced(b, c, routes[i].path, rate, seconds*time.Second)...)
			}
		}
		order50, order99 := percentile(took[0], 0.50), percentile(took[0], 0.99)
		for i, rt := range routes {
			p50, p99 := percentile(took[i], 0.50), percentile(took[i], 0.99)
			b.ReportMetric(p50, rt.name+"-p50-ms")
			b.ReportMetric(p99, rt.name+"-p99-ms")
			b.Logf("%s: %d requests at %d/s: p50 %.2f ms (%.2f× the order read), p99 %.2f ms (%.2f×)",
				rt.name, len(took[i]), rate, p50, p50/order50, p99, p99/order99)
		}
	}
}

// paced sends a signed GET of path every 1/rate seconds for d, each from its
// own goroutine (an open model: a slow answer does not slow the sender), and
// returns every latency.
func paced(b *testing.B, c *sdk.Client, path string, rate int, d time.Duration) []time.Duration {
	var (
		mu   sync.Mutex
		took []time.Duration
		wg   sync.WaitGroup
	)
	tick := time.NewTicker(time.Second / time.Duration(rate))
	defer tick.Stop()
	end := time.Now().Add(d)
	for now := range tick.C {
		if now.After(end) {
			break
		}
		wg.Go(func() {
			start := time.Now()
			r, err := c.DoSigned(ctx, sdk.Request{Method: "GET", Path: path})
			elapsed := time.Since(start)
			if err != nil || r.Status != 200 {
				b.Errorf("%s: %v %v", path, err, r)
				return
			}
			mu.Lock()
			took = append(took, elapsed)
			mu.Unlock()
		})
	}
	wg.Wait()
	return took
}

func percentile(took []time.Duration, p float64) float64 {
	s := append([]time.Duration(nil), took...)
	slices.Sort(s)
	return float64(s[min(len(s)-1, int(p*float64(len(s))))].Microseconds()) / 1000
}
