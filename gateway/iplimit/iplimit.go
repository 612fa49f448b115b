// Package iplimit is the gateway's pre-authentication limiter: a token bucket
// per source address, checked before any credential is verified so that a
// flood of unsigned or badly signed requests is turned away cheaply, in
// memory, without touching Redis or core.
//
// Addresses are grouped: an IPv4 address is its own bucket, while IPv6
// addresses share a bucket per /64 (configurable), because a single client
// usually controls a whole /64 and could otherwise mint a fresh bucket for
// every request. Strings that are not addresses share one bucket.
//
// Memory is bounded by Config.MaxEntries. An entry whose bucket has refilled
// completely carries no information (a new entry would start full too), so
// such idle entries are dropped first; only when the table is full of active
// addresses is an active one evicted, the one closest to full, which at worst
// gives that address a fresh burst.
package iplimit

import (
	"fmt"
	"hash/maphash"
	"math"
	"net/netip"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Config configures a Limiter. Zero fields take the defaults.
type Config struct {
	// RatePerMinute is the sustained rate per address (default 3000).
	RatePerMinute int
	// Burst is how many requests an address may send at once (default 300).
	Burst int
	// MaxEntries bounds the number of addresses tracked (default 100000).
	MaxEntries int
	// IPv6PrefixLen is the IPv6 prefix that shares one bucket (default 64).
	IPv6PrefixLen int
}

// Defaults. The limiter only catches floods before anything is verified: it
// sits above the developer-account ceiling (1,800/min), since all of an
// account's apps may call from one address.
const (
	DefaultRatePerMinute = 3000
	DefaultBurst         = 300
	DefaultMaxEntries    = 100_000
	DefaultIPv6PrefixLen = 64
)

// Validate reports a configuration New cannot use.
func (c Config) Validate() error {
	switch {
	case c.RatePerMinute < 0:
		return fmt.Errorf("iplimit: rate %d per minute is negative", c.RatePerMinute)
	case c.Burst < 0:
		return fmt.Errorf("iplimit: burst %d is negative", c.Burst)
	case c.MaxEntries < 0:
		return fmt.Errorf("iplimit: max entries %d is negative", c.MaxEntries)
	case c.IPv6PrefixLen < 0 || c.IPv6PrefixLen > 128:
		return fmt.Errorf("iplimit: IPv6 prefix length %d is outside 0..128", c.IPv6PrefixLen)
	}
	return nil
}

func (c Config) withDefaults() Config {
	if c.RatePerMinute == 0 {
		c.RatePerMinute = DefaultRatePerMinute
	}
	if c.Burst == 0 {
		c.Burst = DefaultBurst
	}
	if c.MaxEntries == 0 {
		c.MaxEntries = DefaultMaxEntries
	}
	if c.IPv6PrefixLen == 0 {
		c.IPv6PrefixLen = DefaultIPv6PrefixLen
	}
	return c
}

// Decision is the outcome of one Take, with what the gateway needs for the
// X-RateLimit-* headers of an unauthenticated answer.
type Decision struct {
	Allowed bool
	// Limit is the bucket's capacity (Config.Burst): the most an address
	// can send at once, the ceiling Remaining counts down from.
	Limit int
	// Remaining is how many more requests would be allowed right now.
	Remaining int
	// Reset is when the bucket will be full again.
	Reset time.Time
	// RetryAfter is set when Allowed is false: how long until one request
	// would pass, rounded up to whole seconds and at least one second.
	RetryAfter time.Duration
}

// Limiter is a set of per-address token buckets. It is safe for concurrent
// use.
type Limiter struct {
	limit    rate.Limit
	burst    int
	refill   time.Duration // time for an empty bucket to fill up
	v6bits   int
	perShard int
	seed     maphash.Seed
	shards   []shard
	mask     uint64
}

type shard struct {
	mu sync.Mutex
	m  map[netip.Addr]*rate.Limiter
	// nextSweep rations full sweeps of a crowded shard to one per refill
	// period: sooner, nothing new would have become idle.
	nextSweep time.Time
	// Keeps neighbouring shards' locks off one cache line.
	_ [40]byte
}

// evictionSample is how many entries are inspected to choose a victim when a
// shard is full of active addresses: enough to avoid evicting a heavy user
// most of the time, few enough to stay cheap under an address-spraying flood.
const evictionSample = 8

// New returns a Limiter.
func New(cfg Config) (*Limiter, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	n := 64
	for n > 1 && cfg.MaxEntries/n < 16 {
		n /= 2
	}
	perSecond := float64(cfg.RatePerMinute) / 60
	l := &Limiter{
		limit:    rate.Limit(perSecond),
		burst:    cfg.Burst,
		refill:   time.Duration(float64(cfg.Burst) / perSecond * float64(time.Second)),
		v6bits:   cfg.IPv6PrefixLen,
		perShard: cfg.MaxEntries / n,
		seed:     maphash.MakeSeed(),
		shards:   make([]shard, n),
		mask:     uint64(n - 1),
	}
	for i := range l.shards {
		l.shards[i].m = make(map[netip.Addr]*rate.Limiter)
	}
	return l, nil
}

// Allow takes one token for ip at now. When it is refused, retryAfter says
// how long to wait (whole seconds, at least one).
func (l *Limiter) Allow(ip string, now time.Time) (ok bool, retryAfter time.Duration) {
	d := l.Take(ip, now)
	return d.Allowed, d.RetryAfter
}

// Take takes one token for ip at now and reports the bucket's state after it.
func (l *Limiter) Take(ip string, now time.Time) Decision {
	key := l.key(ip)
	sh := l.shard(key)

	sh.mu.Lock()
	lim := sh.m[key]
	if lim == nil {
		if len(sh.m) >= l.perShard {
			l.makeRoom(sh, now)
		}
		lim = rate.NewLimiter(l.limit, l.burst)
		sh.m[key] = lim
	}
	ok := lim.AllowN(now, 1)
	tokens := lim.TokensAt(now)
	sh.mu.Unlock()

	d := Decision{
		Allowed:   ok,
		Limit:     l.burst,
		Remaining: int(math.Floor(max(0, tokens))),
		Reset:     now.Add(l.durationFor(float64(l.burst) - tokens)),
	}
	if !ok {
		d.RetryAfter = ceilSecond(l.durationFor(1 - tokens))
	}
	return d
}

// Len returns the number of addresses tracked, for metrics.
func (l *Limiter) Len() int {
	n := 0
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.Lock()
		n += len(sh.m)
		sh.mu.Unlock()
	}
	return n
}

// makeRoom frees at least one slot in a full shard. The caller holds sh.mu.
func (l *Limiter) makeRoom(sh *shard, now time.Time) {
	if !now.Before(sh.nextSweep) {
		sh.nextSweep = now.Add(l.refill)
		for k, lim := range sh.m {
			if l.idle(lim, now) {
				delete(sh.m, k)
			}
		}
		if len(sh.m) < l.perShard {
			return
		}
	}
	var victim netip.Addr
	best := math.Inf(-1)
	seen := 0
	for k, lim := range sh.m {
		tokens := lim.TokensAt(now)
		if tokens > best {
			victim, best = k, tokens
		}
		seen++
		if seen == evictionSample || tokens >= float64(l.burst) {
			break
		}
	}
	delete(sh.m, victim)
}

// idle reports a bucket that has refilled completely: dropping it changes
// nothing, since a new bucket starts full as well.
func (l *Limiter) idle(lim *rate.Limiter, now time.Time) bool {
	return lim.TokensAt(now) >= float64(l.burst)
}

// key maps an address string to its bucket's key.
func (l *Limiter) key(ip string) netip.Addr {
	a, ok := parseHost(ip)
	if !ok {
		return netip.Addr{}
	}
	if a.Is6() && l.v6bits < 128 {
		p, _ := a.Prefix(l.v6bits)
		a = p.Addr()
	}
	return a
}

func (l *Limiter) shard(key netip.Addr) *shard {
	return &l.shards[maphash.Comparable(l.seed, key.As16())&l.mask]
}

// durationFor returns how long the bucket takes to gain tokens.
func (l *Limiter) durationFor(tokens float64) time.Duration {
	if tokens <= 0 {
		return 0
	}
	return time.Duration(math.Ceil(tokens / float64(l.limit) * float64(time.Second)))
}

func ceilSecond(d time.Duration) time.Duration {
	if d < time.Second {
		return time.Second
	}
	return (d + time.Second - 1).Truncate(time.Second)
}
