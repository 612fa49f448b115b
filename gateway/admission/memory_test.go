package admission_test

import (
	"context"
	"errors"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/gateway/admission/admissiontest"
	"github.com/mallplatform/partnerapi/internal/clock"
)

func TestMemoryContract(t *testing.T) {
	admissiontest.Run(t, func(t *testing.T) admission.Store {
		return admission.NewMemory(admission.MemoryConfig{})
	})
}

func TestMemoryConfigValidate(t *testing.T) {
	for _, c := range []admission.MemoryConfig{{Shards: 3}, {Shards: -2}, {CleanupInterval: -time.Second}} {
		if c.Validate() == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	for _, c := range []admission.MemoryConfig{{}, {Shards: 1}, {Shards: 256, CleanupInterval: time.Minute}} {
		if err := c.Validate(); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
}

func TestMemoryExpiryFollowsStoreClock(t *testing.T) {
	clk := clock.NewManual(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	m := admission.NewMemory(admission.MemoryConfig{Clock: clk, CleanupInterval: time.Hour})
	defer m.Close()
	ctx := context.Background()
	req := admission.Request{NonceKey: admission.NonceKey("acct_1", "app_1", "ab12"), NonceTTL: 3 * time.Minute, Now: time.Unix(0, 0)}
	if r, _ := m.Admit(ctx, req); r.NonceReused {
		t.Fatal("fresh nonce reported reused")
	}
	clk.Advance(3*time.Minute - time.Millisecond)
	if r, _ := m.Admit(ctx, req); !r.NonceReused {
		t.Fatal("nonce released before its TTL")
	}
	clk.Advance(time.Millisecond)
	if r, _ := m.Admit(ctx, req); r.NonceReused {
		t.Fatal("nonce still claimed at its TTL")
	}
}

func TestMemorySweepReclaimsExpired(t *testing.T) {
	clk := clock.NewManual(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	m := admission.NewMemory(admission.MemoryConfig{Clock: clk, CleanupInterval: time.Hour})
	defer m.Close()
	now := time.Date(2030, 1, 1, 0, 0, 30, 0, time.UTC)
	for i := range 100 {
		app := "app_" + strconv.Itoa(i)
		_, err := m.Admit(context.Background(), admission.Request{
			NonceKey: admission.NonceKey("acct_1", app, "ab12"),
			NonceTTL: 3 * time.Minute,
			Buckets:  admission.Limits{}.Buckets(admission.Subject{AccountID: "acct_1", AppID: app}),
			Now:      now,
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n, c := admission.Entries(m); n != 100 || c != 101 {
		t.Fatalf("holding %d nonces and %d counters, want 100 and 101", n, c)
	}
	// Counters outlive their window by a grace, nonces their TTL.
	clk.Advance(30*time.Second + 5*time.Second)
	admission.Sweep(m)
	if n, c := admission.Entries(m); n != 100 || c != 0 {
		t.Fatalf("after the window: %d nonces and %d counters, want 100 and 0", n, c)
	}
	clk.Advance(3 * time.Minute)
	admission.Sweep(m)
	if n, c := admission.Entries(m); n != 0 || c != 0 {
		t.Fatalf("after the nonce TTL: %d nonces and %d counters left", n, c)
	}
}

func TestMemoryJanitorRunsAndCloseStopsIt(t *testing.T) {
	m := admission.NewMemory(admission.MemoryConfig{CleanupInterval: 10 * time.Millisecond})
	req := admission.Request{NonceKey: admission.NonceKey("acct_1", "app_1", "ab12"), NonceTTL: time.Millisecond, Now: time.Now()}
	if _, err := m.Admit(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if n, _ := admission.Entries(m); n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("janitor did not reclaim an expired nonce")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := m.Admit(context.Background(), req); !errors.Is(err, admission.ErrClosed) {
		t.Fatalf("Admit after Close: %v, want ErrClosed", err)
	}
}

// benchRequests yields requests spread over 1,000 apps of 250 accounts with
// the platform's default buckets and a fresh nonce each. Building the nonce
// key is part of every iteration, as it is in the gateway.
type benchRequests struct {
	subjects []admission.Subject
	buckets  [][]admission.Bucket
	ttl      time.Duration
}

func newBenchRequests(ttl time.Duration) *benchRequests {
	br := &benchRequests{ttl: ttl}
	for i := range 1000 {
		s := admission.Subject{AccountID: "acct_" + strconv.Itoa(i%250), AppID: "app_" + strconv.Itoa(i)}
		br.subjects = append(br.subjects, s)
		br.buckets = append(br.buckets, admission.Limits{}.Buckets(s))
	}
	return br
}

var benchSeq atomic.Uint64

func (br *benchRequests) next(worker string, i int) admission.Request {
	s := br.subjects[i%len(br.subjects)]
	return admission.Request{
		NonceKey: admission.NonceKey(s.AccountID, s.AppID, worker+strconv.Itoa(i)),
		NonceTTL: br.ttl,
		Buckets:  br.buckets[i%len(br.buckets)],
		Now:      time.Now(),
	}
}

func benchAdmit(b *testing.B, s admission.Store, ttl time.Duration) {
	br := newBenchRequests(ttl)
	ctx := context.Background()
	b.Run("serial", func(b *testing.B) {
		b.ReportAllocs()
		worker := "s" + strconv.FormatUint(benchSeq.Add(1), 10) + "-"
		i := 0
		for b.Loop() {
			if _, err := s.Admit(ctx, br.next(worker, i)); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			worker := "p" + strconv.FormatUint(benchSeq.Add(1), 10) + "-"
			i := 0
			for pb.Next() {
				if _, err := s.Admit(ctx, br.next(worker, i)); err != nil {
					b.Error(err)
					return
				}
				i++
			}
		})
	})
}

func BenchmarkMemoryAdmit(b *testing.B) {
	// A short nonce TTL and a frequent janitor keep the maps at a steady
	// size however many iterations the benchmark runs; the janitor's
	// pauses are part of the measurement.
	m := admission.NewMemory(admission.MemoryConfig{CleanupInterval: 100 * time.Millisecond})
	defer m.Close()
	benchAdmit(b, m, 100*time.Millisecond)
}

// A new process's store has forgotten every nonce: requests signed before it
// was made are refused.
func TestMemoryReplayAfterRestart(t *testing.T) {
	before := admission.NewMemory(admission.MemoryConfig{})
	defer before.Close()
	admissiontest.ReplayAfterEmptyRestart(t, before, func() admission.Store {
		after := admission.NewMemory(admission.MemoryConfig{})
		t.Cleanup(func() { _ = after.Close() })
		return after
	})
}
