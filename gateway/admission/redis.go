package admission

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/rueidis"
)

// DefaultRedisPrefix namespaces the gateway's keys in a shared Redis.
const DefaultRedisPrefix = "mp:"

// RedisConfig configures a Redis store. Exactly one of URL, Addr and Client
// says where Redis is.
type RedisConfig struct {
	// URL is redis://[user:password@]host[:port][/db] or rediss://… (TLS),
	// as managed Redis services hand them out; rueidis's options such as
	// ?dial_timeout= are honoured. A cluster is detected. Errors about the
	// URL never repeat its password.
	URL string
	// Addr, Password and DB describe a single Redis server without TLS: the
	// shorthand of earlier releases.
	Addr     string
	Password string
	DB       int
	// Prefix starts every key (default "mp:"); nonces live under
	// Prefix+"n:", counters under Prefix+"rl:", epoch markers under
	// Prefix+"e:". It may not contain '{' or '}': a hash tag in the prefix
	// would pull every key onto one slot.
	Prefix string
	// Client is an existing client (to a cluster or through Sentinel, or
	// one shared with other gateway components). Close leaves it open.
	Client rueidis.Client
	// Metrics records the client's statistics (nil: none).
	Metrics *RedisMetrics
}

// Validate reports a configuration NewRedis cannot use.
func (c RedisConfig) Validate() error {
	_, err := c.options()
	return err
}

// options checks c and returns the client options for a store that dials
// Redis itself (none with Client).
func (c RedisConfig) options() (*rueidis.ClientOption, error) {
	given := 0
	for _, set := range []bool{c.URL != "", c.Addr != "", c.Client != nil} {
		if set {
			given++
		}
	}
	switch {
	case given == 0:
		return nil, errors.New("admission: redis needs a URL, an Addr or a Client")
	case given > 1:
		return nil, errors.New("admission: redis takes one of URL, Addr and Client")
	case c.Addr == "" && (c.Password != "" || c.DB != 0):
		return nil, errors.New("admission: redis Password and DB go with Addr (with a URL, put them in it)")
	case c.DB < 0:
		return nil, fmt.Errorf("admission: redis DB %d is negative", c.DB)
	case strings.ContainsAny(c.Prefix, "{}"):
		return nil, fmt.Errorf("admission: redis prefix %q contains a hash tag character", c.Prefix)
	}
	var opt rueidis.ClientOption
	switch {
	case c.Client != nil:
		return nil, nil
	case c.URL != "":
		o, err := ParseRedisURL(c.URL)
		if err != nil {
			return nil, err
		}
		opt = o
	default:
		if strings.Contains(c.Addr, "://") {
			return nil, errors.New("admission: redis Addr is host:port; a redis:// or rediss:// address goes in URL")
		}
		// Addr names one server; a cluster comes as URL or Client.
		opt = rueidis.ClientOption{InitAddress: []string{c.Addr}, Password: c.Password, SelectDB: c.DB, ForceSingleClient: true}
	}
	// Counters and nonces change on every call: nothing to cache.
	opt.DisableCache = true
	// The caller's deadline bounds the wait; a call is not retried behind
	// its back (a retried script could charge twice).
	opt.DisableRetry = true
	if opt.Dialer.Timeout == 0 {
		opt.Dialer.Timeout = 2 * time.Second
	}
	return &opt, nil
}

// Redis is a Store on Redis, shared by all gateway replicas. Each call is one
// round trip: a script that claims the nonce and charges the buckets. The
// client (rueidis) writes the calls of concurrent requests to one connection
// together, which saves system calls in the gateway and in Redis under load.
type Redis struct {
	cfg         RedisConfig
	opt         *rueidis.ClientOption
	noncePrefix string
	ratePrefix  string
	epochPrefix string

	// client is made on first use when the store owns it: the gateway
	// starts, and reports not ready, while Redis is down.
	client atomic.Pointer[rueidis.Client]
	owned  bool

	// Under dialMu: whether Close was called, the connection attempt in
	// progress (closed when it ends; callers wait on it only as long as
	// their own deadline allows), and the last failed attempt (while Redis
	// is down, calls fail at once for redialInterval instead of queueing
	// behind one dial after another).
	dialMu     sync.Mutex
	closed     bool
	dialing    chan struct{}
	dialErr    error
	dialFailed time.Time
}

// admitScript checks the epoch, claims the nonce and charges the buckets.
//
// KEYS are [epoch marker] [nonce] bucket counters...; ARGV[1] is the nonce's
// TTL in milliseconds ("0": no nonce), ARGV[2] the signed timestamp in Unix
// seconds ("-": no epoch check, and no marker key), then one counter TTL per
// bucket.
//
// A missing marker means the account has not called since the server's
// memory began: it is set, without expiry, to the second the server started
// (its TIME less its uptime), so after an empty restart nothing signed before
// the restart is admitted, while the first call of an account that was quiet
// meets the same marker as every other (no spurious refusal for a request
// signed a second before it arrived). A request signed before the marker's
// second is refused (-1) without looking at its nonce. Otherwise the nonce is claimed with SET NX
// and, if it was fresh, every counter is incremented, its expiry set on the
// first increment only so that the window's end stays fixed. A refused or
// reused request reads the counters without charging them. The reply is
// {claimed (1 fresh, 0 reused, -1 before the epoch), count...}.
var admitScript = rueidis.NewLuaScript(admitLua)

const admitLua = `
local k = 1
local claimed = 1
if ARGV[2] ~= '-' then
  local epoch = redis.call('GET', KEYS[1])
  if not epoch then
    local up = tonumber(string.match(redis.call('INFO', 'server'), 'uptime_in_seconds:(%d+)'))
    epoch = tonumber(redis.call('TIME')[1]) - (up or 0)
    redis.call('SET', KEYS[1], epoch)
  end
  if tonumber(ARGV[2]) < tonumber(epoch) then
    claimed = -1
  end
  k = 2
end
if ARGV[1] ~= '0' then
  if claimed == 1 and not redis.call('SET', KEYS[k], '1', 'NX', 'PX', ARGV[1]) then
    claimed = 0
  end
  k = k + 1
end
local out = {claimed}
for i = k, #KEYS do
  local n
  if claimed == 1 then
    n = redis.call('INCR', KEYS[i])
    if n == 1 then
      redis.call('PEXPIRE', KEYS[i], ARGV[i - k + 3])
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
	opt, err := cfg.options()
	if err != nil {
		return nil, err
	}
	if cfg.Prefix == "" {
		cfg.Prefix = DefaultRedisPrefix
	}
	s := &Redis{
		cfg:         cfg,
		opt:         opt,
		noncePrefix: cfg.Prefix + "n:",
		ratePrefix:  cfg.Prefix + "rl:",
		epochPrefix: cfg.Prefix + "e:",
		owned:       cfg.Client == nil,
	}
	if cfg.Client != nil {
		s.client.Store(&cfg.Client)
	}
	return s, nil
}

// conn returns the client, connecting when the store owns it and has none
// yet. One attempt runs at a time, in the background: a caller waits for it
// no longer than ctx allows, so a Redis that accepts connections and never
// answers costs each request its own deadline, not the dial timeout. A
// failed attempt is retried by a call after redialInterval.
func (s *Redis) conn(ctx context.Context) (rueidis.Client, error) {
	if c := s.client.Load(); c != nil {
		return *c, nil
	}
	s.dialMu.Lock()
	if c := s.client.Load(); c != nil {
		s.dialMu.Unlock()
		return *c, nil
	}
	if s.closed {
		s.dialMu.Unlock()
		return nil, ErrClosed
	}
	if s.dialing == nil && s.dialErr != nil && time.Since(s.dialFailed) < redialInterval {
		err := s.dialErr
		s.dialMu.Unlock()
		return nil, err
	}
	wait := s.dialing
	if wait == nil {
		wait = make(chan struct{})
		s.dialing = wait
		go s.dial(wait)
	}
	s.dialMu.Unlock()
	select {
	case <-wait:
	case <-ctx.Done():
		return nil, fmt.Errorf("admission: redis: connecting: %w", ctx.Err())
	}
	if c := s.client.Load(); c != nil {
		return *c, nil
	}
	s.dialMu.Lock()
	defer s.dialMu.Unlock()
	if s.dialErr != nil {
		return nil, s.dialErr
	}
	return nil, ErrClosed
}

// dial makes the client and closes done.
func (s *Redis) dial(done chan struct{}) {
	c, err := rueidis.NewClient(*s.opt)
	s.cfg.Metrics.connected(err)
	s.dialMu.Lock()
	defer s.dialMu.Unlock()
	defer close(done)
	s.dialing = nil
	switch {
	case err != nil:
		s.dialErr, s.dialFailed = fmt.Errorf("admission: redis: %w", err), time.Now()
	case s.closed:
		c.Close()
	default:
		s.dialErr = nil
		s.client.Store(&c)
	}
}

// redialInterval is how long a failed connection attempt answers for the
// store before the next call dials again.
const redialInterval = time.Second

// Admit implements Store.
func (s *Redis) Admit(ctx context.Context, req Request) (Result, error) {
	slot, err := req.check()
	if err != nil {
		return Result{}, err
	}
	n := len(req.Buckets)
	keys := make([]string, 0, n+2)
	args := make([]string, 0, n+2)
	nonceTTL, signedAt := "0", "-"
	if !req.SignedAt.IsZero() {
		// check made sure slot is the call's hash tag.
		keys = append(keys, s.epochPrefix+"{"+slot+"}")
		signedAt = strconv.FormatInt(req.SignedAt.Unix(), 10)
	}
	if req.NonceKey != "" {
		keys = append(keys, s.noncePrefix+req.NonceKey)
		nonceTTL = strconv.FormatInt(millis(req.NonceTTL), 10)
	}
	args = append(args, nonceTTL, signedAt)
	for _, b := range req.Buckets {
		idx := windowIndex(req.Now, b.Window)
		keys = append(keys, s.ratePrefix+b.Key+":"+strconv.FormatInt(idx, 10))
		args = append(args, strconv.FormatInt(millis(counterTTL(req.Now, idx, b.Window)), 10))
	}

	m := s.cfg.Metrics.series(false)
	c, err := s.conn(ctx)
	if err != nil {
		if m != nil {
			m.unavailable.Inc()
		}
		return Result{}, err
	}
	start := time.Now()
	reply, err := admitScript.Exec(ctx, c, keys, args).AsIntSlice()
	if m != nil {
		m.done(ctx, start, err)
	}
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
	return Result{NonceReused: reply[0] == 0, BeforeEpoch: reply[0] < 0, Buckets: states}, nil
}

// Ping implements Store: Redis answers PING within ctx's deadline.
func (s *Redis) Ping(ctx context.Context) error {
	m := s.cfg.Metrics.series(true)
	c, err := s.conn(ctx)
	if err != nil {
		if m != nil {
			m.unavailable.Inc()
		}
		return err
	}
	start := time.Now()
	err = c.Do(ctx, c.B().Ping().Build()).Error()
	if m != nil {
		m.done(ctx, start, err)
	}
	return err
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
