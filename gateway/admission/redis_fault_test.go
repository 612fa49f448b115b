package admission_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/internal/faultnet"
)

// faultDeadline is the kind of deadline the gateway gives an admission call.
const faultDeadline = 300 * time.Millisecond

// admitWithin runs one Admit under faultDeadline and returns its error and
// how long it took.
func admitWithin(s admission.Store) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), faultDeadline)
	defer cancel()
	start := time.Now()
	_, err := s.Admit(ctx, admission.Request{
		NonceKey: admission.NonceKey("acct_f", "app_f", newHex(16)),
		NonceTTL: time.Minute,
		Buckets:  admission.Limits{}.Buckets(admission.Subject{AccountID: "acct_f", AppID: "app_f"}),
		Now:      time.Now(),
		SignedAt: time.Now(),
	})
	return time.Since(start), err
}

// A Redis that accepts connections and never answers costs each call its
// own deadline: not the dial timeout (2 s), and concurrent calls do not
// queue behind one another's connection attempt.
func TestRedisFrozenAtConnect(t *testing.T) {
	s, err := admission.NewRedis(admission.RedisConfig{URL: "redis://" + faultnet.Frozen(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			took, err := admitWithin(s)
			if err == nil {
				t.Error("admitted with a frozen Redis")
			}
			if took > time.Second {
				t.Errorf("a call with a %v deadline took %v against a frozen Redis", faultDeadline, took)
			}
			t.Logf("frozen at connect: error after %v", took.Round(time.Millisecond))
		})
	}
	wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), faultDeadline)
	defer cancel()
	start := time.Now()
	if s.Ping(ctx) == nil {
		t.Fatal("Ping succeeded against a frozen Redis")
	}
	if took := time.Since(start); took > time.Second {
		t.Fatalf("Ping took %v", took)
	}
}

// A Redis that stops answering on a connection in use: each call still ends
// at its deadline, and calls succeed again once Redis answers.
func TestRedisFrozenWhileConnected(t *testing.T) {
	proxy := faultnet.NewProxy(t, redisAddr(t))
	s := newRedisStoreURL(t, "redis://"+proxy.Addr())
	defer s.Close()
	if _, err := admitWithin(s); err != nil {
		t.Fatal(err)
	}
	proxy.Freeze()
	for range 3 {
		took, err := admitWithin(s)
		if err == nil {
			t.Fatal("admitted with a frozen Redis")
		}
		if took > time.Second {
			t.Fatalf("a call with a %v deadline took %v against a frozen Redis", faultDeadline, took)
		}
		t.Logf("frozen while connected: error after %v", took.Round(time.Millisecond))
	}
	proxy.Resume()
	waitAdmits(t, s)
}

// A Redis whose connections are cut answers errors at once, and calls
// succeed again once it accepts connections.
func TestRedisCut(t *testing.T) {
	proxy := faultnet.NewProxy(t, redisAddr(t))
	s := newRedisStoreURL(t, "redis://"+proxy.Addr())
	defer s.Close()
	if _, err := admitWithin(s); err != nil {
		t.Fatal(err)
	}
	proxy.Cut()
	took, err := admitWithin(s)
	if err == nil {
		t.Fatal("admitted with the connection cut")
	}
	t.Logf("cut: error after %v", took.Round(time.Millisecond))
	proxy.Resume()
	waitAdmits(t, s)
}

func waitAdmits(t *testing.T, s admission.Store) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := admitWithin(s)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("Redis is back, calls still fail: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// newRedisStoreURL is newRedisStore by URL.
func newRedisStoreURL(tb testing.TB, url string) *admission.Redis {
	tb.Helper()
	prefix := testPrefix(tb)
	s, err := admission.NewRedis(admission.RedisConfig{URL: url, Prefix: prefix})
	if err != nil {
		tb.Fatal(err)
	}
	addr := redisAddr(tb)
	tb.Cleanup(func() { deleteKeys(tb, addr, prefix) })
	return s
}

func newHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
