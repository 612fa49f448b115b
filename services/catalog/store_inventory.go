package catalog

import (
	"context"
	"errors"
	"time"
)

// MaxStock is the largest stock on hand a variant may hold (the spec's
// variant stock bound).
const MaxStock = 1_000_000_000

// ErrNotApplied: a conditional variant change matched no row (the variant
// is missing or its guard did not hold); the service reads the variant to
// say why.
var ErrNotApplied = errors.New("catalog: variant change not applied")

// VariantRef is one of a seller's variants as a stock change names it.
type VariantRef struct {
	ID        string
	ProductID string
	SKU       *string
}

// VariantChange is one change of a variant's stock and/or price, applied by
// one conditional UPDATE. At most one of SetStock and AdjustStock is set.
type VariantChange struct {
	VariantID string
	// ProductID, when set, is the product the variant must belong to.
	ProductID string
	// SetStock replaces the stock (an unknown stock becomes known).
	SetStock *int64
	// AdjustStock adds to a known stock; the result must stay within 0 and
	// MaxStock, and an unknown stock is never adjusted.
	AdjustStock *int64
	// ExpectedStock guards the change: it applies only while the stock is
	// exactly this (an unknown stock never matches).
	ExpectedStock *int64
	// SetPrice replaces the price (centavos).
	SetPrice *int64
	// Refuse lists product statuses in which the variant is not changed;
	// archived is always refused.
	Refuse []ProductStatus
}

// VariantChanged is a change that applied: the variant before and after.
type VariantChanged struct {
	ProductID               string
	SKU                     *string
	StockBefore, StockAfter *int64
	PriceBefore, PriceAfter *int64
}

// VariantState is a variant as it stands, with its product's status, read
// to explain a change that did not apply.
type VariantState struct {
	ID            string
	ProductID     string
	ProductStatus ProductStatus
	SKU           *string
	Stock, Price  *int64
}

// InventoryStore is the storage of stock and price changes. Every method
// filters by the seller.
type InventoryStore interface {
	// FindVariants returns the seller's variants, of products not archived,
	// whose id is one of ids or whose SKU is one of skus.
	FindVariants(ctx context.Context, sellerID string, ids, skus []string) ([]VariantRef, error)
	// ChangeVariant applies c to one of the seller's variants in one
	// conditional UPDATE (the guards are in its WHERE clause, never read
	// first and written after), or returns ErrNotApplied.
	ChangeVariant(ctx context.Context, sellerID string, c VariantChange) (VariantChanged, error)
	// GetVariant returns one of the seller's variants whatever its
	// product's status, or ErrNotFound.
	GetVariant(ctx context.Context, sellerID, id string) (VariantState, error)
	// TouchProducts sets updated_at of the seller's products ids.
	TouchProducts(ctx context.Context, sellerID string, ids []string, at time.Time) error
}
