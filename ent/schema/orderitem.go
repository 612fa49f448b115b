package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// OrderItem is a line of an order, a snapshot taken at checkout: title, SKU
// and prices do not follow later product edits, so product_id and variant_id
// are plain references rather than edges.
type OrderItem struct {
	ent.Schema
}

func (OrderItem) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("order_id").NotEmpty().Immutable(),
		field.Int("position").NonNegative(),
		field.String("product_id"),
		// nil when the upstream record had no variant (the contract omits it).
		field.String("variant_id").Optional().Nillable(),
		field.String("title"),
		field.String("sku").Default(""),
		field.Int("quantity").Positive(),
		field.Int64("unit_price").NonNegative(),
		field.Int64("total_price").NonNegative(),
		field.String("thumbnail").Optional().Nillable(),
	}
}

func (OrderItem) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("order", Order.Type).
			Ref("items").
			Field("order_id").
			Unique().
			Required().
			Immutable(),
	}
}

func (OrderItem) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("order_id", "position"),
		// The catalog's delete asks whether unshipped orders hold a
		// product's variants (orders.EntStore.HoldsVariants).
		index.Fields("variant_id"),
	}
}

func (OrderItem) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Checks(merge(
			nonNegative("order_items", "position", "unit_price", "total_price"),
			positive("order_items", "quantity"),
		)),
	}
}
