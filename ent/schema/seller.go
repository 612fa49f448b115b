package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
)

// Seller is a marketplace shop. Every seller-scoped row carries seller_id and
// every query filters on it.
type Seller struct {
	ent.Schema
}

func (Seller) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("name").NotEmpty(),
		field.String("shop_name").NotEmpty(),
		// Test shops exist only for sandbox traffic; live credentials must
		// never be granted access to them and vice versa.
		field.Bool("test_shop").Default(false),
		createdAt(),
	}
}

func (Seller) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("authorizations", SellerAuthorization.Type),
		edge.To("products", Product.Type),
		edge.To("orders", Order.Type),
	}
}
