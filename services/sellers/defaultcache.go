package sellers

import (
	"context"
	"time"

	"github.com/mallplatform/partnerapi/internal/ttlcache"
)

// DefaultAddressTTL is how long a core replica answers a seller's default
// pickup address from memory. Every eligible-dates and pickup-slot call
// needs it beside the order, and it changes only when an operator or the
// sandbox seed adds addresses: the replica that writes forgets its entry at
// once, any other replica within this time.
const DefaultAddressTTL = 5 * time.Second

// defaultAddressCacheMax bounds the cache under a flood of distinct sellers.
const defaultAddressCacheMax = 100_000

// defaultAddresses caches DefaultPickupAddress per seller. Only found
// addresses are kept: a shop without one is read again each time, so its
// first address counts as soon as it is written.
type defaultAddresses struct {
	ttl     time.Duration
	entries *ttlcache.Cache[PickupAddress]
}

func newDefaultAddresses(ttl time.Duration) *defaultAddresses {
	if ttl <= 0 {
		return nil
	}
	return &defaultAddresses{ttl: ttl, entries: ttlcache.New[PickupAddress](defaultAddressCacheMax)}
}

// get returns the cached address or reads it with read.
func (c *defaultAddresses) get(ctx context.Context, sellerID string, now time.Time,
	read func(context.Context, string) (PickupAddress, error)) (PickupAddress, error) {
	if c == nil {
		return read(ctx, sellerID)
	}
	if a, ok := c.entries.Get(sellerID, now); ok {
		return a, nil
	}
	a, err := read(ctx, sellerID)
	if err != nil {
		return PickupAddress{}, err
	}
	c.entries.Put(sellerID, a, now.Add(c.ttl))
	return a, nil
}

// forget drops sellerID's entry after a write of its addresses.
func (c *defaultAddresses) forget(sellerID string) {
	if c != nil {
		c.entries.Delete(sellerID)
	}
}
