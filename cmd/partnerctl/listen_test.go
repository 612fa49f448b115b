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
	l := &listener{client: client, forward: srv.URL + "/hooks", secret: secret, typ: "order.cancelled",
		since: env.Clock.Now().Add(-time.Second), interval: 20 * time.Millisecond, http: srv.Client(), out: &out, seen: map[string]bool{}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.run(ctx) }()

	o, err := env.DB.Ent.Order.Query().Where(order.SellerID(env.Creds.Sellers[0].SellerID),
		order.StatusIn(order.StatusPending, order.StatusPaid, order.StatusReadyToShip)).Order(ent.Asc(order.FieldID)).First(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := client.DoSigned(ctx, sdk.Request{Method: "POST", Path: "/open/v1/orders/" + o.ID + "/cancel"}); err != nil || r.Status != 200 {
		t.Fatalf("cancel: %v %v", err, r)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // more polls: nothing is forwarded twice
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
