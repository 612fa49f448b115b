package main_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// A delivery cut off by a worker's SIGKILL is delivered by the next worker,
// with the same webhook-id: nothing is lost (at least once).
func TestWebhookDeliverySurvivesAWorkerKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the binaries")
	}
	pl := startPlatform(t, "MP_WEBHOOK_ALLOW_CIDRS=127.0.0.0/8")
	workerMetrics := freeAddr(t)

	// The receiver holds the first delivery open (the worker is killed
	// mid-flight) and answers the others 200.
	var mu sync.Mutex
	var ids []string
	release := make(chan struct{})
	arrived := make(chan struct{}, 8)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		ids = append(ids, r.Header.Get("webhook-id"))
		first := len(ids) == 1
		mu.Unlock()
		arrived <- struct{}{}
		if first {
			<-release
		}
	})}
	go func() { _ = srv.Serve(lis) }()
	defer srv.Close()
	defer close(release)

	app, err := pl.creds.Client("full", -1)
	if err != nil {
		t.Fatal(err)
	}
	seller, err := pl.creds.Client("full", 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r, err := app.Do(ctx, "POST", "/open/v1/webhooks",
		[]byte(`{"eventType":"order.cancelled","callbackUrl":"http://`+lis.Addr().String()+`/hook"}`))
	if err != nil || r.Status != 201 {
		t.Fatalf("subscribe: %v %v", err, r)
	}
	var list []struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	r, err = seller.Do(ctx, "GET", "/open/v1/orders?status=READY_TO_SHIP&limit=1", nil)
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
