package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
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
		// How far a test shop's business clock runs ahead of the wall
		// clock, in milliseconds: deadlines and SLA flags of its orders are
		// judged by it. It only moves forward, and only on test shops.
		field.Int64("clock_offset_ms").Default(0).NonNegative(),
		createdAt(),
	}
}

func (Seller) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("authorizations", SellerAuthorization.Type),
		edge.To("products", Product.Type),
		edge.To("orders", Order.Type),
		edge.To("pickup_addresses", PickupAddress.Type),
		edge.To("shipments", Shipment.Type),
		edge.To("returns", ReturnRequest.Type),
		edge.To("cancellation_requests", CancellationRequest.Type),
	}
}

func (Seller) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Checks(nonNegative("sellers", "clock_offset_ms")),
	}
}
