package orders_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/sandbox/ordergen"
)

// BenchmarkBulkCancel measures bulk cancels of 50 and of 1,000 fresh
// READY_TO_SHIP orders on PostgreSQL, through the gateway and core as
// deployed (in one process, over loopback HTTP and gRPC), and reports the
// median and 95th percentile of the request's wall time.
//
//	CI=true go test -run '^$' -bench BulkCancel -benchtime 20x ./services/orders/
func BenchmarkBulkCancel(b *testing.B) {
	for _, n := range []int{50, 1000} {
		b.Run(fmt.Sprintf("orders=%d", n), func(b *testing.B) {
			env := testenv.Start(b, testenv.Options{Postgres: true, Unlimited: true})
			seller := env.Creds.Sellers[0].SellerID
			full := env.Client(b, "full", 0)
			st := orders.NewEntStore(env.DB)
			rng := rand.New(rand.NewPCG(1, 2))
			times := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				batch := make([]*orders.Order, n)
				var body strings.Builder
				body.WriteString(`{"orders":[`)
				for j := range batch {
					o, err := ordergen.Fresh(seller, orders.StatusReadyToShip,
						[]ordergen.Line{{Product: ordergen.Generated(env.Clock.Now(), rng), Quantity: 1}}, nil, env.Clock.Now(), rng)
					if err != nil {
						b.Fatal(err)
					}
					batch[j] = o
					if j > 0 {
						body.WriteByte(',')
					}
					fmt.Fprintf(&body, `{"orderId":%q,"expectedStatus":"READY_TO_SHIP"}`, o.ID)
				}
				body.WriteString(`]}`)
				if err := st.CreateOrders(context.Background(), batch); err != nil {
					b.Fatal(err)
				}
				req := sdk.Request{Method: "POST", Path: "/open/v1/orders/bulk-cancel", Body: []byte(body.String()),
					ExtraHeaders: http.Header{"Idempotency-Key": {fmt.Sprintf("bench-%d-%d", n, i)}}}
				b.StartTimer()
				start := time.Now()
				r, err := full.DoSigned(context.Background(), req)
				times = append(times, time.Since(start))
				if err != nil || r.Status != 200 || !strings.Contains(string(r.Body), fmt.Sprintf(`"succeeded":%d`, n)) {
					b.Fatalf("bulk cancel: %v %d %.300s", err, r.Status, r.Body)
				}
			}
			b.StopTimer()
			reportPercentiles(b, times)
		})
	}
}

func reportPercentiles(b *testing.B, times []time.Duration) {
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	at := func(p float64) float64 {
		return float64(times[min(len(times)-1, int(p*float64(len(times))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.95), "p95-ms")
}
