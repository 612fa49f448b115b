package auth

import (
	"sync"
	"time"
)

// TokenCacheTTL bounds how long a verified seller token is trusted without
// asking the database again: the seller-token check is on every
// seller-scoped call, and this is also how long a revocation may take to
// reach a core replica that served the token just before.
const TokenCacheTTL = 5 * time.Second

const tokenCacheMax = 100_000

type tokenEntry struct {
	appID, sellerID string
	expires         time.Time // the token's own expiry
	until           time.Time // when the entry must be looked up again
}

// tokenCache remembers recently verified grants by token hash.
type tokenCache struct {
	mu      sync.RWMutex
	entries map[string]tokenEntry
}

func newTokenCache() *tokenCache { return &tokenCache{entries: map[string]tokenEntry{}} }

func (c *tokenCache) get(hash string, now time.Time) (tokenEntry, bool) {
	c.mu.RLock()
	e, ok := c.entries[hash]
	c.mu.RUnlock()
	if !ok || !now.Before(e.until) {
		return tokenEntry{}, false
	}
	return e, true
}

func (c *tokenCache) put(hash string, e tokenEntry) {
	c.mu.Lock()
	if len(c.entries) >= tokenCacheMax {
		for k := range c.entries { // drop an arbitrary entry; map order is random
			delete(c.entries, k)
			break
		}
	}
	c.entries[hash] = e
	c.mu.Unlock()
}
