package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// DeveloperEmailToken is a link sent by e-mail to a console user: an address
// verification (invitations have their own table). Only the token's SHA-256 is kept;
// a link is used once.
type DeveloperEmailToken struct {
	ent.Schema
}

func (DeveloperEmailToken) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.Enum("kind").Values("verify").Immutable(),
		// SHA-256 hex of the token.
		field.String("token_hash").NotEmpty().MaxLen(64).Match(sha256Hex).Unique().Immutable().Sensitive(),
		field.String("user_id").NotEmpty().Immutable(),
		field.Time("expires_at").Immutable(),
		field.Time("used_at").Optional().Nillable(),
		createdAt(),
	}
}

func (DeveloperEmailToken) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("user_id", "kind"),
	}
}
