package shipping_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/shipping/carrier/simulated"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
)

// The label routes through gateway → core on PostgreSQL, one request at a
// time, signed as a partner signs them: one label (the goal: p95
// under 20 ms) and 50 labels in one PDF (under 500 ms).
//
//	CI=true go test ./services/shipping -run '^$' -bench Label -benchtime 200x
//
// Reported: p50 and p95 in ms of each route.
func BenchmarkLabel(b *testing.B) {
	env := testenv.Start(b, testenv.Options{Postgres: true, Unlimited: true})
	ctx := context.Background()
	seller := env.Creds.Sellers[0].SellerID
	fixtures := make([]*orders.Order, 50)
	ids := make([]string, len(fixtures))
	for i := range fixtures {
		ids[i] = fmt.Sprintf("ord_label_bench_%02d", i)
		fixtures[i] = labelOrder(ids[i], seller)
		if i%2 == 0 {
			fixtures[i].PaymentStatus = orders.PaymentStatusCOD
		}
	}
	if err := orders.NewEntStore(env.DB).CreateOrders(ctx, fixtures); err != nil {
		b.Fatal(err)
	}
	bk := shipments.NewBooker(shipments.NewEntStore(env.DB), simulated.Name, simulated.New(simulated.Options{}), 0, clock.NewManual(bookedAt))
	for _, o := range fixtures {
		bookWithCourier(b, env.DB, bk, o)
	}
	c := env.Client(b, "full", 0)
	bulk := []byte(`{"orderIds":["` + strings.Join(ids, `","`) + `"]}`)

	b.Run("one", func(b *testing.B) {
		var took []time.Duration
		for b.Loop() {
			took = append(took, timed(b, c, sdk.Request{Method: http.MethodGet, Path: "/open/v1/orders/" + ids[0] + "/shipment/label"}))
		}
		report(b, took)
	})
	b.Run("fifty", func(b *testing.B) {
		var took []time.Duration
		for b.Loop() {
			took = append(took, timed(b, c, sdk.Request{Method: http.MethodPost, Path: "/open/v1/shipments/labels", Body: bulk}))
		}
		report(b, took)
	})
}

func timed(b *testing.B, c *sdk.Client, req sdk.Request) time.Duration {
	start := time.Now()
	resp, err := c.DoSigned(context.Background(), req)
	took := time.Since(start)
	if err != nil || resp.Status != http.StatusOK {
		b.Fatalf("%s %s: %v %v", req.Method, req.Path, err, resp)
	}
	return took
}

func report(b *testing.B, took []time.Duration) {
	slices.Sort(took)
	at := func(q float64) float64 {
		return float64(took[min(len(took)-1, int(q*float64(len(took))))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.95), "p95-ms")
}
