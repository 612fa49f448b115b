package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// PickupAddress is where a seller's parcels are collected from (or dropped
// off). Exactly one per seller is the default: shipping quotes from it when a
// request names no origin. The place is its PSGC city or municipality code;
// city, province and region are the names internal/psgc gives that code, so
// they never disagree with it.
type PickupAddress struct {
	ent.Schema
}

// Mixin makes an address seller-owned (SellerOwned).
func (PickupAddress) Mixin() []ent.Mixin {
	return []ent.Mixin{SellerOwned{Ref: "pickup_addresses"}}
}

func (PickupAddress) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.Bool("is_default").Default(false),
		// The contact or place name on the label.
		field.String("name").NotEmpty().MaxLen(120),
		field.String("line1").NotEmpty().MaxLen(255),
		field.String("line2").Default("").MaxLen(255),
		field.String("city").NotEmpty().MaxLen(120),
		field.String("province").NotEmpty().MaxLen(120),
		field.String("region").NotEmpty().MaxLen(120),
		field.String("postal_code").NotEmpty().MaxLen(10),
		field.String("phone").NotEmpty().MaxLen(32),
		// The 10-digit PSGC code of the city or municipality.
		field.String("psgc_code").MinLen(10).MaxLen(10),
		createdAt(),
		updatedAt(),
	}
}

func (PickupAddress) Indexes() []ent.Index {
	return []ent.Index{
		// A seller's addresses, default first then oldest first.
		index.Fields("seller_id", "created_at", "id"),
		// At most one default per seller, held by the database itself
		// (a partial unique index on PostgreSQL and SQLite alike).
		index.Fields("seller_id").
			Unique().
			Annotations(entsql.IndexWhere("is_default")).
			StorageKey("pickupaddress_one_default_per_seller"),
	}
}
