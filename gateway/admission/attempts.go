package admission

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/redis/rueidis"
)

// AttemptLimit is one rolling-window limit an attempt is counted against.
type AttemptLimit struct {
	// Key names what is limited, e.g. "{sv}:ip:203.0.113.7". Every key of
	// one call must carry the same hash tag (Redis Cluster runs the call
	// on one node).
	Key string
	// Limit is the number of attempts allowed inside the window; at least 1.
	Limit int64
}

// AttemptRequest is one attempt to count.
type AttemptRequest struct {
	Limits []AttemptLimit
	// Window is the rolling window: an attempt counts until Window after
	// it was made.
	Window time.Duration
	// Now is the gateway's clock.
	Now time.Time
}

// AttemptState is one limit's state after a call.
type AttemptState struct {
	Limit     int64
	Remaining int64
	// Reset is when the oldest attempt counted leaves the window (Now when
	// none is counted).
	Reset time.Time
	// Exceeded reports that this limit refused the attempt.
	Exceeded bool
}

// AttemptResult is the outcome of AttemptStore.Attempt.
type AttemptResult struct {
	// Allowed: no limit was full, and the attempt was recorded against
	// every limit. A refused attempt is recorded against none, so it does
	// not extend the window.
	Allowed bool
	// RetryAfter is, for a refused attempt, how long until every full
	// limit has room again: until enough of its oldest attempts have left
	// the window.
	RetryAfter time.Duration
	// Limits holds one state per AttemptRequest.Limits entry, in order.
	Limits []AttemptState
}

// Tightest returns the limit with the fewest attempts remaining (the
// smallest limit on a tie), for the X-RateLimit-* headers.
func (r AttemptResult) Tightest() AttemptState {
	var best AttemptState
	for i, l := range r.Limits {
		if i == 0 || l.Remaining < best.Remaining || (l.Remaining == best.Remaining && l.Limit < best.Limit) {
			best = l
		}
	}
	return best
}

// AttemptStore counts attempts in rolling windows (a log of timestamps per
// key, not fixed windows): the check of every limit and the recording of an
// allowed attempt are one atomic step. Implementations are safe for
// concurrent use; the Redis and Memory stores are both AttemptStores.
type AttemptStore interface {
	Attempt(ctx context.Context, req AttemptRequest) (AttemptResult, error)
}

func (req *AttemptRequest) check() error {
	if len(req.Limits) == 0 {
		return fmt.Errorf("%w: an attempt without a limit", ErrInvalidRequest)
	}
	if req.Now.IsZero() {
		return fmt.Errorf("%w: Now is not set", ErrInvalidRequest)
	}
	if req.Window < time.Millisecond {
		return fmt.Errorf("%w: window %v is below one millisecond", ErrInvalidRequest, req.Window)
	}
	tag := ""
	for i, l := range req.Limits {
		if l.Key == "" || l.Limit < 1 {
			return fmt.Errorf("%w: limit %q of %d", ErrInvalidRequest, l.Key, l.Limit)
		}
		t, ok := hashTag(l.Key)
		if len(req.Limits) > 1 && !ok {
			return fmt.Errorf("%w: key %q has no hash tag", ErrInvalidRequest, l.Key)
		}
		if i > 0 && t != tag {
			return fmt.Errorf("%w: key %q is not tagged {%s}", ErrInvalidRequest, l.Key, tag)
		}
		tag = t
	}
	return nil
}

// attemptOutcome turns per-limit counts into the result. counts[i] is the
// number of attempts in the window before this one; at(i, k) is the time of
// the k-th oldest of them.
func attemptOutcome(req AttemptRequest, counts []int64, at func(i int, k int64) time.Time) AttemptResult {
	res := AttemptResult{Allowed: true, Limits: make([]AttemptState, len(req.Limits))}
	for i, l := range req.Limits {
		if counts[i] >= l.Limit {
			res.Allowed = false
			// Room comes back when the attempt at index count-limit (from
			// the oldest) leaves the window.
			if d := at(i, counts[i]-l.Limit).Add(req.Window).Sub(req.Now); d > res.RetryAfter {
				res.RetryAfter = d
			}
		}
	}
	for i, l := range req.Limits {
		n := counts[i]
		if res.Allowed {
			n++
		}
		st := AttemptState{Limit: l.Limit, Remaining: max(0, l.Limit-n), Exceeded: counts[i] >= l.Limit, Reset: req.Now}
		switch {
		case counts[i] > 0:
			st.Reset = at(i, 0).Add(req.Window)
		case res.Allowed:
			st.Reset = req.Now.Add(req.Window)
		}
		res.Limits[i] = st
	}
	if !res.Allowed {
		res.RetryAfter = roundUpSecond(res.RetryAfter)
	}
	return res
}

// roundUpSecond rounds d up to whole seconds, at least one (Retry-After is
// in seconds; rounding down would bring the client back too early).
func roundUpSecond(d time.Duration) time.Duration {
	if d < time.Second {
		return time.Second
	}
	return (d + time.Second - 1).Truncate(time.Second)
}

// Attempt implements AttemptStore in memory (one gateway alone).
func (s *Memory) Attempt(_ context.Context, req AttemptRequest) (AttemptResult, error) {
	if err := req.check(); err != nil {
		return AttemptResult{}, err
	}
	return s.attempts.attempt(req), nil
}

// NewMemoryAttempts is an AttemptStore in memory alone (no nonces or
// buckets), for a gateway whose admission store is not one.
func NewMemoryAttempts() AttemptStore { return &memoryAttempts{} }

type memoryAttempts struct{ log attemptLog }

func (s *memoryAttempts) Attempt(_ context.Context, req AttemptRequest) (AttemptResult, error) {
	if err := req.check(); err != nil {
		return AttemptResult{}, err
	}
	return s.log.attempt(req), nil
}

// attemptLog is the Memory store's log of attempts per key.
type attemptLog struct {
	mu    sync.Mutex
	keys  map[string][]time.Time // ascending
	calls int
}

func (a *attemptLog) attempt(req AttemptRequest) AttemptResult {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.keys == nil {
		a.keys = map[string][]time.Time{}
	}
	a.calls++
	if a.calls%1024 == 0 {
		// Forget keys whose attempts have all left the window.
		for k, ts := range a.keys {
			if len(ts) == 0 || !ts[len(ts)-1].After(req.Now.Add(-req.Window)) {
				delete(a.keys, k)
			}
		}
	}
	counts := make([]int64, len(req.Limits))
	for i, l := range req.Limits {
		ts := a.keys[l.Key]
		// Attempts at or before Now-Window have left it.
		cut := sort.Search(len(ts), func(j int) bool { return ts[j].After(req.Now.Add(-req.Window)) })
		ts = ts[cut:]
		a.keys[l.Key] = ts
		counts[i] = int64(len(ts))
	}
	res := attemptOutcome(req, counts, func(i int, k int64) time.Time { return a.keys[req.Limits[i].Key][k] })
	if res.Allowed {
		for _, l := range req.Limits {
			ts := a.keys[l.Key]
			j := sort.Search(len(ts), func(j int) bool { return ts[j].After(req.Now) })
			ts = append(ts, time.Time{})
			copy(ts[j+1:], ts[j:])
			ts[j] = req.Now
			a.keys[l.Key] = ts
		}
	}
	for _, l := range req.Limits {
		if len(a.keys[l.Key]) == 0 {
			delete(a.keys, l.Key)
		}
	}
	return res
}

// attemptScript checks and records one attempt against rolling windows
// kept as sorted sets (score: the attempt's time in milliseconds).
//
// KEYS are the limits' sets; ARGV[1] is now (ms), ARGV[2] the window (ms),
// ARGV[3] this attempt's unique member, then one limit per key. Each set
// first loses the attempts that left the window (score <= now - window).
// When every set has room the attempt is added to each, and each set
// expires a window after its newest attempt; a refused attempt is added to
// none. The reply is {allowed, then per key: count before this attempt,
// score of the oldest counted attempt (-1: none), score of the attempt
// whose departure makes room (-1: the key had room)}.
var attemptScript = rueidis.NewLuaScript(attemptLua)

const attemptLua = `
local now = tonumber(ARGV[1])
local win = tonumber(ARGV[2])
local allowed = 1
local out = {0}
for i = 1, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - win)
  local n = redis.call('ZCARD', KEYS[i])
  local limit = tonumber(ARGV[3 + i])
  local oldest = -1
  local room = -1
  if n > 0 then
    oldest = tonumber(redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')[2])
  end
  if n >= limit then
    allowed = 0
    room = tonumber(redis.call('ZRANGE', KEYS[i], n - limit, n - limit, 'WITHSCORES')[2])
  end
  out[#out + 1] = n
  out[#out + 1] = oldest
  out[#out + 1] = room
end
if allowed == 1 then
  for i = 1, #KEYS do
    redis.call('ZADD', KEYS[i], now, ARGV[3])
    redis.call('PEXPIRE', KEYS[i], win)
  end
end
out[1] = allowed
return out
`

// Attempt implements AttemptStore on Redis, shared by every gateway
// replica: one script call per attempt. Keys live under Prefix+"at:".
func (s *Redis) Attempt(ctx context.Context, req AttemptRequest) (AttemptResult, error) {
	if err := req.check(); err != nil {
		return AttemptResult{}, err
	}
	var id [8]byte
	_, _ = rand.Read(id[:])
	nowMs := req.Now.UnixMilli()
	keys := make([]string, len(req.Limits))
	args := make([]string, 0, 3+len(req.Limits))
	args = append(args, strconv.FormatInt(nowMs, 10), strconv.FormatInt(millis(req.Window), 10),
		strconv.FormatInt(nowMs, 10)+":"+hex.EncodeToString(id[:]))
	for i, l := range req.Limits {
		keys[i] = s.cfg.Prefix + "at:" + l.Key
		args = append(args, strconv.FormatInt(l.Limit, 10))
	}
	m := s.cfg.Metrics.series(false)
	c, err := s.conn(ctx)
	if err != nil {
		if m != nil {
			m.unavailable.Inc()
		}
		return AttemptResult{}, err
	}
	start := time.Now()
	reply, err := attemptScript.Exec(ctx, c, keys, args).AsIntSlice()
	if m != nil {
		m.done(ctx, start, err)
	}
	if err != nil {
		return AttemptResult{}, fmt.Errorf("admission: redis: %w", err)
	}
	if len(reply) != 1+3*len(keys) {
		return AttemptResult{}, fmt.Errorf("admission: redis: attempt script replied %d values for %d keys", len(reply), len(keys))
	}
	counts := make([]int64, len(keys))
	for i := range keys {
		counts[i] = reply[1+3*i]
	}
	res := attemptOutcome(req, counts, func(i int, k int64) time.Time {
		if k == 0 {
			return time.UnixMilli(reply[2+3*i])
		}
		return time.UnixMilli(reply[3+3*i])
	})
	if (reply[0] == 1) != res.Allowed {
		return AttemptResult{}, fmt.Errorf("admission: redis: attempt script and limits disagree")
	}
	return res, nil
}
