package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/mallplatform/partnerapi/internal/pagination"
)

// Storage errors the service branches on. Anything else a Store returns is a
// platform fault and leaves core as INTERNAL_ERROR.
var (
	// ErrNotFound: no such row, or (for products) it belongs to another
	// seller. The store never distinguishes the two, so neither can a caller.
	ErrNotFound = errors.New("catalog: not found")
	// ErrShortIDTaken: the product's short id collided with an existing one;
	// the caller draws a new one and retries.
	ErrShortIDTaken = errors.New("catalog: short id already taken")
)

// MaxCategoryDepth bounds the taxonomy. Listings show a category only when it
// and every ancestor are active, and that check is unrolled to this depth.
const MaxCategoryDepth = 6

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

// InputType is the JSON type an attribute's value takes.
type InputType string

// Attribute input types, as on the wire.
const (
	InputText       InputType = "TEXT"
	InputNumber     InputType = "NUMBER"
	InputBoolean    InputType = "BOOLEAN"
	InputSelect     InputType = "SELECT"
	InputMultivalue InputType = "MULTIVALUE"
	InputDate       InputType = "DATE"
)

// Category is a node of the taxonomy.
type Category struct {
	ID          string
	Name        string
	Handle      string // "" when none
	Description string // "" when none
	ParentID    string // "" for a root
	Active      bool
	// Position is the category's rank in a pre-order walk of the whole tree
	// (parents before children, siblings in display order). Listing by
	// (position, id) therefore yields parents before their children and can
	// be keyset-paginated on an index.
	Position int
	// CreatedAt is set by the store when zero.
	CreatedAt time.Time
}

// Attribute is a product attribute a category asks for.
type Attribute struct {
	ID         string
	CategoryID string
	Name       string
	InputType  InputType
	Mandatory  bool
	// AllowedValues are the accepted values of SELECT and MULTIVALUE.
	AllowedValues []string
	Unit          string // "" when none
	Position      int
}

// Dimensions of a parcel, in centimetres.
type Dimensions struct {
	Length, Width, Height float64
}

// Option is one option of a variant. A nil part renders as null.
type Option struct {
	Name, Value *string
}

// OptionGroup is one option axis of a product with its values, in display
// order.
type OptionGroup struct {
	Title  string
	Values []string
}

// AttributeValue is a category attribute answered on a product; Value is the
// JSON the partner sent, already checked against the attribute's input type.
type AttributeValue struct {
	AttributeID string
	Value       json.RawMessage
}

// Variant is a sellable unit of a product.
type Variant struct {
	ID       string
	Position int
	Title    string
	SKU      *string
	// Price is in centavos.
	Price   *int64
	Stock   *int64
	Options []Option
	// Weight is in grams.
	Weight     float64
	Dimensions Dimensions
	Images     []string
}

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
	// InTx runs fn with a transaction in its context (joining one ctx
	// already carries): every Store method, and any other store reading
	// its client through the context, takes part in it.
	InTx(ctx context.Context, fn func(ctx context.Context) error) error
}
