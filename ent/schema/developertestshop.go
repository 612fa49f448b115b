package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// DeveloperTestShop is a sandbox test shop a developer account made from the
// console: the seller itself is the auth domain's. A row is written first,
// under the account's lock, to count against the account's limit; seller_id
// is set once the shop is made.
type DeveloperTestShop struct {
	ent.Schema
}

func (DeveloperTestShop) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("account_id").NotEmpty().Immutable(),
		field.String("shop_name").NotEmpty(),
		field.String("seller_id").Optional().Nillable().Unique(),
		// The consent pages' username of the shop's login.
		field.String("username").Optional(),
		createdAt(),
	}
}

func (DeveloperTestShop) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("account_id"),
	}
}
