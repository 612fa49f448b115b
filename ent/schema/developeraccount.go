package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
)

// DeveloperAccount is the partner organisation that owns apps. Rate limits
// are charged per account as well as per app.
type DeveloperAccount struct {
	ent.Schema
}

func (DeveloperAccount) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("name").NotEmpty(),
		// Stored lower-cased by the admin service: the unique index is on the
		// column as written.
		field.String("email").NotEmpty().Unique(),
		// Enterprise override of the per-account limit (1800/min); nil means
		// the platform default applies.
		field.Int("rate_limit_per_minute").Optional().Nillable().Positive(),
		createdAt(),
	}
}

func (DeveloperAccount) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("apps", App.Type),
	}
}

func (DeveloperAccount) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Checks(positive("developer_accounts", "rate_limit_per_minute")),
	}
}
