package admission_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/rueidis"

	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/gateway/admission/admissiontest"
)

// runID keeps keys of concurrent test runs on one Redis apart.
var runID = func() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}()

// redisAddr returns the Redis the tests use. A developer without Redis gets
// a skip; CI, where Redis is part of the contract, gets a failure.
func redisAddr(tb testing.TB) string {
	tb.Helper()
	addr := os.Getenv("REDIS_ADDR")
	if addr == "" {
		addr = "127.0.0.1:6379"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := ping(ctx, addr); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("redis at %s does not answer: %v", addr, err)
		}
		tb.Skipf("redis at %s does not answer (%v); set REDIS_ADDR or start redis-server", addr, err)
	}
	return addr
}

// testPrefix is the same for every call within one test, so that two stores
// made for it share state, and different for every other test and run.
func testPrefix(tb testing.TB) string {
	sum := sha256.Sum256([]byte(tb.Name()))
	return "mptest:" + runID + ":" + hex.EncodeToString(sum[:6]) + ":"
}

// newRedisStore returns a store with its own client on the test's prefix and
// removes the prefix's keys when the test ends, since the Redis is shared.
func newRedisStore(tb testing.TB, addr string) *admission.Redis {
	tb.Helper()
	prefix := testPrefix(tb)
	s, err := admission.NewRedis(admission.RedisConfig{Addr: addr, Prefix: prefix})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { deleteKeys(tb, addr, prefix) })
	return s
}

// dial returns a plain client for checking, inspecting and cleaning up the
// server.
func dial(addr string) (rueidis.Client, error) {
	return rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{addr}, ForceSingleClient: true, DisableCache: true,
		Dialer: net.Dialer{Timeout: time.Second}})
}

func client(tb testing.TB, addr string) rueidis.Client {
	tb.Helper()
	c, err := dial(addr)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func ping(ctx context.Context, addr string) error {
	c, err := dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Do(ctx, c.B().Ping().Build()).Error()
}

func deleteKeys(tb testing.TB, addr, prefix string) {
	c := client(tb, addr)
	defer c.Close()
	ctx := context.Background()
	var keys []string
	for cursor := uint64(0); ; {
		e, err := c.Do(ctx, c.B().Scan().Cursor(cursor).Match(prefix+"*").Count(1000).Build()).AsScanEntry()
		if err != nil {
			tb.Logf("cleaning %s*: %v", prefix, err)
			return
		}
		keys = append(keys, e.Elements...)
		if cursor = e.Cursor; cursor == 0 {
			break
		}
	}
	for len(keys) > 0 {
		n := min(len(keys), 500)
		c.Do(ctx, c.B().Unlink().Key(keys[:n]...).Build())
		keys = keys[n:]
	}
}

func TestRedisContract(t *testing.T) {
	addr := redisAddr(t)
	newStore := func(t *testing.T) admission.Store { return newRedisStore(t, addr) }
	admissiontest.Run(t, newStore)
	admissiontest.RunShared(t, newStore)
}

func TestRedisConfigValidate(t *testing.T) {
	shared := client(t, redisAddr(t))
	defer shared.Close()
	for name, c := range map[string]admission.RedisConfig{
		"nothing":         {},
		"client and addr": {Client: shared, Addr: "127.0.0.1:6379"},
		"client and db":   {Client: shared, DB: 2},
		"negative db":     {Addr: "127.0.0.1:6379", DB: -1},
		"hash tag prefix": {Addr: "127.0.0.1:6379", Prefix: "{mp}:"},
		"brace in prefix": {Addr: "127.0.0.1:6379", Prefix: "mp}"},
	} {
		if c.Validate() == nil {
			t.Errorf("%s: accepted", name)
		}
		if _, err := admission.NewRedis(c); err == nil {
			t.Errorf("%s: NewRedis accepted it", name)
		}
	}
	for name, c := range map[string]admission.RedisConfig{
		"addr":   {Addr: "127.0.0.1:6379"},
		"client": {Client: shared, Prefix: "gw:"},
	} {
		if err := c.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestRedisSharedClientStaysOpen(t *testing.T) {
	addr := redisAddr(t)
	shared := client(t, addr)
	defer shared.Close()
	s, err := admission.NewRedis(admission.RedisConfig{Client: shared, Prefix: testPrefix(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { deleteKeys(t, addr, testPrefix(t)) })
	req := admission.Request{NonceKey: admission.NonceKey("acct_1", "app_1", "ab12"), NonceTTL: time.Minute, Now: time.Now()}
	if _, err := s.Admit(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := shared.Do(context.Background(), shared.B().Ping().Build()).Error(); err != nil {
		t.Fatalf("closing the store closed the shared client: %v", err)
	}
}

func TestRedisKeyLayout(t *testing.T) {
	addr := redisAddr(t)
	s := newRedisStore(t, addr)
	defer s.Close()
	prefix := testPrefix(t)
	now := time.Date(2030, 1, 1, 0, 0, 30, 0, time.UTC)
	_, err := s.Admit(context.Background(), admission.Request{
		NonceKey: admission.NonceKey("acct_1", "app_1", "ab12"),
		NonceTTL: 3 * time.Minute,
		Buckets:  []admission.Bucket{{Key: admission.AppBucketKey("acct_1", "app_1"), Limit: 600, Window: time.Minute}},
		Now:      now,
	})
	if err != nil {
		t.Fatal(err)
	}
	c := client(t, addr)
	defer c.Close()
	ctx := context.Background()
	pttl := func(key string) time.Duration {
		ms, err := c.Do(ctx, c.B().Pttl().Key(key).Build()).AsInt64()
		if err != nil {
			t.Fatal(err)
		}
		return time.Duration(ms) * time.Millisecond
	}
	nonceTTL := pttl(prefix + "n:{acct_1}:app_1:ab12")
	if nonceTTL <= 2*time.Minute || nonceTTL > 3*time.Minute {
		t.Errorf("nonce key TTL %v, want about 3m", nonceTTL)
	}
	counter := prefix + "rl:{acct_1}:app:app_1:" + itoa(now.Unix()/60)
	if got, _ := c.Do(ctx, c.B().Get().Key(counter).Build()).ToString(); got != "1" {
		t.Errorf("counter %s = %q, want 1", counter, got)
	}
	// 30s left in the window plus the grace for lagging replicas.
	if ttl := pttl(counter); ttl <= 30*time.Second || ttl > 35*time.Second {
		t.Errorf("counter TTL %v, want between 30s and 35s", ttl)
	}
}

// TestRedisScriptLoadedOnDemand runs against a fresh server that has never
// seen the script, so the first call must fall back from EVALSHA to EVAL.
// miniredis stands in here to avoid flushing the shared server's scripts.
func TestRedisScriptLoadedOnDemand(t *testing.T) {
	mr := miniredis.RunT(t)
	s, err := admission.NewRedis(admission.RedisConfig{Addr: mr.Addr()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	req := admission.Request{
		NonceKey: admission.NonceKey("acct_1", "app_1", "ab12"),
		NonceTTL: time.Minute,
		Buckets:  admission.Limits{}.Buckets(admission.Subject{AccountID: "acct_1", AppID: "app_1"}),
		Now:      time.Now(),
	}
	r, err := s.Admit(context.Background(), req)
	if err != nil || !r.Allowed() {
		t.Fatalf("first call on a fresh server: %+v, %v", r, err)
	}
	if !mr.Exists("mp:n:{acct_1}:app_1:ab12") {
		t.Fatalf("default prefix not applied; keys: %v", mr.Keys())
	}
}

func TestRedisUnavailable(t *testing.T) {
	s, err := admission.NewRedis(admission.RedisConfig{Addr: "127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err = s.Admit(ctx, admission.Request{NonceKey: "{a}:b:c", NonceTTL: time.Minute, Now: time.Now()})
	if err == nil || errors.Is(err, admission.ErrInvalidRequest) {
		t.Fatalf("Admit against no server: %v, want a connection error", err)
	}
	if s.Ping(ctx) == nil {
		t.Fatal("Ping succeeded against no server")
	}
}

func BenchmarkRedisAdmit(b *testing.B) {
	addr := redisAddr(b)
	s := newRedisStore(b, addr)
	defer s.Close()
	// Nonces expire quickly so the shared server does not fill up.
	benchAdmit(b, s, 2*time.Second)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// The store connects on first use and again after a failed attempt: a
// gateway that started while Redis was down admits requests once it is up.
func TestRedisConnectsOnceRedisIsUp(t *testing.T) {
	mr := miniredis.RunT(t)
	addr := mr.Addr()
	mr.Close()
	s, err := admission.NewRedis(admission.RedisConfig{Addr: addr})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	req := admission.Request{NonceKey: admission.NonceKey("acct_1", "app_1", "ab12"), NonceTTL: time.Minute, Now: time.Now()}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := s.Admit(ctx, req); err == nil {
		t.Fatal("admitted with Redis down")
	}
	if _, err := s.Admit(ctx, req); err == nil {
		t.Fatal("admitted with Redis down")
	}
	if err := mr.Restart(); err != nil {
		t.Fatal(err)
	}
	// Within a second of the failed attempt the store answers with it;
	// after that it dials again.
	deadline := time.Now().Add(3 * time.Second)
	for {
		r, err := s.Admit(ctx, req)
		if err == nil && r.Allowed() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after Redis came up: %+v, %v", r, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}
}

// A real empty restart of Redis (a server of the test's own, killed and
// started again without persistence): a request admitted before it is
// refused after it, though the restarted server has no trace of its nonce.
func TestRedisReplayAfterEmptyRestart(t *testing.T) {
	server := admissiontest.StartRedisServer(t)
	open := func() admission.Store {
		s, err := admission.NewRedis(admission.RedisConfig{URL: "redis://" + server.Addr})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	}
	admissiontest.ReplayAfterEmptyRestart(t, open(), func() admission.Store {
		server.Restart(t)
		return open()
	})
}

// The first call of an account, long after the server started, may have been
// signed seconds before it arrives (latency, a client clock behind): the
// epoch is the server's start, not that call's arrival, so it is admitted.
func TestRedisEpochIsTheServersStart(t *testing.T) {
	server := admissiontest.StartRedisServer(t)
	s, err := admission.NewRedis(admission.RedisConfig{URL: "redis://" + server.Addr})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	time.Sleep(2 * time.Second) // the server has been up for a while
	now := time.Now()
	req := admission.Request{
		NonceKey: admission.NonceKey("acct_quiet", "app_1", "ab12"),
		NonceTTL: time.Minute,
		Buckets:  admission.Limits{}.Buckets(admission.Subject{AccountID: "acct_quiet", AppID: "app_1"}),
		Now:      now,
		SignedAt: now.Add(-1500 * time.Millisecond),
	}
	r, err := s.Admit(context.Background(), req)
	if err != nil || !r.Allowed() || r.BeforeEpoch {
		t.Fatalf("first call of an account, signed 1.5 s before it arrived: %+v, %v", r, err)
	}
}
