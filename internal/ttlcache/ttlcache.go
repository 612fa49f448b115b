// Package ttlcache is a small bounded map whose entries expire: the
// gateway's app credentials and core's verified seller tokens are each read
// on every request and may be a few seconds stale.
package ttlcache

import (
	"sync"
	"time"
)

// Cache maps keys to values until each entry's own deadline. When full, it
// drops an arbitrary entry (Go's map order is random), which bounds memory
// under a flood of distinct keys without bookkeeping on the read path.
type Cache[V any] struct {
	mu      sync.RWMutex
	max     int
	entries map[string]entry[V]
}

type entry[V any] struct {
	value V
	until time.Time
}

// New returns a cache holding at most max entries.
func New[V any](max int) *Cache[V] {
	return &Cache[V]{max: max, entries: map[string]entry[V]{}}
}

// Get returns the value of key while it is live at now.
func (c *Cache[V]) Get(key string, now time.Time) (V, bool) {
	c.mu.RLock()
	e, ok := c.entries[key]
	c.mu.RUnlock()
	if !ok || !now.Before(e.until) {
		var zero V
		return zero, false
	}
	return e.value, true
}

// Put stores value under key until the given time.
func (c *Cache[V]) Put(key string, value V, until time.Time) {
	c.mu.Lock()
	if _, exists := c.entries[key]; !exists && len(c.entries) >= c.max {
		for k := range c.entries {
			delete(c.entries, k)
			break
		}
	}
	c.entries[key] = entry[V]{value: value, until: until}
	c.mu.Unlock()
}

// Delete drops key's entry, if any.
func (c *Cache[V]) Delete(key string) {
	c.mu.Lock()
	delete(c.entries, key)
	c.mu.Unlock()
}

// Len reports the number of entries, live or not.
func (c *Cache[V]) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.entries)
}
