package main_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/sandbox/ordergen"
)

// A delivery cut off by a worker's SIGKILL is delivered by the next worker,
// with the same webhook-id: nothing is lost (at least once).
func TestWebhookDeliverySurvivesAWorkerKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the binaries")
	}
	// Most of this test is waiting for River's rescuer (every 30 s) and a
	// new leader: it waits beside the run below, on a platform of its own.
	t.Parallel()
	pl := startPlatform(t, "MP_WEBHOOK_ALLOW_CIDRS=127.0.0.0/8")
	workerMetrics := freeAddr(t)

	// The receiver holds the first delivery open (the worker is killed
	// mid-flight) and answers the others 200.
	var mu sync.Mutex
	var ids []string
	release := make(chan struct{})
	arrived := make(chan struct{}, 8)
	defer close(release) // before the receiver closes
	receive(t, pl, func(r *http.Request) {
		mu.Lock()
		ids = append(ids, r.Header.Get("webhook-id"))
		first := len(ids) == 1
		mu.Unlock()
		arrived <- struct{}{}
		if first {
			<-release
		}
	})
	ctx := context.Background()
	seller, err := pl.creds.Client("full", 0)
	if err != nil {
		t.Fatal(err)
	}
	var list []struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	r, err := seller.Do(ctx, "GET", "/open/v1/orders?status=READY_TO_SHIP&limit=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.DecodeList(&list); err != nil || len(list) == 0 {
		t.Fatalf("orders: %v %s", err, r.Body)
	}
	if r, err = seller.Do(ctx, "POST", "/open/v1/orders/"+list[0].ID+"/cancel", nil); err != nil || r.Status != 200 {
		t.Fatalf("cancel: %v %v", err, r)
	}

	workerArgs := []string{"worker", "--metrics-addr", workerMetrics, "--rescue-after", "3s"}
	first := start(t, pl.bin, pl.env, workerArgs...)
	waitArrival(t, arrived)
	if err := first.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	_ = first.Wait()
	start(t, pl.bin, pl.env, workerArgs...)
	waitArrival(t, arrived)

	mu.Lock()
	defer mu.Unlock()
	if len(ids) < 2 || ids[0] == "" || ids[1] != ids[0] {
		t.Fatalf("deliveries carried webhook-id %v, want the killed attempt's id again", ids)
	}
	if !strings.HasPrefix(ids[0], "evt_") {
		t.Fatalf("webhook-id %q is not an event id", ids[0])
	}
}

func waitArrival(t *testing.T, arrived <-chan struct{}) {
	t.Helper()
	select {
	case <-arrived:
	case <-time.After(60 * time.Second):
		t.Fatal("no delivery arrived")
	}
}

// A run of 10,000 events across a worker's SIGKILL and restart: every
// event arrives (none lost); the ones delivered twice are the attempts in
// flight or not yet marked done at the kill, which receivers deduplicate by
// webhook-id. The counts are logged for the operations figures:
//
//	CI=true go test -run TestWebhookRunSurvivesAWorkerKill -v ./cmd/mpserver/
func TestWebhookRunSurvivesAWorkerKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the binaries")
	}
	// Beside the test above; its platform, database and ports are its own.
	t.Parallel()
	const total = 10_000
	pl := startPlatform(t, "MP_WEBHOOK_ALLOW_CIDRS=127.0.0.0/8")
	ctx := context.Background()

	var mu sync.Mutex
	seen := map[string]int{}
	arrivals := 0
	// reached waits up to d for n distinct events to arrive.
	reached := func(n int, d time.Duration) bool {
		for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			mu.Lock()
			got := len(seen)
			mu.Unlock()
			if got >= n {
				return true
			}
		}
		return false
	}
	receive(t, pl, func(r *http.Request) {
		mu.Lock()
		seen[r.Header.Get("webhook-id")]++
		arrivals++
		mu.Unlock()
	})
	ids := createOrders(t, pl, total)
	seller, err := pl.creds.Client("full", 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < total; i += 1000 {
		var body strings.Builder
		body.WriteString(`{"orders":[`)
		for j, id := range ids[i:min(i+1000, total)] {
			if j > 0 {
				body.WriteByte(',')
			}
			fmt.Fprintf(&body, `{"orderId":%q}`, id)
		}
		body.WriteString(`]}`)
		r, err := seller.DoSigned(ctx, sdk.Request{Method: "POST", Path: "/open/v1/orders/bulk-cancel", Body: []byte(body.String()),
			ExtraHeaders: http.Header{"Idempotency-Key": {fmt.Sprintf("run-%d", i)}}})
		if err != nil || r.Status != 200 {
			t.Fatalf("bulk cancel: %v %v", err, r)
		}
	}

	workerArgs := []string{"worker", "--metrics-addr", freeAddr(t), "--rescue-after", "3s"}
	first := start(t, pl.bin, pl.env, workerArgs...)
	if !reached(total/3, 2*time.Minute) {
		t.Fatal("the first worker did not deliver a third of the run")
	}
	if err := first.Process.Kill(); err != nil { // SIGKILL, mid-run
		t.Fatal(err)
	}
	_ = first.Wait()
	mu.Lock()
	atKill := len(seen)
	mu.Unlock()
	start(t, pl.bin, pl.env, workerArgs...)
	reached(total, 3*time.Minute)
	mu.Lock()
	defer mu.Unlock()
	duplicated := 0
	for _, n := range seen {
		duplicated += n - 1
	}
	t.Logf("%d events: %d delivered before the kill, %d lost, %d duplicated (%d arrivals)",
		total, atKill, total-len(seen), duplicated, arrivals)
	if len(seen) != total {
		t.Fatalf("%d of %d events lost", total-len(seen), total)
	}
}

// createOrders writes n ready-to-ship orders of the sandbox's first seller
// straight to the database (the run is about deliveries, not checkout).
func createOrders(t *testing.T, pl platform, n int) []string {
	t.Helper()
	var dsn string
	for _, kv := range pl.env {
		if v, ok := strings.CutPrefix(kv, "MP_DATABASE_URL="); ok {
			dsn = v
		}
	}
	d, err := db.Open(context.Background(), db.Config{Driver: db.DriverPostgres, DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	st := orders.NewEntStore(d)
	rng := rand.New(rand.NewPCG(1, 2))
	now := time.Now()
	ids := make([]string, 0, n)
	for start := 0; start < n; start += 1000 {
		batch := make([]*orders.Order, 0, 1000)
		for range min(1000, n-start) {
			o, err := ordergen.Fresh(pl.creds.Sellers[0].SellerID, orders.StatusReadyToShip,
				[]ordergen.Line{{Product: ordergen.Generated(now, rng), Quantity: 1}}, nil, now, rng)
			if err != nil {
				t.Fatal(err)
			}
			batch = append(batch, o)
			ids = append(ids, o.ID)
		}
		if err := st.CreateOrders(context.Background(), batch); err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

// receive starts a loopback receiver that hands each delivery to onDelivery
// and answers 200 when it returns, and subscribes the sandbox's full app to
// order.cancelled there.
func receive(t *testing.T, pl platform, onDelivery func(*http.Request)) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		onDelivery(r)
	})}
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(func() { _ = srv.Close() })
	app, err := pl.creds.Client("full", -1)
	if err != nil {
		t.Fatal(err)
	}
	r, err := app.Do(context.Background(), "POST", "/open/v1/webhooks",
		[]byte(`{"eventType":"order.cancelled","callbackUrl":"http://`+lis.Addr().String()+`/hook"}`))
	if err != nil || r.Status != 201 {
		t.Fatalf("subscribe: %v %v", err, r)
	}
}
