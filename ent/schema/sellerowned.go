package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"entgo.io/ent/schema/mixin"
)

// SellerOwned is the one definition of a seller's ownership of a row: the
// seller_id column every query of the row filters on (another seller's row
// answers NOT_FOUND, never someone else's data), the edge to the Seller it
// hangs from and, when the schema has no index of its own that starts with
// seller_id, an index on it. Every seller-owned schema embeds it; a test
// (TestSellerIDOnlyThroughMixin) fails on a schema that declares seller_id
// by hand.
//
// Three schemas carry a seller_id without being owned by a seller, and keep
// their own field: AuthorizationSession (the seller is unknown until the
// consent page's sign-in sets it: optional and mutable), SellerLogin (a
// seller's one sign-in, unique per seller: it identifies the seller rather
// than belonging to it) and DeveloperTestShop (a developer account's row
// naming the test shop it made, empty until the shop exists).
type SellerOwned struct {
	mixin.Schema
	// Ref is the Seller edge this schema's rows hang from ("orders");
	// empty for rows kept without a foreign key: events and authorization
	// codes are records of what happened and stay valid on their own.
	Ref string
	// Index adds an index on seller_id alone, for schemas whose own
	// indexes do not start with it.
	Index bool
}

// Fields is the owner's id: set once at insert, never empty.
func (SellerOwned) Fields() []ent.Field {
	return []ent.Field{
		field.String("seller_id").NotEmpty().Immutable(),
	}
}

// Edges is the edge to the owning Seller, when the schema has one.
func (m SellerOwned) Edges() []ent.Edge {
	if m.Ref == "" {
		return nil
	}
	return []ent.Edge{
		edge.From("seller", Seller.Type).
			Ref(m.Ref).
			Field("seller_id").
			Unique().
			Required().
			Immutable(),
	}
}

// Indexes is the plain seller_id index, when asked for.
func (m SellerOwned) Indexes() []ent.Index {
	if !m.Index {
		return nil
	}
	return []ent.Index{index.Fields("seller_id")}
}
