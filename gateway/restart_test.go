package gateway_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/redis/rueidis"

	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/sdk"
	"github.com/mallplatform/partnerapi/internal/testenv"
)

// An empty Redis restart forgets every nonce. A request captured before it
// and replayed after it, timestamp still inside the window, is refused with
// 401 TIMESTAMP_EXPIRED: its timestamp predates the store's new epoch.
// Requests signed after the restart pass. The restart is simulated by
// deleting every key of the gateway's prefix (FLUSHDB would disturb other
// tests sharing the server).
func TestReplayAfterEmptyRedisRestart(t *testing.T) {
	addr := redisAddrForTests()
	prefix := "mp-test-restart:" + ids.Token(5) + ":"
	store, err := admission.NewRedis(admission.RedisConfig{URL: "redis://" + addr, Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := store.Ping(ctx); err != nil {
		skipWithoutRedis(t, err)
	}
	env := testenv.Start(t, testenv.Options{Admission: store})
	full := env.Client(t, "full", -1)
	captured, err := full.NewRequest(context.Background(), sdk.Request{Method: "GET", Path: "/open/v1/usage"})
	if err != nil {
		t.Fatal(err)
	}
	if r := do(t, captured.Clone(context.Background())); r.Status != http.StatusOK {
		t.Fatalf("original: %d %s", r.Status, r.Body)
	}
	expectError(t, do(t, captured.Clone(context.Background())), 401, "NONCE_REUSED")

	flushPrefix(t, addr, prefix)
	env.Clock.Advance(2 * time.Second)
	r := do(t, captured.Clone(context.Background()))
	expectError(t, r, 401, "TIMESTAMP_EXPIRED")
	if r2 := send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/usage"}); r2.Status != http.StatusOK {
		t.Fatalf("a request signed after the restart: %d %s", r2.Status, r2.Body)
	}
}

// flushPrefix deletes every key under prefix: the gateway's whole memory.
func flushPrefix(t *testing.T, addr, prefix string) {
	t.Helper()
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{addr}, ForceSingleClient: true, DisableCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	var keys []string
	for cursor := uint64(0); ; {
		e, err := c.Do(ctx, c.B().Scan().Cursor(cursor).Match(prefix+"*").Count(1000).Build()).AsScanEntry()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, e.Elements...)
		if cursor = e.Cursor; cursor == 0 {
			break
		}
	}
	if len(keys) == 0 {
		t.Fatal("nothing stored under the prefix")
	}
	if err := c.Do(ctx, c.B().Del().Key(keys...).Build()).Error(); err != nil {
		t.Fatal(err)
	}
}
