package admission_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/gateway/admission"
)

// TestAttemptsMemory and TestAttemptsRedis hold both stores to the rolling
// window's rules; on Redis, two stores on one prefix (two gateway replicas)
// share one budget.
func TestAttemptsMemory(t *testing.T) {
	m := admission.NewMemory(admission.MemoryConfig{})
	t.Cleanup(func() { _ = m.Close() })
	attemptContract(t, m, m)
}

func TestAttemptsRedis(t *testing.T) {
	addr := redisAddr(t)
	a, b := newRedisStore(t, addr), newRedisStore(t, addr)
	t.Cleanup(func() { _ = a.Close(); _ = b.Close() })
	attemptContract(t, a, b)
}

func attemptContract(t *testing.T, a, b admission.AttemptStore) {
	ctx := context.Background()
	const window = 15 * time.Minute
	t0 := time.Unix(1_800_000_000, 0)
	try := func(s admission.AttemptStore, at time.Time, limits ...admission.AttemptLimit) admission.AttemptResult {
		t.Helper()
		res, err := s.Attempt(ctx, admission.AttemptRequest{Limits: limits, Window: window, Now: at})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	ip := admission.AttemptLimit{Key: "{sv}:ip:198.51.100.7", Limit: 10}
	user := admission.AttemptLimit{Key: "{sv}:user:alice", Limit: 5}

	// Five attempts a minute apart, alternating stores: the fifth leaves
	// the user no attempt, the sixth is refused until the first leaves
	// the window (15 minutes after it).
	for i := range 5 {
		s := a
		if i%2 == 1 {
			s = b
		}
		res := try(s, t0.Add(time.Duration(i)*time.Minute), ip, user)
		if !res.Allowed || res.Limits[1].Remaining != int64(4-i) || res.Limits[0].Remaining != int64(9-i) {
			t.Fatalf("attempt %d: %+v", i+1, res)
		}
	}
	res := try(b, t0.Add(10*time.Minute), ip, user)
	if res.Allowed || res.RetryAfter != 5*time.Minute || !res.Limits[1].Exceeded || res.Limits[0].Exceeded {
		t.Fatalf("sixth attempt: %+v, want refused by the user limit for 5 minutes", res)
	}
	// Refused attempts are not recorded: hammering does not move the
	// window's end, nor spend the address's budget.
	for range 20 {
		try(a, t0.Add(12*time.Minute), ip, user)
	}
	res = try(a, t0.Add(14*time.Minute+59*time.Second), ip, user)
	if res.Allowed || res.RetryAfter != time.Second {
		t.Fatalf("just before the first attempt leaves: %+v", res)
	}
	res = try(b, t0.Add(15*time.Minute), ip, user)
	if !res.Allowed || res.Limits[0].Remaining != 5 {
		t.Fatalf("when the first attempt has left the window: %+v (the address counts 4 before it)", res)
	}
	// The window rolls: the user's next room comes as each attempt leaves.
	if res := try(a, t0.Add(15*time.Minute+30*time.Second), ip, user); res.Allowed || res.RetryAfter != 30*time.Second {
		t.Fatalf("rolled: %+v, want 30s until the second attempt leaves", res)
	}

	// Another user from the same address spends the address's budget;
	// the address's tenth attempt is its last.
	other := admission.AttemptLimit{Key: "{sv}:user:bob", Limit: 5}
	for i := range 5 {
		if res := try(a, t0.Add(16*time.Minute), ip, other); !res.Allowed {
			t.Fatalf("bob %d: %+v", i+1, res)
		}
	}
	// The address now counts alice's attempts 3-5 and her 15th-minute
	// one, and bob's 5: 9.
	if res := try(b, t0.Add(16*time.Minute), ip); !res.Allowed || res.Limits[0].Remaining != 0 {
		t.Fatalf("address's tenth: %+v", res)
	}
	dave := admission.AttemptLimit{Key: "{sv}:user:dave", Limit: 5}
	if res := try(b, t0.Add(16*time.Minute), ip, dave); res.Allowed || !res.Limits[0].Exceeded || res.Limits[1].Exceeded {
		t.Fatalf("address's eleventh: %+v, want refused by the address", res)
	}

	// Concurrent attempts never admit more than the limit.
	key := admission.AttemptLimit{Key: "{sv}:user:carol", Limit: 5}
	var mu sync.Mutex
	allowed := 0
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := a
			if i%2 == 1 {
				s = b
			}
			res, err := s.Attempt(ctx, admission.AttemptRequest{Limits: []admission.AttemptLimit{key}, Window: window, Now: t0})
			if err != nil {
				t.Error(err)
				return
			}
			if res.Allowed {
				mu.Lock()
				allowed++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if allowed != 5 {
		t.Errorf("%d concurrent attempts allowed, want 5", allowed)
	}

	// Keys on different hash tags are refused (one Redis Cluster slot).
	if _, err := a.Attempt(ctx, admission.AttemptRequest{Limits: []admission.AttemptLimit{{Key: "{x}:a", Limit: 1}, {Key: "{y}:b", Limit: 1}}, Window: window, Now: t0}); err == nil {
		t.Error("keys on two hash tags were accepted")
	}
}
