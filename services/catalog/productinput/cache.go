package productinput

import (
	"context"
	"errors"
	"strings"
)

// CachedCategories answers each distinct question once: a bulk create of
// thousands of products in a handful of categories reads each category, its
// ancestors and attributes once instead of once per product. It lives as
// long as one request; not safe for concurrent use.
type CachedCategories struct {
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

// GetCategory implements Categories; a not-found answer is remembered too.
func (c *CachedCategories) GetCategory(ctx context.Context, id string) (Category, error) {
	if hit, ok := c.byID[id]; ok {
		return hit.c, hit.err
	}
	cat, err := c.next.GetCategory(ctx, id)
	if err == nil || errors.Is(err, ErrNotFound) {
		c.byID[id] = cachedCategory{cat, err}
	}
	return cat, err
}

// CategoryNameExists implements Categories.
func (c *CachedCategories) CategoryNameExists(ctx context.Context, name string) (bool, error) {
	key := strings.ToLower(name)
	if hit, ok := c.names[key]; ok {
		return hit, nil
	}
	ok, err := c.next.CategoryNameExists(ctx, name)
	if err != nil {
		return false, err
	}
	c.names[key] = ok
	return ok, nil
}

// HasActiveChildren implements Categories.
func (c *CachedCategories) HasActiveChildren(ctx context.Context, id string) (bool, error) {
	if hit, ok := c.children[id]; ok {
		return hit, nil
	}
	ok, err := c.next.HasActiveChildren(ctx, id)
	if err != nil {
		return false, err
	}
	c.children[id] = ok
	return ok, nil
}

// ListAttributes implements Categories. Callers sort the answer in place
// (AttributesOf), so each gets its own copy.
func (c *CachedCategories) ListAttributes(ctx context.Context, categoryIDs []string) ([]Attribute, error) {
	key := strings.Join(categoryIDs, "\x00")
	if hit, ok := c.attrs[key]; ok {
		return append([]Attribute(nil), hit...), nil
	}
	attrs, err := c.next.ListAttributes(ctx, categoryIDs)
	if err != nil {
		return nil, err
	}
	c.attrs[key] = attrs
	return append([]Attribute(nil), attrs...), nil
}
