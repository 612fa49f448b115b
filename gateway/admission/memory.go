package admission

import (
	"context"
	"fmt"
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
)

// MemoryConfig configures a Memory store. Zero fields take the defaults.
type MemoryConfig struct {
	// Shards is the number of independently locked maps, a power of two
	// (default 64). Calls of one account always meet on one shard.
	Shards int
	// CleanupInterval is how often expired nonces and counters are
	// reclaimed (default 30s).
	CleanupInterval time.Duration
	// Clock measures TTLs (default: the process's monotonic clock). Window
	// selection always uses Request.Now.
	Clock clock.Clock
	// Epoch is when the store's memory of nonces begins (default: when it
	// is made): a request signed before it may replay one that an earlier
	// process admitted, and is refused.
	Epoch time.Time
}

// Validate reports a configuration NewMemory cannot use.
func (c MemoryConfig) Validate() error {
	if c.Shards < 0 || c.Shards&(c.Shards-1) != 0 {
		return fmt.Errorf("admission: memory shards %d is not a power of two", c.Shards)
	}
	if c.CleanupInterval < 0 {
		return fmt.Errorf("admission: memory cleanup interval %v is negative", c.CleanupInterval)
	}
	return nil
}

// Memory is a Store held in this process's memory, for the dev role and
// single-process deployments. Several gateway replicas must use Redis: each
// Memory store counts only what it sees.
type Memory struct {
	shards []memShard
	mask   uint64
	seed   maphash.Seed
	clock  clock.Clock
	start  time.Time
	// epoch is the Unix second (wall time) the store was made: requests
	// signed earlier may be replays of what an earlier process admitted.
	epoch int64
	// attempts is the log of Attempt (rolling windows).
	attempts attemptLog

	closed atomic.Bool
	stop   chan struct{}
	done   chan struct{}
	once   sync.Once
}

type memShard struct {
	mu       sync.Mutex
	nonces   map[string]int64 // expiry, in store time
	counters map[counterID]memCounter
	// Keeps neighbouring shards' locks off one cache line.
	_ [40]byte
}

type counterID struct {
	key    string
	window int64
}

type memCounter struct {
	count   int64
	expires int64 // in store time
}

type monotonic struct{}

func (monotonic) Now() time.Time { return time.Now() }

// NewMemory returns a Memory store and starts its janitor, which Close
// stops. It panics if cfg does not pass Validate: configuration errors are
// meant to stop the process at start-up.
func NewMemory(cfg MemoryConfig) *Memory {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	if cfg.Shards == 0 {
		cfg.Shards = 64
	}
	if cfg.CleanupInterval == 0 {
		cfg.CleanupInterval = 30 * time.Second
	}
	if cfg.Clock == nil {
		cfg.Clock = monotonic{}
	}
	if cfg.Epoch.IsZero() {
		cfg.Epoch = time.Now()
	}
	m := &Memory{
		shards: make([]memShard, cfg.Shards),
		mask:   uint64(cfg.Shards - 1),
		seed:   maphash.MakeSeed(),
		clock:  cfg.Clock,
		start:  cfg.Clock.Now(),
		epoch:  cfg.Epoch.Unix(),
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
	}
	for i := range m.shards {
		m.shards[i].nonces = make(map[string]int64)
		m.shards[i].counters = make(map[counterID]memCounter)
	}
	go m.janitor(cfg.CleanupInterval)
	return m
}

// now returns store time: nanoseconds since the store was made, so that
// expiry survives wall-clock steps when the clock is monotonic.
func (m *Memory) now() int64 { return int64(m.clock.Now().Sub(m.start)) }

// Ping implements Store: a Memory store is ready until it is closed.
func (m *Memory) Ping(context.Context) error {
	if m.closed.Load() {
		return ErrClosed
	}
	return nil
}

// beforeEpoch reports whether a request signed at signedAt predates the
// store, whose memory of nonces began when it was made.
func (m *Memory) beforeEpoch(signedAt time.Time) bool {
	return !signedAt.IsZero() && signedAt.Unix() < m.epoch
}

// Admit implements Store.
func (m *Memory) Admit(_ context.Context, req Request) (Result, error) {
	slot, err := req.check()
	if err != nil {
		return Result{}, err
	}
	if m.closed.Load() {
		return Result{}, ErrClosed
	}
	states := make([]BucketState, len(req.Buckets))
	sh := &m.shards[maphash.String(m.seed, slot)&m.mask]
	stale := m.beforeEpoch(req.SignedAt)
	now := m.now()

	sh.mu.Lock()
	reused := false
	// A stale request's nonce is not looked at: it is refused whatever it is.
	if req.NonceKey != "" && !stale {
		if exp, ok := sh.nonces[req.NonceKey]; ok && exp > now {
			reused = true
		} else {
			sh.nonces[req.NonceKey] = now + int64(req.NonceTTL)
		}
	}
	for i, b := range req.Buckets {
		idx := windowIndex(req.Now, b.Window)
		id := counterID{b.Key, idx}
		c := sh.counters[id]
		if c.expires <= now {
			c = memCounter{}
		}
		if !reused && !stale {
			if c.count == 0 {
				c.expires = now + int64(counterTTL(req.Now, idx, b.Window))
			}
			c.count++
			sh.counters[id] = c
		}
		states[i] = state(b, c.count, windowEnd(idx, b.Window))
	}
	sh.mu.Unlock()

	return Result{NonceReused: reused, BeforeEpoch: stale, Buckets: states}, nil
}

// Close stops the janitor. Later calls to Admit return ErrClosed.
func (m *Memory) Close() error {
	m.once.Do(func() {
		m.closed.Store(true)
		close(m.stop)
		<-m.done
	})
	return nil
}

// janitor reclaims expired entries; lookups already ignore them, so this
// only bounds memory. It takes one shard lock at a time to keep the pause
// any request sees to one shard's sweep.
func (m *Memory) janitor(every time.Duration) {
	defer close(m.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
			m.sweep()
		}
	}
}

func (m *Memory) sweep() {
	for i := range m.shards {
		sh := &m.shards[i]
		now := m.now()
		sh.mu.Lock()
		for k, exp := range sh.nonces {
			if exp <= now {
				delete(sh.nonces, k)
			}
		}
		for k, c := range sh.counters {
			if c.expires <= now {
				delete(sh.counters, k)
			}
		}
		sh.mu.Unlock()
	}
}

// entries returns the number of live and not yet reclaimed entries.
func (m *Memory) entries() (nonces, counters int) {
	for i := range m.shards {
		sh := &m.shards[i]
		sh.mu.Lock()
		nonces += len(sh.nonces)
		counters += len(sh.counters)
		sh.mu.Unlock()
	}
	return nonces, counters
}
