// Package admissiontest is the contract every admission.Store must meet. A
// store's own tests call Run (and RunShared when the backend is shared by
// several gateway replicas).
package admissiontest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/gateway/admission"
)

// base is the start of a minute, far from the real clock, so that window
// arithmetic in the tests is exact and independent of when they run.
var base = time.Date(2030, time.January, 1, 0, 0, 0, 0, time.UTC)

// Run checks the single-store contract. newStore is called once per subtest
// and must return an empty store (for a shared backend: a namespace no other
// test uses); Run closes it when the subtest ends.
func Run(t *testing.T, newStore func(t *testing.T) admission.Store) {
	open := func(t *testing.T) admission.Store {
		t.Helper()
		s := newStore(t)
		t.Cleanup(func() { _ = s.Close() })
		return s
	}
	t.Run("NonceClaimedOnce", func(t *testing.T) { testNonceClaimedOnce(t, open(t)) })
	t.Run("ReusedNonceChargesNothing", func(t *testing.T) { testReuseChargesNothing(t, open(t)) })
	t.Run("NoncesArePerApp", func(t *testing.T) { testNoncesPerApp(t, open(t)) })
	t.Run("NonceExpiresAfterTTL", func(t *testing.T) { testNonceExpiry(t, open(t)) })
	t.Run("CountsToLimitThenExceeded", func(t *testing.T) { testCountsToLimit(t, open(t)) })
	t.Run("RejectedRequestsStillCount", func(t *testing.T) { testRejectedStillCount(t, open(t)) })
	t.Run("AccountBucketSharedByApps", func(t *testing.T) { testAccountShared(t, open(t)) })
	t.Run("SeparateWindows", func(t *testing.T) { testSeparateWindows(t, open(t)) })
	t.Run("Tightest", func(t *testing.T) { testTightest(t, open(t)) })
	t.Run("RetryAfter", func(t *testing.T) { testRetryAfter(t, open(t)) })
	t.Run("BucketsWithoutNonce", func(t *testing.T) { testWithoutNonce(t, open(t)) })
	t.Run("ConcurrentNeverOverAdmits", func(t *testing.T) { testConcurrentBuckets(t, open(t)) })
	t.Run("ConcurrentNonceClaimedOnce", func(t *testing.T) { testConcurrentNonce(t, open(t)) })
	t.Run("InvalidRequests", func(t *testing.T) { testInvalid(t, open(t)) })
	t.Run("Ping", func(t *testing.T) {
		if err := open(t).Ping(context.Background()); err != nil {
			t.Fatalf("Ping on a working store: %v", err)
		}
	})
	t.Run("SignedBeforeEpochRefused", func(t *testing.T) { testBeforeEpoch(t, open(t)) })
}

// RunShared checks that stores made by newStore for the same test share their
// state, as two gateway replicas on one Redis must. newStore is called twice
// per subtest with the same t and must return two independent stores (own
// clients) on the same namespace.
func RunShared(t *testing.T, newStore func(t *testing.T) admission.Store) {
	pair := func(t *testing.T) (admission.Store, admission.Store) {
		t.Helper()
		a, b := newStore(t), newStore(t)
		t.Cleanup(func() { _ = a.Close(); _ = b.Close() })
		return a, b
	}
	t.Run("NonceSeenByOtherReplica", func(t *testing.T) {
		a, b := pair(t)
		acct, app := newID("acct"), newID("app")
		key := admission.NonceKey(acct, app, newNonce())
		req := admission.Request{NonceKey: key, NonceTTL: 3 * time.Minute, Now: base}
		if r := admit(t, a, req); r.NonceReused {
			t.Fatal("fresh nonce reported reused")
		}
		if r := admit(t, b, req); !r.NonceReused {
			t.Fatal("nonce claimed on one replica was accepted again on the other")
		}
	})
	t.Run("BucketsCountedAcrossReplicas", func(t *testing.T) {
		a, b := pair(t)
		acct, app := newID("acct"), newID("app")
		bucket := admission.Bucket{Key: admission.AppBucketKey(acct, app), Limit: 40, Window: time.Minute}
		now := base.Add(10 * time.Second)
		var admitted atomic.Int64
		var wg sync.WaitGroup
		for g := range 8 {
			store := a
			if g%2 == 1 {
				store = b
			}
			wg.Go(func() {
				for range 10 {
					r, err := store.Admit(context.Background(), admission.Request{
						NonceKey: admission.NonceKey(acct, app, newNonce()),
						NonceTTL: 3 * time.Minute,
						Buckets:  []admission.Bucket{bucket},
						Now:      now,
					})
					if err != nil {
						t.Error(err)
						return
					}
					if r.Allowed() {
						admitted.Add(1)
					}
				}
			})
		}
		wg.Wait()
		if got := admitted.Load(); got != bucket.Limit {
			t.Fatalf("two replicas admitted %d requests in one window, limit %d", got, bucket.Limit)
		}
	})
}

func testNonceClaimedOnce(t *testing.T, s admission.Store) {
	acct, app := newID("acct"), newID("app")
	req := admission.Request{
		NonceKey: admission.NonceKey(acct, app, newNonce()),
		NonceTTL: 3 * time.Minute,
		Buckets:  admission.Limits{}.Buckets(admission.Subject{AccountID: acct, AppID: app}),
		Now:      base.Add(5 * time.Second),
	}
	first := admit(t, s, req)
	if first.NonceReused || !first.Allowed() {
		t.Fatalf("first use: %+v, want a fresh nonce and admission", first)
	}
	req.Now = req.Now.Add(time.Second)
	second := admit(t, s, req)
	if !second.NonceReused || second.Allowed() {
		t.Fatalf("second use: %+v, want NonceReused and no admission", second)
	}
}

func testReuseChargesNothing(t *testing.T, s admission.Store) {
	acct, app := newID("acct"), newID("app")
	bucket := admission.Bucket{Key: admission.AppBucketKey(acct, app), Limit: 5, Window: time.Minute}
	nonce := admission.NonceKey(acct, app, newNonce())
	now := base.Add(20 * time.Second)
	req := admission.Request{NonceKey: nonce, NonceTTL: 3 * time.Minute, Buckets: []admission.Bucket{bucket}, Now: now}
	wantRemaining(t, admit(t, s, req), 4)
	for range 3 {
		r := admit(t, s, req)
		if !r.NonceReused {
			t.Fatal("replayed nonce not reported")
		}
		// The replay still reports the bucket so the 401 can carry
		// X-RateLimit-*, but it must not have spent anything.
		wantRemaining(t, r, 4)
		if r.Buckets[0].Exceeded {
			t.Fatal("replay reported the bucket exceeded")
		}
	}
	req.NonceKey = admission.NonceKey(acct, app, newNonce())
	wantRemaining(t, admit(t, s, req), 3)
}

func testNoncesPerApp(t *testing.T, s admission.Store) {
	acct, other := newID("acct"), newID("acct")
	app1, app2 := newID("app"), newID("app")
	nonce := newNonce()
	for _, k := range []string{
		admission.NonceKey(acct, app1, nonce),
		admission.NonceKey(acct, app2, nonce),
		admission.NonceKey(other, app1, nonce),
	} {
		r := admit(t, s, admission.Request{NonceKey: k, NonceTTL: 3 * time.Minute, Now: base})
		if r.NonceReused {
			t.Fatalf("%s: another app's use of the same nonce counted as reuse", k)
		}
	}
}

func testNonceExpiry(t *testing.T, s admission.Store) {
	// Nonce TTLs run on the store's clock (for Redis: the server's), so
	// this test waits for real.
	const ttl = time.Second
	acct, app := newID("acct"), newID("app")
	req := admission.Request{NonceKey: admission.NonceKey(acct, app, newNonce()), NonceTTL: ttl, Now: time.Now()}
	if admit(t, s, req).NonceReused {
		t.Fatal("fresh nonce reported reused")
	}
	if !admit(t, s, req).NonceReused {
		t.Fatal("nonce reusable within its TTL")
	}
	time.Sleep(ttl + 200*time.Millisecond)
	req.Now = time.Now()
	if admit(t, s, req).NonceReused {
		t.Fatal("nonce still claimed after its TTL")
	}
}

func testCountsToLimit(t *testing.T, s admission.Store) {
	acct, app := newID("acct"), newID("app")
	bucket := admission.Bucket{Key: admission.AppBucketKey(acct, app), Limit: 3, Window: time.Minute}
	start := base.Add(7 * time.Minute)
	for i := range 5 {
		now := start.Add(time.Duration(i) * 10 * time.Second)
		r := charge(t, s, acct, app, now, bucket)
		got := r.Buckets[0]
		if got.Key != bucket.Key || got.Limit != 3 || !got.Reset.Equal(start.Add(time.Minute)) {
			t.Fatalf("request %d: %+v, want key %s, limit 3, reset %v", i+1, got, bucket.Key, start.Add(time.Minute))
		}
		remaining := max(0, int64(2-i))
		exceeded := i >= 3
		if got.Remaining != remaining || got.Exceeded != exceeded || r.Allowed() == exceeded {
			t.Fatalf("request %d: remaining %d exceeded %v allowed %v; want remaining %d exceeded %v",
				i+1, got.Remaining, got.Exceeded, r.Allowed(), remaining, exceeded)
		}
	}
}

func testRejectedStillCount(t *testing.T, s admission.Store) {
	acct, app := newID("acct"), newID("app")
	narrow := admission.Bucket{Key: admission.SandboxBucketKey(acct, app), Limit: 2, Window: time.Minute}
	wide := admission.Bucket{Key: admission.AppBucketKey(acct, app), Limit: 10, Window: time.Minute}
	now := base.Add(time.Hour + 30*time.Second)
	var last admission.Result
	for range 5 {
		last = charge(t, s, acct, app, now, narrow, wide)
	}
	if !last.Buckets[0].Exceeded || last.Allowed() {
		t.Fatalf("narrow bucket not exceeded after 5 requests: %+v", last)
	}
	// Three of the five were rejected by the narrow bucket; they count
	// against the wide one all the same.
	if got := last.Buckets[1]; got.Remaining != 5 || got.Exceeded {
		t.Fatalf("wide bucket %+v, want 5 remaining after 5 charged requests", got)
	}
}

func testAccountShared(t *testing.T, s admission.Store) {
	acct, app1, app2 := newID("acct"), newID("app"), newID("app")
	limits := admission.Limits{AccountPerMinute: 3}
	now := base.Add(2 * time.Hour)
	var r admission.Result
	for i := range 4 {
		app := app1
		if i%2 == 1 {
			app = app2
		}
		r = charge(t, s, acct, app, now, limits.Buckets(admission.Subject{AccountID: acct, AppID: app})...)
	}
	if acctState := r.Buckets[1]; !acctState.Exceeded || acctState.Limit != 3 {
		t.Fatalf("account bucket after 4 requests from two apps: %+v, want exceeded at limit 3", acctState)
	}
	if r.Buckets[0].Remaining != admission.DefaultAppPerMinute-2 {
		t.Fatalf("app bucket %+v, want %d remaining", r.Buckets[0], admission.DefaultAppPerMinute-2)
	}
}

func testSeparateWindows(t *testing.T, s admission.Store) {
	acct, app := newID("acct"), newID("app")
	bucket := admission.Bucket{Key: admission.AppBucketKey(acct, app), Limit: 2, Window: time.Minute}
	start := base.Add(3 * time.Hour)
	lastMoment := start.Add(time.Minute - time.Millisecond)
	for range 3 {
		charge(t, s, acct, app, lastMoment, bucket)
	}
	r := charge(t, s, acct, app, lastMoment, bucket)
	if !r.Buckets[0].Exceeded || !r.Buckets[0].Reset.Equal(start.Add(time.Minute)) {
		t.Fatalf("end of first window: %+v", r.Buckets[0])
	}
	// The boundary itself belongs to the next window.
	next := start.Add(time.Minute)
	r = charge(t, s, acct, app, next, bucket)
	if got := r.Buckets[0]; got.Exceeded || got.Remaining != 1 || !got.Reset.Equal(start.Add(2*time.Minute)) {
		t.Fatalf("start of next window: %+v, want a fresh count resetting at %v", got, start.Add(2*time.Minute))
	}
	// A window of another length on another key is aligned on its own.
	hourly := admission.Bucket{Key: admission.AccountBucketKey(acct), Limit: 1, Window: time.Hour}
	r = charge(t, s, acct, app, next, hourly)
	if got := r.Buckets[0]; !got.Reset.Equal(start.Add(time.Hour)) {
		t.Fatalf("hourly bucket resets at %v, want %v", got.Reset, start.Add(time.Hour))
	}
}

func testTightest(t *testing.T, s admission.Store) {
	acct, app := newID("acct"), newID("app")
	now := base.Add(4*time.Hour + 15*time.Second)
	buckets := admission.Limits{}.Buckets(admission.Subject{AccountID: acct, AppID: app, Sandbox: true})
	r := charge(t, s, acct, app, now, buckets...)
	if got := r.Tightest(); got.Key != admission.SandboxBucketKey(acct, app) || got.Limit != 60 || got.Remaining != 59 {
		t.Fatalf("tightest of app/account/sandbox: %+v, want the sandbox bucket with 59 left", got)
	}

	// Equal remaining: the smaller ceiling is the more constraining one.
	small := admission.Bucket{Key: "{" + acct + "}:small", Limit: 5, Window: time.Hour}
	large := admission.Bucket{Key: "{" + acct + "}:large", Limit: 6, Window: time.Hour}
	charge(t, s, acct, app, now, large)
	r = charge(t, s, acct, app, now, large, small)
	if got := r.Tightest(); got.Key != small.Key || got.Remaining != 4 {
		t.Fatalf("tie at 4 remaining: %+v, want the limit-5 bucket", got)
	}
}

func testRetryAfter(t *testing.T, s admission.Store) {
	acct, app := newID("acct"), newID("app")
	start := base.Add(5 * time.Hour)
	now := start.Add(20 * time.Second)
	minute := admission.Bucket{Key: admission.AppBucketKey(acct, app), Limit: 1, Window: time.Minute}
	r := charge(t, s, acct, app, now, minute)
	if r.RetryAfter(now) != 0 {
		t.Fatalf("RetryAfter %v for an admitted request", r.RetryAfter(now))
	}
	r = charge(t, s, acct, app, now, minute)
	if got := r.RetryAfter(now); got != 40*time.Second {
		t.Fatalf("RetryAfter %v, want 40s to the end of the minute", got)
	}
	if got := r.RetryAfter(now.Add(300 * time.Millisecond)); got != 40*time.Second {
		t.Fatalf("RetryAfter %v with 39.7s left, want it rounded up to 40s", got)
	}
	if got := r.RetryAfter(start.Add(time.Minute - 100*time.Millisecond)); got != time.Second {
		t.Fatalf("RetryAfter %v just before the reset, want the 1s floor", got)
	}

	// Both exceeded: waiting for the earlier reset would only earn another 429.
	hour := admission.Bucket{Key: admission.AccountBucketKey(acct), Limit: 1, Window: time.Hour}
	charge(t, s, acct, app, now, hour)
	r = charge(t, s, acct, app, now, minute, hour)
	if got, want := r.RetryAfter(now), time.Hour-20*time.Second; got != want {
		t.Fatalf("RetryAfter %v, want %v to the later reset", got, want)
	}
}

func testWithoutNonce(t *testing.T, s admission.Store) {
	acct := newID("acct")
	bucket := admission.Bucket{Key: admission.AccountBucketKey(acct), Limit: 1, Window: time.Minute}
	req := admission.Request{Buckets: []admission.Bucket{bucket}, Now: base}
	if r := admit(t, s, req); !r.Allowed() || r.NonceReused {
		t.Fatalf("first charge without nonce: %+v", r)
	}
	if r := admit(t, s, req); r.Allowed() || r.NonceReused || !r.Buckets[0].Exceeded {
		t.Fatalf("second charge without nonce: %+v, want the bucket exceeded", r)
	}
}

func testConcurrentBuckets(t *testing.T, s admission.Store) {
	const goroutines, perGoroutine, limit = 16, 25, 120
	acct, app := newID("acct"), newID("app")
	bucket := admission.Bucket{Key: admission.AppBucketKey(acct, app), Limit: limit, Window: time.Minute}
	account := admission.Bucket{Key: admission.AccountBucketKey(acct), Limit: 1000, Window: time.Minute}
	now := base.Add(6*time.Hour + 30*time.Second)
	var admitted atomic.Int64
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			for range perGoroutine {
				r, err := s.Admit(context.Background(), admission.Request{
					NonceKey: admission.NonceKey(acct, app, newNonce()),
					NonceTTL: 3 * time.Minute,
					Buckets:  []admission.Bucket{bucket, account},
					Now:      now,
				})
				if err != nil {
					t.Error(err)
					return
				}
				if r.Allowed() {
					admitted.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if got := admitted.Load(); got != limit {
		t.Fatalf("admitted %d of %d concurrent requests, want exactly the limit %d",
			got, goroutines*perGoroutine, limit)
	}
	r := charge(t, s, acct, app, now, account)
	if want := int64(1000 - goroutines*perGoroutine - 1); r.Buckets[0].Remaining != want {
		t.Fatalf("account bucket has %d left, want %d: a lost or doubled increment", r.Buckets[0].Remaining, want)
	}
}

func testConcurrentNonce(t *testing.T, s admission.Store) {
	acct, app := newID("acct"), newID("app")
	req := admission.Request{NonceKey: admission.NonceKey(acct, app, newNonce()), NonceTTL: 3 * time.Minute, Now: base}
	var fresh atomic.Int64
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			r, err := s.Admit(context.Background(), req)
			if err != nil {
				t.Error(err)
				return
			}
			if !r.NonceReused {
				fresh.Add(1)
			}
		})
	}
	wg.Wait()
	if got := fresh.Load(); got != 1 {
		t.Fatalf("one nonce claimed %d times by concurrent requests", got)
	}
}

func testInvalid(t *testing.T, s admission.Store) {
	acct, app := newID("acct"), newID("app")
	ok := admission.Bucket{Key: admission.AppBucketKey(acct, app), Limit: 1, Window: time.Minute}
	nonce := admission.NonceKey(acct, app, newNonce())
	cases := map[string]admission.Request{
		"nothing to do":   {Now: base},
		"no Now":          {Buckets: []admission.Bucket{ok}},
		"nonce, no TTL":   {NonceKey: nonce, Buckets: []admission.Bucket{ok}, Now: base},
		"zero limit":      {Buckets: []admission.Bucket{{Key: ok.Key, Window: time.Minute}}, Now: base},
		"zero window":     {Buckets: []admission.Bucket{{Key: ok.Key, Limit: 1}}, Now: base},
		"empty key":       {Buckets: []admission.Bucket{{Limit: 1, Window: time.Minute}}, Now: base},
		"other account":   {NonceKey: nonce, NonceTTL: time.Minute, Buckets: []admission.Bucket{{Key: admission.AccountBucketKey(newID("acct")), Limit: 1, Window: time.Minute}}, Now: base},
		"untagged bucket": {NonceKey: nonce, NonceTTL: time.Minute, Buckets: []admission.Bucket{{Key: "app:" + app, Limit: 1, Window: time.Minute}}, Now: base},
		"untagged nonce":  {NonceKey: app + ":" + newNonce(), NonceTTL: time.Minute, Buckets: []admission.Bucket{ok}, Now: base},
		"empty tag":       {NonceKey: "{}:" + newNonce(), NonceTTL: time.Minute, Buckets: []admission.Bucket{{Key: "{}:app", Limit: 1, Window: time.Minute}}, Now: base},
	}
	for name, req := range cases {
		if _, err := s.Admit(context.Background(), req); !errors.Is(err, admission.ErrInvalidRequest) {
			t.Errorf("%s: error %v, want ErrInvalidRequest", name, err)
		}
	}
	// Nothing above may have claimed the nonce or charged the bucket.
	r := admit(t, s, admission.Request{NonceKey: nonce, NonceTTL: time.Minute, Buckets: []admission.Bucket{ok}, Now: base})
	if !r.Allowed() {
		t.Fatalf("a rejected request left state behind: %+v", r)
	}
}

// testBeforeEpoch: a store's memory of nonces begins at its epoch (when the
// store, or the server behind it, started); a request signed before it is
// refused without touching its nonce or its buckets, and one signed now is
// admitted. Real time: the epoch is the store's wall clock, not Request.Now.
func testBeforeEpoch(t *testing.T, s admission.Store) {
	acct, app := newID("acct"), newID("app")
	bucket := admission.Bucket{Key: admission.AppBucketKey(acct, app), Limit: 5, Window: time.Minute}
	now := time.Now()
	signed := func(at time.Time, nonce string) admission.Request {
		return admission.Request{NonceKey: admission.NonceKey(acct, app, nonce), NonceTTL: 3 * time.Minute,
			Buckets: []admission.Bucket{bucket}, Now: now, SignedAt: at}
	}
	// Long before any store or server of this machine started.
	old := signed(time.Unix(1_000_000_000, 0), newNonce())
	r := admit(t, s, old)
	if !r.BeforeEpoch || r.NonceReused || r.Allowed() {
		t.Fatalf("signed before the epoch: %+v, want BeforeEpoch", r)
	}
	wantRemaining(t, r, 5)
	// The refused request claimed nothing: the same nonce, signed now, is
	// fresh.
	old.SignedAt = now
	if r := admit(t, s, old); !r.Allowed() || r.BeforeEpoch {
		t.Fatalf("nonce of a refused request, signed now: %+v", r)
	}
	wantRemaining(t, admit(t, s, signed(now, newNonce())), 3)
	// Without a signed time there is nothing to check.
	if r := admit(t, s, signed(time.Time{}, newNonce())); !r.Allowed() {
		t.Fatalf("unsigned call: %+v", r)
	}
}

// ReplayAfterEmptyRestart checks, for a store whose restart loses every
// nonce, that a request admitted before the restart is refused after it
// (BeforeEpoch) although the new store never saw its nonce, and that a
// request signed after the restart is admitted. restart returns the store as
// it is after an empty restart; it is called a second after the original
// request was signed, so the restart falls in a later second.
func ReplayAfterEmptyRestart(t *testing.T, before admission.Store, restart func() admission.Store) {
	acct, app := newID("acct"), newID("app")
	signedAt := time.Now()
	req := admission.Request{
		NonceKey: admission.NonceKey(acct, app, newNonce()),
		NonceTTL: 3 * time.Minute,
		Buckets:  admission.Limits{}.Buckets(admission.Subject{AccountID: acct, AppID: app}),
		Now:      signedAt,
		SignedAt: signedAt,
	}
	if r := admit(t, before, req); !r.Allowed() {
		t.Fatalf("original request: %+v", r)
	}
	time.Sleep(time.Until(signedAt.Truncate(time.Second).Add(time.Second)))
	after := restart()
	req.Now = time.Now()
	if r := admit(t, after, req); r.Allowed() || !r.BeforeEpoch {
		t.Fatalf("replay into an empty store: %+v, want BeforeEpoch", r)
	}
	fresh := req
	fresh.NonceKey, fresh.SignedAt = admission.NonceKey(acct, app, newNonce()), time.Now()
	if r := admit(t, after, fresh); !r.Allowed() {
		t.Fatalf("a request signed after the restart: %+v", r)
	}
}

func admit(t *testing.T, s admission.Store, req admission.Request) admission.Result {
	t.Helper()
	r, err := s.Admit(context.Background(), req)
	if err != nil {
		t.Fatalf("Admit: %v", err)
	}
	if len(r.Buckets) != len(req.Buckets) {
		t.Fatalf("Admit returned %d bucket states for %d buckets", len(r.Buckets), len(req.Buckets))
	}
	return r
}

// charge admits one request with a fresh nonce.
func charge(t *testing.T, s admission.Store, acct, app string, now time.Time, buckets ...admission.Bucket) admission.Result {
	t.Helper()
	return admit(t, s, admission.Request{
		NonceKey: admission.NonceKey(acct, app, newNonce()),
		NonceTTL: 3 * time.Minute,
		Buckets:  buckets,
		Now:      now,
	})
}

func wantRemaining(t *testing.T, r admission.Result, want int64) {
	t.Helper()
	if got := r.Buckets[0].Remaining; got != want {
		t.Fatalf("remaining %d, want %d", got, want)
	}
}

// newNonce returns a nonce in the shape the spec requires (lowercase hex).
func newNonce() string { return randomHex(16) }

func newID(kind string) string { return kind + "_" + randomHex(8) }

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
