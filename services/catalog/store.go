package catalog

import (
	"context"
	"errors"
	"time"

	"github.com/mallplatform/partnerapi/internal/pagination"
	"github.com/mallplatform/partnerapi/services/catalog/productinput"
)

// Storage errors the service branches on. Anything else a Store returns is a
// platform fault and leaves core as INTERNAL_ERROR.
var (
	// ErrNotFound: no such row, or (for products) it belongs to another
	// seller. The store never distinguishes the two, so neither can a caller.
	ErrNotFound = productinput.ErrNotFound
	// ErrShortIDTaken: the product's short id collided with an existing one;
	// the caller draws a new one and retries.
	ErrShortIDTaken = errors.New("catalog: short id already taken")
)

// MaxCategoryDepth bounds the taxonomy. Listings show a category only when it
// and every ancestor are active, and that check is unrolled to this depth.
const MaxCategoryDepth = productinput.MaxCategoryDepth

// ProductStatus is a product's life-cycle state, as on the wire.
type ProductStatus string

// Product statuses. Partners move products between live, unlisted and
// delisted; the platform sets proposed, under_review and archived.
const (
	StatusLive        ProductStatus = "live"
	StatusUnlisted    ProductStatus = "unlisted"
	StatusDelisted    ProductStatus = "delisted"
	StatusProposed    ProductStatus = "proposed"
	StatusUnderReview ProductStatus = "under_review"
	StatusArchived    ProductStatus = "archived"
)

// The domain types a product is checked against and stored as are those of
// productinput, where the rules live; these names keep the catalog's own.
type (
	// InputType is the JSON type an attribute's value takes.
	InputType = productinput.InputType
	// Category is a node of the taxonomy.
	Category = productinput.Category
	// Attribute is a product attribute a category asks for.
	Attribute = productinput.Attribute
	// Dimensions of a parcel, in centimetres.
	Dimensions = productinput.Dimensions
	// Option is one option of a variant.
	Option = productinput.Option
	// OptionGroup is one option axis of a product with its values.
	OptionGroup = productinput.OptionGroup
	// AttributeValue is a category attribute answered on a product.
	AttributeValue = productinput.AttributeValue
	// Variant is a sellable unit of a product.
	Variant = productinput.Variant
)

// Attribute input types, as on the wire.
const (
	InputText       = productinput.InputText
	InputNumber     = productinput.InputNumber
	InputBoolean    = productinput.InputBoolean
	InputSelect     = productinput.InputSelect
	InputMultivalue = productinput.InputMultivalue
	InputDate       = productinput.InputDate
)

// Product is a seller's listing with its variants in position order.
type Product struct {
	ID           string
	ShortID      string
	SellerID     string
	Name         string
	Description  string
	Status       ProductStatus
	CategoryID   string
	CategoryName string
	Images       []string
	// Weight is in grams.
	Weight               float64
	Dimensions           Dimensions
	UseVariantDimensions bool
	// OptionsOrder is nil for products without option groups.
	OptionsOrder    []OptionGroup
	AttributeValues []AttributeValue
	Variants        []Variant
	// ReviewNote is what the platform's review last said (nil: nothing).
	ReviewNote *string
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// Primary is the variant whose SKU, price and stock the product view shows,
// or nil for a product without variants.
func (p *Product) Primary() *Variant {
	if len(p.Variants) == 0 {
		return nil
	}
	return &p.Variants[0]
}

// ProductFilter narrows a product listing. The seller is not part of it: it
// is a separate, mandatory argument of every product query.
type ProductFilter struct {
	// Status is "" for every status but archived (deleted products are
	// listed only when asked for by status).
	Status ProductStatus
}

// Store is the catalog's storage. Every product method takes the seller and
// filters by it; a product of another seller is ErrNotFound.
type Store interface {
	// ListCategories returns the listed categories (active, with every
	// ancestor active) in (position, id) order inside the window: after
	// w.After (a position) or from w.Offset. more reports whether rows exist
	// beyond the window.
	ListCategories(ctx context.Context, w pagination.Window[pagination.NumKey]) (cats []Category, more bool, err error)
	// CountCategories counts what ListCategories can list.
	CountCategories(ctx context.Context) (int64, error)
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
	// InsertTaxonomy writes categories (parents before children) and their
	// attributes in one transaction, only when no category exists yet;
	// inserted is false when it found categories and wrote nothing.
	InsertTaxonomy(ctx context.Context, cats []Category, attrs []Attribute) (inserted bool, err error)

	// CreateProduct writes p and its variants in one transaction.
	CreateProduct(ctx context.Context, p *Product) error
	// GetProduct returns the seller's product with its variants.
	GetProduct(ctx context.Context, sellerID, id string) (*Product, error)
	// UpdateProduct loads the seller's product inside a transaction (row
	// locked where the backend supports it), calls apply, and, when apply
	// reports a change, writes the product's own columns back before
	// committing. Variants are loaded but never written. apply must not use
	// the store: it runs while the transaction holds its connection. An error
	// from apply aborts the update and is returned unchanged.
	UpdateProduct(ctx context.Context, sellerID, id string, apply func(p *Product) (changed bool, err error)) (*Product, error)
	// ListProducts returns the seller's products matching f, newest first
	// ((created_at, id) descending), inside the window: after w.After or
	// from w.Offset.
	ListProducts(ctx context.Context, sellerID string, f ProductFilter, w pagination.Window[pagination.TimeKey]) (products []*Product, more bool, err error)
	// CountProducts counts the seller's products matching f.
	CountProducts(ctx context.Context, sellerID string, f ProductFilter) (int64, error)
	// InventoryStore holds the stock and price changes (store_inventory.go).
	InventoryStore
	// MoveProduct changes the status of the seller's product with one
	// conditional statement: only while it is in one of m.From (none: no
	// statement at all). It returns the product as it then stands and
	// whether this call moved it; ErrNotFound when the seller has no such
	// product.
	MoveProduct(ctx context.Context, sellerID, id string, m ProductMove) (p *Product, moved bool, err error)
	// ProductSeller returns the seller of a product, for the platform's own
	// steps (review) that name a product alone; ErrNotFound when none.
	ProductSeller(ctx context.Context, id string) (string, error)
	// TestShops lists the ids of the sandbox's test shops.
	TestShops(ctx context.Context) ([]string, error)
	// ProposedBefore lists the ids of the seller's proposed products created
	// at or before t, oldest first, at most limit.
	ProposedBefore(ctx context.Context, sellerID string, t time.Time, limit int) ([]string, error)
	// CreateProducts writes ps and their variants in one transaction with a
	// number of statements that does not grow with each product. A short id
	// that repeats in the batch or is taken is replaced by newShortID()
	// rather than failing the batch.
	CreateProducts(ctx context.Context, ps []*Product, newShortID func() string) error
	// SKUsInUse returns, of skus, those a variant of one of the seller's
	// products that is not archived holds, with that product's id.
	SKUsInUse(ctx context.Context, sellerID string, skus []string) (map[string]string, error)
	// InTx runs fn with a transaction in its context (joining one ctx
	// already carries): every Store method, and any other store reading
	// its client through the context, takes part in it.
	InTx(ctx context.Context, fn func(ctx context.Context) error) error
}
