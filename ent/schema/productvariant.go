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

// ProductVariant is a sellable unit of a product. Position 0 is the primary
// variant whose SKU, price and stock the product view shows.
type ProductVariant struct {
	ent.Schema
}

func (ProductVariant) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("product_id").NotEmpty().Immutable(),
		field.Int("position").NonNegative(),
		field.String("title").Optional(),
		// sku, price and stock_quantity are null on the wire when unknown,
		// which is not the same as "" or 0.
		field.String("sku").Optional().Nillable(),
		field.Int64("price").Optional().Nillable().NonNegative(),
		field.Int64("stock_quantity").Optional().Nillable().NonNegative(),
		field.JSON("options", []dbtypes.VariantOption{}).Default([]dbtypes.VariantOption{}),
		field.Float("weight").Default(0),
		field.Float("length").Default(0),
		field.Float("width").Default(0),
		field.Float("height").Default(0),
		field.JSON("images", []string{}).Default([]string{}),
	}
}

func (ProductVariant) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("product", Product.Type).
			Ref("variants").
			Field("product_id").
			Unique().
			Required().
			Immutable(),
	}
}

func (ProductVariant) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("product_id", "position"),
	}
}

func (ProductVariant) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Checks(nonNegative("product_variants",
			"position", "price", "stock_quantity", "weight", "length", "width", "height")),
	}
}
