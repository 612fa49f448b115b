package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
)

// DeveloperUser is a person who signs in to the developer console. A person
// acts in developer accounts through memberships (DeveloperMember).
type DeveloperUser struct {
	ent.Schema
}

func (DeveloperUser) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		// Trimmed and lower-cased by services/developer.
		field.String("email").NotEmpty().MaxLen(254).Unique(),
		field.String("name").NotEmpty().MaxLen(200),
		// PHC-format argon2id hash, as for seller logins.
		field.String("password_hash").NotEmpty().Sensitive(),
		// Nil until the person follows a verification link.
		field.Time("email_verified_at").Optional().Nillable(),
		createdAt(),
	}
}

func (DeveloperUser) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("memberships", DeveloperMember.Type),
	}
}
