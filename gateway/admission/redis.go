package admission

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/rueidis"
)

// DefaultRedisPrefix namespaces the gateway's keys in a shared Redis.
const DefaultRedisPrefix = "mp:"

// RedisConfig configures a Redis store.
type RedisConfig struct {
	// Addr, Password and DB describe a single Redis server the store
	// connects to and owns. Leave them empty when passing Client.
	Addr     string
	Password string
	DB       int
	// Prefix starts every key (default "mp:"); nonces live under
	// Prefix+"n:", counters under Prefix+"rl:". It may not contain '{' or
	// '}': a hash tag in the prefix would pull every key onto one slot.
	Prefix string
	// Client is an existing client (to a cluster or through Sentinel, or
	// one shared with other gateway components). Close leaves it open.
	Client rueidis.Client
}

// Validate reports a configuration NewRedis cannot use.
func (c RedisConfig) Validate() error {
	switch {
	case c.Client == nil && c.Addr == "":
		return errors.New("admission: redis needs Addr or Client")
	case c.Client != nil && (c.Addr != "" || c.Password != "" || c.DB != 0):
		return errors.New("admission: redis Addr, Password and DB apply only without Client")
	case c.DB < 0:
		return fmt.Errorf("admission: redis DB %d is negative", c.DB)
	case strings.ContainsAny(c.Prefix, "{}"):
		return fmt.Errorf("admission: redis prefix %q contains a hash tag character", c.Prefix)
	}
	return nil
}

// Redis is a Store on Redis, shared by all gateway replicas. Each call is one
// round trip: a script that claims the nonce and charges the buckets. The
// client (rueidis) writes the calls of concurrent requests to one connection
// together, which saves system calls in the gateway and in Redis under load.
type Redis struct {
	cfg         RedisConfig
	noncePrefix string
	ratePrefix  string

	// client is made on first use when the store owns it: the gateway
	// starts, and reports not ready, while Redis is down.
	client atomic.Pointer[rueidis.Client]
	owned  bool

	// Under dialMu: whether Close was called, and the last failed
	// connection attempt (while Redis is down, calls fail at once for
	// redialInterval instead of queueing behind one dial after another).
	dialMu     sync.Mutex
	closed     bool
	dialErr    error
	dialFailed time.Time
}

// admitScript claims the nonce (KEYS[1] when ARGV[1] is not "0") and, if it
// was fresh, increments every bucket counter, setting its expiry on the first
// increment only so that the window's end stays fixed. For a reused nonce it
// reads the counters without charging them. The reply is {claimed, count...}.
var admitScript = rueidis.NewLuaScript(admitLua)

const admitLua = `
local first = 1
local claimed = 1
if ARGV[1] ~= '0' then
  first = 2
  if not redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then
    claimed = 0
  end
end
local out = {claimed}
for i = first, #KEYS do
  local n
  if claimed == 1 then
    n = redis.call('INCR', KEYS[i])
    if n == 1 then
      redis.call('PEXPIRE', KEYS[i], ARGV[i - first + 2])
    end
  else
    n = tonumber(redis.call('GET', KEYS[i]) or '0')
  end
  out[#out + 1] = n
end
return out
`

// NewRedis returns a Redis store. It does not contact the server; use Ping
// for readiness.
func NewRedis(cfg RedisConfig) (*Redis, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Prefix == "" {
		cfg.Prefix = DefaultRedisPrefix
	}
	s := &Redis{
		cfg:         cfg,
		noncePrefix: cfg.Prefix + "n:",
		ratePrefix:  cfg.Prefix + "rl:",
		owned:       cfg.Client == nil,
	}
	if cfg.Client != nil {
		s.client.Store(&cfg.Client)
	}
	return s, nil
}

// conn returns the client, connecting when the store owns it and has none
// yet. A failed connection is retried by the next call.
func (s *Redis) conn() (rueidis.Client, error) {
	if c := s.client.Load(); c != nil {
		return *c, nil
	}
	s.dialMu.Lock()
	defer s.dialMu.Unlock()
	if c := s.client.Load(); c != nil {
		return *c, nil
	}
	if s.closed {
		return nil, errors.New("admission: redis store is closed")
	}
	if s.dialErr != nil && time.Since(s.dialFailed) < redialInterval {
		return nil, s.dialErr
	}
	c, err := rueidis.NewClient(rueidis.ClientOption{
		InitAddress: []string{s.cfg.Addr},
		Password:    s.cfg.Password,
		SelectDB:    s.cfg.DB,
		// Addr names one server (RedisConfig); a cluster or Sentinel
		// comes as Client.
		ForceSingleClient: true,
		// Counters and nonces change on every call: nothing to cache.
		DisableCache: true,
		// The request's deadline bounds the wait; a call is not retried
		// behind its back (a retried script could charge twice).
		DisableRetry: true,
		Dialer:       net.Dialer{Timeout: 2 * time.Second},
	})
	if err != nil {
		s.dialErr, s.dialFailed = fmt.Errorf("admission: redis: %w", err), time.Now()
		return nil, s.dialErr
	}
	s.client.Store(&c)
	return c, nil
}

// redialInterval is how long a failed connection attempt answers for the
// store before the next call dials again.
const redialInterval = time.Second

// Admit implements Store.
func (s *Redis) Admit(ctx context.Context, req Request) (Result, error) {
	if _, err := req.check(); err != nil {
		return Result{}, err
	}
	n := len(req.Buckets)
	keys := make([]string, 0, n+1)
	args := make([]string, 0, n+1)
	if req.NonceKey != "" {
		keys = append(keys, s.noncePrefix+req.NonceKey)
		args = append(args, strconv.FormatInt(millis(req.NonceTTL), 10))
	} else {
		args = append(args, "0")
	}
	for _, b := range req.Buckets {
		idx := windowIndex(req.Now, b.Window)
		keys = append(keys, s.ratePrefix+b.Key+":"+strconv.FormatInt(idx, 10))
		args = append(args, strconv.FormatInt(millis(counterTTL(req.Now, idx, b.Window)), 10))
	}

	c, err := s.conn()
	if err != nil {
		return Result{}, err
	}
	reply, err := admitScript.Exec(ctx, c, keys, args).AsIntSlice()
	if err != nil {
		return Result{}, fmt.Errorf("admission: redis: %w", err)
	}
	if len(reply) != n+1 {
		return Result{}, fmt.Errorf("admission: redis: script replied %d values for %d buckets", len(reply), n)
	}
	states := make([]BucketState, n)
	for i, b := range req.Buckets {
		states[i] = state(b, reply[i+1], windowEnd(windowIndex(req.Now, b.Window), b.Window))
	}
	return Result{NonceReused: reply[0] == 0, Buckets: states}, nil
}

// Ping checks that Redis answers, for the gateway's readiness probe.
func (s *Redis) Ping(ctx context.Context) error {
	c, err := s.conn()
	if err != nil {
		return err
	}
	return c.Do(ctx, c.B().Ping().Build()).Error()
}

// Close closes the client if the store made it. Later calls do nothing.
func (s *Redis) Close() error {
	s.dialMu.Lock()
	defer s.dialMu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	if c := s.client.Load(); c != nil && s.owned {
		(*c).Close()
	}
	return nil
}

// millis rounds d up to whole milliseconds, Redis's expiry unit, so that an
// expiry is never shorter than asked.
func millis(d time.Duration) int64 {
	return int64((d + time.Millisecond - 1) / time.Millisecond)
}
