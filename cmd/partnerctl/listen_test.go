package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/order"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/sdk/webhook"
)

// listen forwards each new event of the feed once, signed so that the
// receiver verifies it with the secret listen was given.
func TestListenForwardsTheFeed(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	secret, _ := webhook.NewSecret()
	var mu sync.Mutex
	var got [][]byte
	var verified []error
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, body)
		verified = append(verified, webhook.Verify(secret, r.Header, body, time.Now(), 0))
		mu.Unlock()
	}))
	defer srv.Close()
	var out bytes.Buffer
	client := env.Client(t, "full", 0)
	ctx, cancel := context.WithCancel(context.Background())
	polls := make(chan struct{})
	l := &listener{client: client, forward: srv.URL + "/hooks", secret: secret, typ: "order.cancelled",
		since: env.Clock.Now().Add(-time.Second), interval: 20 * time.Millisecond, http: srv.Client(), out: &out, seen: map[string]bool{},
		polled: func() {
			select {
			case polls <- struct{}{}:
			case <-ctx.Done():
			}
		}}
	done := make(chan error, 1)
	go func() { done <- l.run(ctx) }()
	// awaitPolls returns once the listener has completed n more polls.
	awaitPolls := func(n int) {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for range n {
			select {
			case <-polls:
			case err := <-done:
				t.Fatalf("listen stopped: %v", err)
			case <-timeout:
				t.Fatal("the listener stopped polling")
			}
		}
	}

	o, err := env.DB.Ent.Order.Query().Where(order.SellerID(env.Creds.Sellers[0].SellerID),
		order.StatusIn(order.StatusPending, order.StatusPaid, order.StatusReadyToShip)).Order(ent.Asc(order.FieldID)).First(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := client.DoSigned(ctx, sdk.Request{Method: "POST", Path: "/open/v1/orders/" + o.ID + "/cancel"}); err != nil || r.Status != 200 {
		t.Fatalf("cancel: %v %v", err, r)
	}
	// The event is in the feed once the cancel is answered (it is written in
	// the cancel's transaction). Of the next two polls to complete, the
	// second began after the answer, so the event has been forwarded.
	awaitPolls(2)
	// Two more polls that each read the event again: it is not forwarded
	// twice.
	awaitPolls(2)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || !strings.Contains(string(got[0]), o.ID) || !strings.Contains(string(got[0]), `"type":"order.cancelled"`) {
		t.Fatalf("forwarded %d events: %q", len(got), got)
	}
	if verified[0] != nil {
		t.Errorf("the forwarded event does not verify: %v", verified[0])
	}
	if !strings.Contains(out.String(), "order.cancelled -> 200") {
		t.Errorf("output: %q", out.String())
	}
}
