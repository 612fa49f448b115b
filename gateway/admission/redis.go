package admission

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
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
	// Client is an existing client (a Cluster or failover client, or one
	// shared with other gateway components). Close leaves it open.
	Client redis.UniversalClient
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
// round trip: a script that claims the nonce and charges the buckets.
type Redis struct {
	client      redis.UniversalClient
	owned       bool
	noncePrefix string
	ratePrefix  string

	closeOnce sync.Once
	closeErr  error
}

// admitScript claims the nonce (KEYS[1] when ARGV[1] is not "0") and, if it
// was fresh, increments every bucket counter, setting its expiry on the first
// increment only so that the window's end stays fixed. For a reused nonce it
// reads the counters without charging them. The reply is {claimed, count...}.
var admitScript = redis.NewScript(`
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
`)

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
		client:      cfg.Client,
		noncePrefix: cfg.Prefix + "n:",
		ratePrefix:  cfg.Prefix + "rl:",
	}
	if s.client == nil {
		s.client = redis.NewClient(&redis.Options{
			Addr:     cfg.Addr,
			Password: cfg.Password,
			DB:       cfg.DB,
			// The request's deadline, not a fixed socket timeout, bounds
			// how long a request waits on Redis.
			ContextTimeoutEnabled: true,
		})
		s.owned = true
	}
	return s, nil
}

// Admit implements Store.
func (s *Redis) Admit(ctx context.Context, req Request) (Result, error) {
	if _, err := req.check(); err != nil {
		return Result{}, err
	}
	n := len(req.Buckets)
	keys := make([]string, 0, n+1)
	args := make([]any, 0, n+1)
	if req.NonceKey != "" {
		keys = append(keys, s.noncePrefix+req.NonceKey)
		args = append(args, millis(req.NonceTTL))
	} else {
		args = append(args, 0)
	}
	for _, b := range req.Buckets {
		idx := windowIndex(req.Now, b.Window)
		keys = append(keys, s.ratePrefix+b.Key+":"+strconv.FormatInt(idx, 10))
		args = append(args, millis(counterTTL(req.Now, idx, b.Window)))
	}

	reply, err := admitScript.Run(ctx, s.client, keys, args...).Int64Slice()
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
	return s.client.Ping(ctx).Err()
}

// Close closes the client if the store made it. Later calls return the
// first call's result.
func (s *Redis) Close() error {
	s.closeOnce.Do(func() {
		if s.owned {
			s.closeErr = s.client.Close()
		}
	})
	return s.closeErr
}

// millis rounds d up to whole milliseconds, Redis's expiry unit, so that an
// expiry is never shorter than asked.
func millis(d time.Duration) int64 {
	return int64((d + time.Millisecond - 1) / time.Millisecond)
}
