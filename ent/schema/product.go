package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/mallplatform/partnerapi/internal/db/dbtypes"
)

// Product is a seller's listing. Price, SKU and stock live on its variants;
// the partner view derives its top-level figures from the first variant.
type Product struct {
	ent.Schema
}

// Mixin makes a product seller-owned (SellerOwned).
func (Product) Mixin() []ent.Mixin {
	return []ent.Mixin{SellerOwned{Ref: "products"}}
}

func (Product) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("short_id").NotEmpty().Unique().Immutable(),
		field.String("name").NotEmpty(),
		field.String("description").Default(""),
		// New products start proposed; the platform's review moves them on.
		field.Enum("status").
			Values("live", "unlisted", "delisted", "proposed", "under_review", "archived").
			Default("proposed"),
		// Not an edge: a category may be deactivated or moved later and the
		// product must keep what it was created with.
		field.String("category_id").NotEmpty(),
		// What reads show as `category`, captured when the category is set so
		// renames in the taxonomy do not rewrite existing listings.
		field.String("category_name"),
		field.JSON("images", []string{}).Default([]string{}),
		field.Float("weight").Default(0),
		field.Float("length").Default(0),
		field.Float("width").Default(0),
		field.Float("height").Default(0),
		field.Bool("use_variant_dimensions").Default(false),
		// nil for products without option groups: the contract omits the
		// field then, which differs from an empty list.
		field.JSON("options_order", []dbtypes.OptionGroup{}).Optional(),
		field.JSON("attribute_values", []dbtypes.AttributeValue{}).Default([]dbtypes.AttributeValue{}),
		// What the platform's review last said about the product (a
		// rejection's reason); nil when it said nothing.
		field.String("review_note").Optional().Nillable(),
		createdAt(),
		updatedAt(),
	}
}

func (Product) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("variants", ProductVariant.Type).
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

func (Product) Indexes() []ent.Index {
	return []ent.Index{
		// Keyset listing of a seller's products, newest first, optionally by
		// status: (created_at, id) is the cursor.
		index.Fields("seller_id", "created_at", "id"),
		index.Fields("seller_id", "status", "created_at", "id"),
	}
}

func (Product) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Checks(nonNegative("products", "weight", "length", "width", "height")),
	}
}
