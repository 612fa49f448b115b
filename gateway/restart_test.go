package gateway_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/gateway/admission/admissiontest"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

// An empty Redis restart forgets every nonce. A request captured before it
// and replayed after it, timestamp still inside the window, is refused with
// 401 TIMESTAMP_EXPIRED: it was signed before the restarted server's memory
// began. Requests signed after the restart pass, through the same gateway
// and its same store, which reconnects by itself.
func TestReplayAfterEmptyRedisRestart(t *testing.T) {
	server := admissiontest.StartRedisServer(t)
	store, err := admission.NewRedis(admission.RedisConfig{URL: "redis://" + server.Addr})
	if err != nil {
		t.Fatal(err)
	}
	env := testenv.Start(t, testenv.Options{Admission: store})
	env.Clock.Set(time.Now())
	full := env.Client(t, "full", -1)
	captured, err := full.NewRequest(context.Background(), sdk.Request{Method: "GET", Path: "/open/v1/usage"})
	if err != nil {
		t.Fatal(err)
	}
	if r := do(t, captured.Clone(context.Background())); r.Status != http.StatusOK {
		t.Fatalf("original: %d %s", r.Status, r.Body)
	}
	expectError(t, do(t, captured.Clone(context.Background())), 401, "NONCE_REUSED")

	// Restart in a later second than the capture was signed in.
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second)))
	server.Restart(t)
	env.Clock.Set(time.Now())
	// The store's connection died with the server: until it has redialled,
	// requests answer 503 (fail closed). Give it 10 s.
	untilConnected := func(send func() *sdk.Response) *sdk.Response {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			if r := send(); r.Status != http.StatusServiceUnavailable || time.Now().After(deadline) {
				return r
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	r := untilConnected(func() *sdk.Response { return do(t, captured.Clone(context.Background())) })
	expectError(t, r, 401, "TIMESTAMP_EXPIRED")
	r = untilConnected(func() *sdk.Response {
		return send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/usage"})
	})
	if r.Status != http.StatusOK {
		t.Fatalf("a request signed after the restart: %d %s", r.Status, r.Body)
	}
}
