package productinput

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// MaxCategoryDepth bounds the taxonomy. Listings show a category only when it
// and every ancestor are active, and that check is unrolled to this depth.
const MaxCategoryDepth = 6

// CategoryListURL is where messages send partners for valid category ids.
const CategoryListURL = "GET /open/v1/categories"

// ErrNotFound is what a Categories method returns for a category that does
// not exist (the catalog store's ErrNotFound is this value).
var ErrNotFound = errors.New("catalog: not found")

// Categories is what checking a product's category needs of storage; the
// catalog store satisfies it.
type Categories interface {
	// GetCategory returns one category, active or not.
	GetCategory(ctx context.Context, id string) (Category, error)
	// CategoryNameExists reports whether some category is named name,
	// ignoring case.
	CategoryNameExists(ctx context.Context, name string) (bool, error)
	// HasActiveChildren reports whether an active category has id as parent.
	HasActiveChildren(ctx context.Context, id string) (bool, error)
	// ListAttributes returns the attributes defined directly on the given
	// categories, ordered by (category, position, id).
	ListAttributes(ctx context.Context, categoryIDs []string) ([]Attribute, error)
}

// maxCategoryIDLen bounds category ids: decimal numbers, six digits today.
const maxCategoryIDLen = 18

// ValidCategoryID reports whether id has the form of a category id: a
// decimal number, as every category of the taxonomy has (ids are stable and
// new categories take new numbers). Anything else names no category, so it
// is answered without a query.
func ValidCategoryID(id string) bool {
	if id == "" || len(id) > maxCategoryIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < '0' || id[i] > '9' {
			return false
		}
	}
	return true
}

// ResolveLeaf checks that value names a listed leaf category, for the field
// at path. A category that does not exist or is retired is a
// CATEGORY_NOT_FOUND violation, a parent category a VALIDATION_ERROR one;
// the error is a platform fault.
func ResolveLeaf(ctx context.Context, cats Categories, path, value string) (*Leaf, *Violation, error) {
	notFound := func(msg string, args ...any) (*Leaf, *Violation, error) {
		return nil, &Violation{Field: path, Code: apierr.CategoryNotFound, Message: fmt.Sprintf(msg, args...)}, nil
	}
	chain, err := Chain(ctx, cats, value)
	if errors.Is(err, ErrNotFound) {
		isName, nerr := cats.CategoryNameExists(ctx, value)
		if nerr != nil {
			return nil, nil, nerr
		}
		if isName {
			return notFound("%q is a category name, not a category id; send the category_id from %s", value, CategoryListURL)
		}
		return notFound("%q is not a known category id; send a category_id from %s (not a name)", value, CategoryListURL)
	}
	if err != nil {
		return nil, nil, err
	}
	for _, c := range chain {
		if !c.Active {
			return notFound("category %q is retired and no longer takes products; send a current category_id from %s", value, CategoryListURL)
		}
	}
	c := chain[len(chain)-1]
	parent, err := cats.HasActiveChildren(ctx, c.ID)
	if err != nil {
		return nil, nil, err
	}
	if parent {
		return nil, &Violation{Field: path, Code: apierr.ValidationError, Message: fmt.Sprintf(
			"%q (%s) is a parent category; a product needs a leaf category: send the id of one of its subcategories from %s",
			c.ID, c.Name, CategoryListURL)}, nil
	}
	attrs, err := AttributesOf(ctx, cats, chain)
	if err != nil {
		return nil, nil, err
	}
	return &Leaf{Category: c, Attributes: attrs}, nil, nil
}

// Chain returns the category and its ancestors, root first.
func Chain(ctx context.Context, cats Categories, id string) ([]Category, error) {
	if !ValidCategoryID(id) {
		return nil, ErrNotFound // no query: no category has such an id
	}
	c, err := cats.GetCategory(ctx, id)
	if err != nil {
		return nil, err
	}
	chain := []Category{c}
	for c.ParentID != "" {
		if len(chain) >= MaxCategoryDepth {
			return nil, fmt.Errorf("catalog: category %s is deeper than %d levels or in a cycle", id, MaxCategoryDepth)
		}
		if c, err = cats.GetCategory(ctx, c.ParentID); err != nil {
			if errors.Is(err, ErrNotFound) {
				return nil, fmt.Errorf("catalog: category %s has a missing ancestor", id)
			}
			return nil, err
		}
		chain = append(chain, c)
	}
	slices.Reverse(chain)
	return chain, nil
}

// AttributesOf returns the effective attributes of the last category of a
// root-first chain: ancestors' first, each category's in position order.
func AttributesOf(ctx context.Context, cats Categories, chain []Category) ([]Attribute, error) {
	idsInChain := make([]string, len(chain))
	rank := make(map[string]int, len(chain))
	for i, c := range chain {
		idsInChain[i] = c.ID
		rank[c.ID] = i
	}
	attrs, err := cats.ListAttributes(ctx, idsInChain)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(attrs, func(a, b Attribute) int { return rank[a.CategoryID] - rank[b.CategoryID] })
	return attrs, nil
}
