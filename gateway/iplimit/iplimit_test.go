package iplimit_test

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/gateway/iplimit"
)

var t0 = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

func newLimiter(t testing.TB, cfg iplimit.Config) *iplimit.Limiter {
	t.Helper()
	l, err := iplimit.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestConfigValidate(t *testing.T) {
	for name, c := range map[string]iplimit.Config{
		"negative rate":    {RatePerMinute: -1},
		"negative burst":   {Burst: -1},
		"negative entries": {MaxEntries: -1},
		"prefix too long":  {IPv6PrefixLen: 129},
		"negative prefix":  {IPv6PrefixLen: -1},
	} {
		if c.Validate() == nil {
			t.Errorf("%s: accepted", name)
		}
		if _, err := iplimit.New(c); err == nil {
			t.Errorf("%s: New accepted it", name)
		}
	}
	if err := (iplimit.Config{}).Validate(); err != nil {
		t.Errorf("zero config (all defaults): %v", err)
	}
}

func TestDefaultsBurstThenRefuse(t *testing.T) {
	l := newLimiter(t, iplimit.Config{})
	for i := range 300 {
		d := l.Take("198.51.100.7", t0)
		if !d.Allowed || d.Limit != 300 || d.Remaining != 299-i {
			t.Fatalf("request %d: %+v, want allowed with %d remaining of 300", i+1, d, 299-i)
		}
	}
	d := l.Take("198.51.100.7", t0)
	if d.Allowed || d.Remaining != 0 {
		t.Fatalf("request 301: %+v, want refused", d)
	}
	// 3000/min refills a token every 20ms; Retry-After has whole seconds.
	if d.RetryAfter != time.Second {
		t.Fatalf("RetryAfter %v, want 1s", d.RetryAfter)
	}
	// The bucket is full again once 300 tokens have come back: 6s.
	if want := t0.Add(6 * time.Second); !d.Reset.Equal(want) {
		t.Fatalf("Reset %v, want %v", d.Reset, want)
	}
	if ok, _ := l.Allow("198.51.100.7", t0.Add(20*time.Millisecond)); !ok {
		t.Fatal("token not refilled after 20ms")
	}
	if ok, _ := l.Allow("198.51.100.7", t0.Add(20*time.Millisecond)); ok {
		t.Fatal("more than one token refilled after 20ms")
	}
}

func TestRetryAfterAndReset(t *testing.T) {
	l := newLimiter(t, iplimit.Config{RatePerMinute: 6, Burst: 1})
	if d := l.Take("192.0.2.1", t0); !d.Allowed || !d.Reset.Equal(t0.Add(10*time.Second)) {
		t.Fatalf("first: %+v, want allowed, full again in 10s", d)
	}
	ok, retry := l.Allow("192.0.2.1", t0.Add(2500*time.Millisecond))
	if ok || retry != 8*time.Second {
		t.Fatalf("after 2.5s: ok %v retry %v, want refused for 7.5s rounded up to 8s", ok, retry)
	}
	if ok, _ := l.Allow("192.0.2.1", t0.Add(10*time.Second)); !ok {
		t.Fatal("refused after a full refill")
	}
}

func TestAddressGrouping(t *testing.T) {
	l := newLimiter(t, iplimit.Config{Burst: 1})
	drain := func(ip string) {
		t.Helper()
		if ok, _ := l.Allow(ip, t0); !ok {
			t.Fatalf("%s: first request refused", ip)
		}
	}
	refused := func(ip string) bool { ok, _ := l.Allow(ip, t0); return !ok }

	drain("203.0.113.5")
	for _, same := range []string{"203.0.113.5", "::ffff:203.0.113.5", "203.0.113.5:4444", "[::ffff:203.0.113.5]:80"} {
		if !refused(same) {
			t.Errorf("%s got a bucket of its own", same)
		}
	}
	if refused("203.0.113.6") {
		t.Error("a neighbouring IPv4 address shares the bucket")
	}

	drain("2001:db8:1:2::1")
	for _, same := range []string{"2001:db8:1:2:ffff:ffff:ffff:ffff", "[2001:db8:1:2::99]:443", "2001:db8:1:2::1%eth0"} {
		if !refused(same) {
			t.Errorf("%s escaped its /64", same)
		}
	}
	if refused("2001:db8:1:3::1") {
		t.Error("another /64 shares the bucket")
	}

	drain("not an address")
	if !refused("") || !refused("also garbage") {
		t.Error("unparseable sources get fresh buckets")
	}
}

func TestIPv6FullAddress(t *testing.T) {
	l := newLimiter(t, iplimit.Config{Burst: 1, IPv6PrefixLen: 128})
	l.Allow("2001:db8::1", t0)
	if ok, _ := l.Allow("2001:db8::2", t0); !ok {
		t.Fatal("with /128 buckets, a second address shares the first one's")
	}
}

func TestMemoryBounded(t *testing.T) {
	l := newLimiter(t, iplimit.Config{MaxEntries: 1000})
	for i := range 50_000 {
		ip := "10." + strconv.Itoa(i>>16&255) + "." + strconv.Itoa(i>>8&255) + "." + strconv.Itoa(i&255)
		if ok, _ := l.Allow(ip, t0); !ok {
			t.Fatalf("new address %s refused", ip)
		}
		if n := l.Len(); n > 1000 {
			t.Fatalf("tracking %d addresses, bound is 1000", n)
		}
	}
}

func TestIdleEntriesGoFirst(t *testing.T) {
	// Burst 2 at 1/s: an untouched bucket is full again after 2s.
	l := newLimiter(t, iplimit.Config{RatePerMinute: 60, Burst: 2, MaxEntries: 16})
	for i := range 15 {
		l.Allow("192.0.2."+strconv.Itoa(i), t0)
	}
	heavy := "198.51.100.1"
	at := t0.Add(1500 * time.Millisecond)
	l.Allow(heavy, at)
	l.Allow(heavy, at)
	// The table is full; the 15 refilled buckets are idle and make room.
	if ok, _ := l.Allow("198.51.100.2", at); !ok {
		t.Fatal("newcomer refused")
	}
	if n := l.Len(); n != 2 {
		t.Fatalf("tracking %d addresses after the sweep, want the 2 active ones", n)
	}
	if ok, _ := l.Allow(heavy, at); ok {
		t.Fatal("the drained address was evicted and got a fresh burst")
	}
}

func TestConcurrentTakesRespectBurst(t *testing.T) {
	l := newLimiter(t, iplimit.Config{Burst: 100})
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for range 50 {
				if ok, _ := l.Allow("192.0.2.10", t0); ok {
					allowed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if got := allowed.Load(); got != 100 {
		t.Fatalf("allowed %d of 800 at one instant, want the burst of 100", got)
	}
}

func BenchmarkTake(b *testing.B) {
	l := newLimiter(b, iplimit.Config{})
	ips := make([]string, 4096)
	for i := range ips {
		ips[i] = "10.1." + strconv.Itoa(i>>8) + "." + strconv.Itoa(i&255)
	}
	b.Run("serial", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			l.Take(ips[i&4095], time.Now())
			i++
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			i := 0
			for pb.Next() {
				l.Take(ips[i&4095], time.Now())
				i++
			}
		})
	})
}
