// Package admission decides, in one call per verified request, whether the
// request's nonce is fresh and whether the rate buckets that apply to it have
// room. It is step 5 of the gateway's request path: it runs after the HMAC
// signature has been verified, so only requests that really come from an app
// can claim nonces or spend its quota.
//
// # Semantics of Store.Admit
//
//   - The nonce (Request.NonceKey) is claimed with set-if-absent semantics for
//     Request.NonceTTL. The gateway passes twice the freshness window, so a
//     nonce can never be replayed while its timestamp is still accepted.
//   - A reused nonce charges nothing. The Result has NonceReused set and its
//     Buckets report the current state of each bucket without this request;
//     the gateway answers 401 NONCE_REUSED and can still send X-RateLimit-*.
//   - Otherwise every bucket is incremented, even when another bucket (or the
//     bucket itself) is already full: requests rejected with 429 still count,
//     so a client hammering past its limit keeps its window full instead of
//     being let through the moment the counter would otherwise drop.
//   - Windows are fixed and aligned to the Unix epoch: the window of a request
//     is floor(Request.Now / Bucket.Window). Using the gateway's clock (not the
//     store's) keeps every replica and every backend on the same boundaries,
//     and lets tests choose the window explicitly.
//   - For each bucket, count is the number of requests charged to it in the
//     current window including this one; Exceeded is count > Limit;
//     Remaining is max(0, Limit-count); Reset is the end of the window.
//   - Expiry of nonces and counters is measured by the store (Redis's clock,
//     or the Memory store's own clock) from the moment of the call. Counters
//     live until the end of their window plus a short grace so that a replica
//     whose clock lags a little still finds the counter rather than
//     recreating it at zero.
//   - The whole call is atomic: concurrent calls never admit more than Limit
//     requests into one bucket window, and never claim one nonce twice.
//
// # Empty restarts
//
// A store that loses its memory (Redis restarted without its data; a new
// Memory store in a restarted process) has forgotten the nonces it claimed,
// so a request captured before the loss could be replayed while its
// timestamp is still inside the window. Each store therefore has an epoch:
// the second its memory began (in Redis, the server's start, kept in a
// marker key without expiry per hash tag; in Memory, when the store was
// made). A call with Request.SignedAt before its epoch's second is refused
// (Result.BeforeEpoch) before the nonce is looked at, and nothing is claimed
// or charged. Only requests signed before the restart are refused; a replay
// slips through only if the original was signed in the same second as the
// store came back empty. A flush or an eviction without a restart is not
// detected: the deployment must allow neither (docs/operations.md).
//
// # Keys and Redis Cluster
//
// All keys of one call must hash to one Redis Cluster slot so that the Redis
// store can run the call as one script on one node. The platform's choice is
// a hash tag on the developer account id: the account bucket is shared by all
// the account's apps, and an app belongs to exactly one account, so every key
// a request touches (nonce, app bucket, account bucket, sandbox bucket) can
// carry the same tag. NonceKey and Limits.Buckets build keys in that shape
// ("{acct_…}:…"). Every store rejects a call whose keys would fall on
// different slots (ErrInvalidRequest), so a mistake shows up in development
// rather than as CROSSSLOT errors on a production cluster. One account's
// traffic therefore lands on one Redis node; at most 1,800 requests a minute
// per account (plus enterprise overrides) that is far from a hot spot.
//
// A bucket Key must always be used with the same Window: the window index is
// part of the stored key, not the window length.
package admission

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrInvalidRequest is wrapped by the error of a call whose Request is
// malformed; it is a programming error in the caller, not a client's fault.
var ErrInvalidRequest = errors.New("admission: invalid request")

// ErrClosed is returned by calls on a store that has been closed.
var ErrClosed = errors.New("admission: store closed")

// counterGrace keeps a counter alive past the end of its window so that a
// gateway replica whose clock runs slightly behind still increments the same
// counter instead of starting the closed window again from zero.
const counterGrace = 5 * time.Second

// Bucket is one fixed-window rate limit charged by a request.
type Bucket struct {
	// Key identifies the bucket, e.g. AppBucketKey(account, app). It must
	// carry the call's hash tag (see the package documentation).
	Key string
	// Limit is the number of requests admitted per window; at least 1.
	Limit int64
	// Window is the length of the fixed window; at least one millisecond.
	Window time.Duration
}

// Request is one verified request to admit.
type Request struct {
	// NonceKey identifies the nonce within its app, e.g.
	// NonceKey(account, app, nonce). Empty means the call claims no nonce
	// and only charges buckets.
	NonceKey string
	// NonceTTL is how long the nonce stays claimed: at least the freshness
	// window (the gateway passes twice the window). Required with NonceKey.
	NonceTTL time.Duration
	// Buckets are the rate limits this request is charged against.
	Buckets []Bucket
	// Now is the gateway's clock; it selects each bucket's window.
	Now time.Time
	// SignedAt is the request's signed timestamp; zero skips the epoch
	// check (see "Empty restarts"). With it, the call's keys must carry a
	// hash tag, which also places the epoch marker.
	SignedAt time.Time
}

// BucketState is the state of one bucket after a call.
type BucketState struct {
	Key       string
	Limit     int64
	Remaining int64
	// Reset is the end of the current window, when Remaining returns to Limit.
	Reset time.Time
	// Exceeded reports that this request went past the bucket's Limit.
	Exceeded bool
}

// Result is the outcome of Store.Admit.
type Result struct {
	// NonceReused reports that the nonce was already claimed; nothing was
	// charged.
	NonceReused bool
	// BeforeEpoch reports that the request was signed before the store's
	// memory began, so its nonce may have been claimed and forgotten; the
	// nonce was not looked at and nothing was charged.
	BeforeEpoch bool
	// Buckets holds one state per Request.Buckets entry, in the same order.
	Buckets []BucketState
}

// Allowed reports whether the request may proceed: a fresh nonce and no
// bucket exceeded.
func (r Result) Allowed() bool {
	if r.NonceReused || r.BeforeEpoch {
		return false
	}
	for _, b := range r.Buckets {
		if b.Exceeded {
			return false
		}
	}
	return true
}

// Tightest returns the bucket that constrains the client most: the fewest
// requests remaining, and on a tie the smallest limit, because the spec makes
// X-RateLimit-Limit "the ceiling of the most constrained bucket". It returns
// the zero BucketState when the call had no buckets.
func (r Result) Tightest() BucketState {
	var best BucketState
	for i, b := range r.Buckets {
		if i == 0 || b.Remaining < best.Remaining ||
			(b.Remaining == best.Remaining && b.Limit < best.Limit) {
			best = b
		}
	}
	return best
}

// RetryAfter returns how long a rejected client should wait: until the latest
// reset among the exceeded buckets, since an earlier reset alone would only
// earn it another 429. The result is rounded up to whole seconds (Retry-After
// is sent in seconds, and rounding down would bring the client back a moment
// too early) and is at least one second. It is zero when no bucket is
// exceeded.
func (r Result) RetryAfter(now time.Time) time.Duration {
	var latest time.Time
	for _, b := range r.Buckets {
		if b.Exceeded && b.Reset.After(latest) {
			latest = b.Reset
		}
	}
	if latest.IsZero() {
		return 0
	}
	d := latest.Sub(now)
	if d < time.Second {
		return time.Second
	}
	return (d + time.Second - 1).Truncate(time.Second)
}

// Store admits requests: it claims nonces and charges rate buckets in one
// atomic step. Implementations are safe for concurrent use.
type Store interface {
	// Admit claims req's nonce and charges its buckets as described in the
	// package documentation. An error means nothing is known about the
	// request; the gateway decides whether to fail open or closed.
	Admit(ctx context.Context, req Request) (Result, error)
	// Ping reports whether the store can admit requests now, for the
	// gateway's readiness; it returns within ctx's deadline.
	Ping(ctx context.Context) error
	// Close releases the store's resources.
	Close() error
}

// NonceKey returns the key that claims nonce for appID of accountID. It
// carries the account's hash tag so that it shares a slot with the buckets.
func NonceKey(accountID, appID, nonce string) string {
	return "{" + accountID + "}:" + appID + ":" + nonce
}

// AppBucketKey returns the key of the per-app bucket.
func AppBucketKey(accountID, appID string) string {
	return "{" + accountID + "}:app:" + appID
}

// AccountBucketKey returns the key of the per-developer-account bucket shared
// by all the account's apps.
func AccountBucketKey(accountID string) string {
	return "{" + accountID + "}:acct"
}

// SandboxBucketKey returns the key of the sandbox sub-limit of one app.
func SandboxBucketKey(accountID, appID string) string {
	return "{" + accountID + "}:sbx:" + appID
}

// windowIndex returns floor(now / w) in units of w since the Unix epoch.
func windowIndex(now time.Time, w time.Duration) int64 {
	n, d := now.UnixNano(), int64(w)
	q := n / d
	if n%d < 0 {
		q--
	}
	return q
}

// windowEnd returns the instant window idx of length w ends.
func windowEnd(idx int64, w time.Duration) time.Time {
	return time.Unix(0, (idx+1)*int64(w)).UTC()
}

// counterTTL is how long the counter of window idx must live after now.
func counterTTL(now time.Time, idx int64, w time.Duration) time.Duration {
	return windowEnd(idx, w).Sub(now) + counterGrace
}

// state turns a bucket and its count into the state reported to callers.
func state(b Bucket, count int64, reset time.Time) BucketState {
	return BucketState{
		Key:       b.Key,
		Limit:     b.Limit,
		Remaining: max(0, b.Limit-count),
		Reset:     reset,
		Exceeded:  count > b.Limit,
	}
}

// check validates req and returns the part of its keys that Redis Cluster
// hashes, which both stores use to place the call.
func (req *Request) check() (string, error) {
	if req.NonceKey == "" && len(req.Buckets) == 0 {
		return "", fmt.Errorf("%w: neither a nonce nor a bucket", ErrInvalidRequest)
	}
	if req.Now.IsZero() {
		return "", fmt.Errorf("%w: Now is not set", ErrInvalidRequest)
	}
	if req.NonceKey != "" && req.NonceTTL < time.Millisecond {
		return "", fmt.Errorf("%w: NonceTTL %v is below one millisecond", ErrInvalidRequest, req.NonceTTL)
	}
	for _, b := range req.Buckets {
		switch {
		case b.Key == "":
			return "", fmt.Errorf("%w: bucket without a key", ErrInvalidRequest)
		case b.Limit < 1:
			return "", fmt.Errorf("%w: bucket %q: limit %d is below 1", ErrInvalidRequest, b.Key, b.Limit)
		case b.Window < time.Millisecond:
			return "", fmt.Errorf("%w: bucket %q: window %v is below one millisecond", ErrInvalidRequest, b.Key, b.Window)
		}
	}
	keys := len(req.Buckets)
	first := ""
	if req.NonceKey != "" {
		keys++
		first = req.NonceKey
	} else {
		first = req.Buckets[0].Key
	}
	if keys == 1 && req.SignedAt.IsZero() {
		// A lone key is on one slot whatever its shape.
		return slotPart(first), nil
	}
	tag, ok := hashTag(first)
	if !ok {
		return "", fmt.Errorf("%w: key %q has no hash tag", ErrInvalidRequest, first)
	}
	for _, b := range req.Buckets {
		if t, ok := hashTag(b.Key); !ok || t != tag {
			return "", fmt.Errorf("%w: key %q is not tagged {%s}", ErrInvalidRequest, b.Key, tag)
		}
	}
	return tag, nil
}

// hashTag returns the hash tag of key by Redis Cluster's rule: the text
// between the first '{' and the first '}' after it, if not empty.
func hashTag(key string) (string, bool) {
	s := strings.IndexByte(key, '{')
	if s < 0 {
		return "", false
	}
	e := strings.IndexByte(key[s+1:], '}')
	if e <= 0 {
		return "", false
	}
	return key[s+1 : s+1+e], true
}

// slotPart returns what Redis Cluster hashes for key.
func slotPart(key string) string {
	if t, ok := hashTag(key); ok {
		return t
	}
	return key
}
