package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// DeveloperMember is a person's role in a developer account.
type DeveloperMember struct {
	ent.Schema
}

func (DeveloperMember) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("account_id").NotEmpty().Immutable(),
		field.String("user_id").NotEmpty().Immutable(),
		field.Enum("role").Values("OWNER", "ADMIN", "DEVELOPER", "VIEWER"),
		createdAt(),
	}
}

func (DeveloperMember) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("account", DeveloperAccount.Type).Ref("members").Field("account_id").Unique().Required().Immutable(),
		edge.From("user", DeveloperUser.Type).Ref("memberships").Field("user_id").Unique().Required().Immutable(),
	}
}

func (DeveloperMember) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("account_id", "user_id").Unique(),
		index.Fields("user_id"),
	}
}
