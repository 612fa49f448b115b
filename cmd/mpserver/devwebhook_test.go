package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/sdk/webhook"
)

// The dev role delivers webhooks with its in-process worker, to a receiver
// on this machine (loopback is allowed in dev), signed with the secret the
// subscription showed.
func TestDevDeliversWebhooks(t *testing.T) {
	dir := t.TempDir()
	internal := freeLocalAddr(t)
	stop := startRole(t, "dev", "--data-dir", dir, "--http-addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0", "--metrics-addr", internal, "--log-level", "error")
	ctx := context.Background()
	waitStatusWithin(t, "http://"+internal+"/readyz", http.StatusOK, time.Minute)
	creds, err := sdk.LoadCredentials(filepath.Join(dir, "sandbox-credentials.json"))
	if err != nil {
		t.Fatal(err)
	}

	type delivery struct {
		header http.Header
		body   []byte
	}
	got := make(chan delivery, 4)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- delivery{r.Header.Clone(), body}
	})}
	go func() { _ = srv.Serve(lis) }()
	defer srv.Close()

	app, err := creds.Client("full", -1)
	if err != nil {
		t.Fatal(err)
	}
	var sub struct{ Secret string }
	if _, err := app.Call(ctx, "POST", "/open/v1/webhooks",
		map[string]string{"eventType": "order.cancelled", "callbackUrl": "http://" + lis.Addr().String() + "/hooks"}, &sub); err != nil || sub.Secret == "" {
		t.Fatalf("subscribe: %v", err)
	}
	seller, err := creds.Client("full", 0)
	if err != nil {
		t.Fatal(err)
	}
	var orders []struct{ ID string }
	if _, err := seller.Call(ctx, "GET", "/open/v1/orders?status=READY_TO_SHIP&limit=1", nil, &orders); err != nil || len(orders) == 0 {
		t.Fatalf("orders: %v", err)
	}
	if _, err := seller.Call(ctx, "POST", "/open/v1/orders/"+orders[0].ID+"/cancel", nil, nil); err != nil {
		t.Fatalf("cancel: %v", err)
	}
	select {
	case d := <-got:
		if err := webhook.Verify(sub.Secret, d.header, d.body, time.Now(), 0); err != nil {
			t.Errorf("the delivery does not verify: %v", err)
		}
		if !strings.Contains(string(d.body), orders[0].ID) {
			t.Errorf("delivered %s", d.body)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("dev delivered nothing")
	}
	stop()
}
