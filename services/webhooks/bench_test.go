package webhooks_test

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/sandbox/ordergen"
)

// BenchmarkDeliveries cancels b.N orders (bulk cancels of 1,000, through the
// gateway and core) with one subscription to order.cancelled, and measures
// the worker on PostgreSQL delivering them to a loopback HTTPS receiver:
// deliveries per second, and the time from each cancellation's commit to
// the receiver's first byte (p50, p95) — for bursts of 1,000, queueing
// included. BenchmarkDeliveryLatency measures the latter on a paced stream.
//
//	CI=true go test -run '^$' -bench Deliveries -benchtime 5000x ./services/webhooks/
func BenchmarkDeliveries(b *testing.B) { benchDeliveries(b, 1000, 0) }

// BenchmarkDeliveryLatency cancels b.N orders one at a time, 20 a second,
// and reports commit-to-first-byte p50 and p95 without a backlog.
//
//	CI=true go test -run '^$' -bench DeliveryLatency -benchtime 200x ./services/webhooks/
func BenchmarkDeliveryLatency(b *testing.B) { benchDeliveries(b, 1, 50*time.Millisecond) }

func benchDeliveries(b *testing.B, batchSize int, pace time.Duration) {
	env := testenv.Start(b, testenv.Options{Postgres: true, Unlimited: true, WebhookAllow: loopback})
	var mu sync.Mutex
	arrived := map[string]time.Time{}
	all := make(chan struct{})
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		at := time.Now()
		var ev struct {
			Data struct{ ID string } `json:"data"`
		}
		_ = json.NewDecoder(r.Body).Decode(&ev)
		mu.Lock()
		if _, dup := arrived[ev.Data.ID]; !dup {
			arrived[ev.Data.ID] = at
			if len(arrived) == b.N {
				close(all)
			}
		}
		mu.Unlock()
	}))
	defer srv.Close()
	full := env.Client(b, "full", -1)
	r, err := full.DoSigned(context.Background(), sdk.Request{Method: "POST", Path: "/open/v1/webhooks",
		Body: []byte(fmt.Sprintf(`{"eventType":"order.cancelled","callbackUrl":%q}`, srv.URL+"/in"))})
	if err != nil || r.Status != 201 {
		b.Fatalf("subscribe: %v %v", err, r)
	}
	// The orders, created directly (the figure is the delivery, not the
	// checkout).
	seller := env.Creds.Sellers[0].SellerID
	st := orders.NewEntStore(env.DB)
	rng := rand.New(rand.NewPCG(1, 2))
	ids := make([]string, b.N)
	for start := 0; start < b.N; start += 1000 {
		batch := make([]*orders.Order, 0, 1000)
		for i := start; i < min(start+1000, b.N); i++ {
			o, err := ordergen.Fresh(seller, orders.StatusReadyToShip,
				[]ordergen.Line{{Product: ordergen.Generated(env.Clock.Now(), rng), Quantity: 1}}, nil, env.Clock.Now(), rng)
			if err != nil {
				b.Fatal(err)
			}
			batch = append(batch, o)
			ids[i] = o.ID
		}
		if err := st.CreateOrders(context.Background(), batch); err != nil {
			b.Fatal(err)
		}
	}
	// The worker as the role runs it: deliveries on their queue, 100 at once.
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	startWorker(b, env, pool)

	seller0 := env.Client(b, "full", 0)
	committed := map[string]time.Time{}
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i += batchSize {
		if pace > 0 && i > 0 {
			time.Sleep(pace)
		}
		var body strings.Builder
		body.WriteString(`{"orders":[`)
		for j := i; j < min(i+batchSize, b.N); j++ {
			if j > i {
				body.WriteByte(',')
			}
			fmt.Fprintf(&body, `{"orderId":%q}`, ids[j])
		}
		body.WriteString(`]}`)
		// The request's start bounds the commit from before: the figure
		// includes the cancellation's own few milliseconds.
		sent := time.Now()
		r, err := seller0.DoSigned(context.Background(), sdk.Request{Method: "POST", Path: "/open/v1/orders/bulk-cancel",
			Body: []byte(body.String()), ExtraHeaders: http.Header{"Idempotency-Key": {fmt.Sprintf("bench-%d", i)}}})
		if err != nil || r.Status != 200 {
			b.Fatalf("bulk cancel: %v %v", err, r)
		}
		mu.Lock()
		for j := i; j < min(i+batchSize, b.N); j++ {
			committed[ids[j]] = sent
		}
		mu.Unlock()
	}
	select {
	case <-all:
	case <-time.After(5 * time.Minute):
		mu.Lock()
		b.Fatalf("%d of %d deliveries arrived", len(arrived), b.N)
	}
	b.StopTimer()
	mu.Lock()
	defer mu.Unlock()
	var last time.Time
	lat := make([]time.Duration, 0, b.N)
	for id, at := range arrived {
		lat = append(lat, at.Sub(committed[id]))
		if at.After(last) {
			last = at
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(b.N)/last.Sub(start).Seconds(), "deliveries/s")
	b.ReportMetric(float64(lat[len(lat)/2])/float64(time.Millisecond), "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*95/100])/float64(time.Millisecond), "p95-ms")
}
