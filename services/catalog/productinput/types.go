// Package productinput is the one place where a product's input is checked:
// single create, update and bulk create call the same rules and get the same
// codes and the same message for each field path. It knows nothing of
// protobuf or storage: it reads categories through the small Categories
// interface (the catalog store satisfies it) and returns violations, which
// single create renders as one error answer and bulk create as item errors.
package productinput

import (
	"encoding/json"
	"time"
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

// AttributeValue is a category attribute answered on a product; Value is the
// JSON the partner sent, already checked against the attribute's input type
// once stored.
type AttributeValue struct {
	AttributeID string
	Value       json.RawMessage
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

// Input is a product to create, as the partner sent it. Range and length
// rules are those of the proto's protovalidate rules, checked before.
type Input struct {
	Title       string
	Description string
	// Category is meant to be a category id; anything else is rejected.
	Category             string
	Images               []string
	Weight               *float64
	Length, Width        *float64
	Height               *float64
	UseVariantDimensions bool
	AttributeValues      []AttributeValue
	Variants             []VariantInput
}

// OptionInput is one option-group → value pair of a variant, in the order the
// partner sent it.
type OptionInput struct {
	Name, Value string
}

// VariantInput is one variant of a product to create.
type VariantInput struct {
	Title *string
	SKU   *string
	// Price is in centavos.
	Price   *int64
	Stock   *int64
	Options []OptionInput
	// Images nil or empty: the product's images.
	Images        []string
	Weight        *float64
	Length, Width *float64
	Height        *float64
}

// Product is an input that passed every rule, in the shape it is stored:
// variants without ids, the category resolved, figures derived.
type Product struct {
	Category             *Leaf
	Images               []string
	Weight               float64
	Dimensions           Dimensions
	UseVariantDimensions bool
	// OptionsOrder is nil when no variant has options.
	OptionsOrder    []OptionGroup
	AttributeValues []AttributeValue
	Variants        []Variant
}

// Leaf is a category that accepts products, with its effective attributes.
type Leaf struct {
	Category
	Attributes []Attribute
}
