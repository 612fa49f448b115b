// Package shopclock is business time per sandbox test shop. A test shop's
// clock runs ahead of the wall clock by an offset stored on the shop (so every
// core replica agrees), which only moves forward; every other seller's
// business time is the wall clock. Core's services read business time through
// Clock, per request: the seller the request acts for picks the offset.
package shopclock

import (
	"context"
	"errors"
	"time"

	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/ttlcache"
)

// ErrNotTestShop is Advance's answer for a seller that is not a test shop
// (or does not exist): only test shops' clocks move.
var ErrNotTestShop = errors.New("shopclock: not a test shop")

// Store keeps the offsets.
type Store interface {
	// Offset is how far the seller's business clock runs ahead (0 for a
	// seller that is not a test shop or does not exist).
	Offset(ctx context.Context, sellerID string) (time.Duration, error)
	// Advance moves a test shop's clock forward by by (at least a
	// millisecond, the stored unit; Clock.Advance ensures it) and returns
	// the new offset, or ErrNotTestShop.
	Advance(ctx context.Context, sellerID string, by time.Duration) (time.Duration, error)
}

// CacheTTL is how long a replica trusts an offset it read: a move reaches
// every other replica within it.
const CacheTTL = 2 * time.Second

const cacheMax = 100_000

// Config configures a Clock.
type Config struct {
	// Wall is the wall clock the offsets are added to (and the cache's
	// time).
	Wall  clock.Clock
	Store Store
	// Logger records offsets that could not be read (business time then
	// falls back to the wall clock for that request).
	Logger *zap.Logger
}

// Validate reports missing parts.
func (c Config) Validate() error {
	if c.Wall == nil || c.Store == nil {
		return errors.New("shopclock: a wall clock and a store are required")
	}
	return nil
}

// Clock is clock.Business resolved per seller.
type Clock struct {
	wall    clock.Clock
	store   Store
	log     *zap.Logger
	offsets *ttlcache.Cache[time.Duration]
}

var _ clock.Business = (*Clock)(nil)

// New returns a Clock.
func New(cfg Config) (*Clock, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	return &Clock{wall: cfg.Wall, store: cfg.Store, log: cfg.Logger, offsets: ttlcache.New[time.Duration](cacheMax)}, nil
}

// Business is the wall clock plus the offset of the seller the request acts
// for.
func (c *Clock) Business(ctx context.Context) time.Time {
	now := c.wall.Now()
	seller, ok := principal.Seller(ctx)
	if !ok {
		return now
	}
	return now.Add(c.offset(ctx, seller, now))
}

func (c *Clock) offset(ctx context.Context, seller string, now time.Time) time.Duration {
	if off, ok := c.offsets.Get(seller, now); ok {
		return off
	}
	off, err := c.store.Offset(ctx, seller)
	if err != nil {
		// The request's own queries will meet the same database; its
		// deadlines meanwhile follow the wall clock.
		c.log.Warn("business clock offset could not be read", zap.String("seller_id", seller), zap.Error(err))
		return 0
	}
	c.offsets.Put(seller, off, now.Add(CacheTTL))
	return off
}

// Advance moves a test shop's clock forward by by and returns its business
// time now; this replica sees the move at once, the others within CacheTTL.
func (c *Clock) Advance(ctx context.Context, sellerID string, by time.Duration) (time.Time, error) {
	if by <= 0 {
		return time.Time{}, errors.New("shopclock: a clock only moves forward")
	}
	// Offsets are stored in milliseconds: a smaller move still moves.
	by = max(by, time.Millisecond)
	off, err := c.store.Advance(ctx, sellerID, by)
	if err != nil {
		return time.Time{}, err
	}
	now := c.wall.Now()
	c.offsets.Put(sellerID, off, now.Add(CacheTTL))
	return now.Add(off), nil
}
