package productinput

import (
	"context"
	"errors"
	"strings"
	"sync"
)

// CachedCategories answers each distinct question once: a bulk create of
// thousands of products in a handful of categories reads each category, its
// ancestors and attributes once instead of once per product. It lives as
// long as one request and is safe for concurrent use: a bulk create checks
// its items on every core. A miss asks next under the lock, so next is
// never called concurrently (it may run on the request's one transaction)
// and each question is asked once however many items wait for it.
type CachedCategories struct {
	mu       sync.RWMutex
	next     Categories
	byID     map[string]cachedCategory
	names    map[string]bool
	children map[string]bool
	attrs    map[string][]Attribute
}

type cachedCategory struct {
	c   Category
	err error
}

// NewCachedCategories returns a cache in front of next.
func NewCachedCategories(next Categories) *CachedCategories {
	return &CachedCategories{next: next, byID: map[string]cachedCategory{}, names: map[string]bool{},
		children: map[string]bool{}, attrs: map[string][]Attribute{}}
}

// cached answers key from m, or asks ask under the write lock (checking
// again first: another goroutine may have answered it meanwhile) and keeps
// the answer when keep allows.
func cached[K comparable, V any](c *CachedCategories, m map[K]V, key K, ask func() (V, error), keep func(error) bool) (V, error) {
	c.mu.RLock()
	hit, ok := m[key]
	c.mu.RUnlock()
	if ok {
		return hit, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if hit, ok := m[key]; ok {
		return hit, nil
	}
	v, err := ask()
	if keep(err) {
		m[key] = v
	}
	return v, err
}

func noError(err error) bool { return err == nil }

// GetCategory implements Categories; a not-found answer is remembered too.
func (c *CachedCategories) GetCategory(ctx context.Context, id string) (Category, error) {
	hit, err := cached(c, c.byID, id, func() (cachedCategory, error) {
		cat, err := c.next.GetCategory(ctx, id)
		return cachedCategory{cat, err}, err
	}, func(err error) bool { return err == nil || errors.Is(err, ErrNotFound) })
	if err != nil && !errors.Is(err, ErrNotFound) {
		return Category{}, err
	}
	return hit.c, hit.err
}

// CategoryNameExists implements Categories.
func (c *CachedCategories) CategoryNameExists(ctx context.Context, name string) (bool, error) {
	return cached(c, c.names, strings.ToLower(name), func() (bool, error) {
		return c.next.CategoryNameExists(ctx, name)
	}, noError)
}

// HasActiveChildren implements Categories.
func (c *CachedCategories) HasActiveChildren(ctx context.Context, id string) (bool, error) {
	return cached(c, c.children, id, func() (bool, error) {
		return c.next.HasActiveChildren(ctx, id)
	}, noError)
}

// ListAttributes implements Categories. Callers sort the answer in place
// (AttributesOf), so each gets its own copy.
func (c *CachedCategories) ListAttributes(ctx context.Context, categoryIDs []string) ([]Attribute, error) {
	attrs, err := cached(c, c.attrs, strings.Join(categoryIDs, "\x00"), func() ([]Attribute, error) {
		return c.next.ListAttributes(ctx, categoryIDs)
	}, noError)
	if err != nil {
		return nil, err
	}
	return append([]Attribute(nil), attrs...), nil
}
