package schema

import (
	"encoding/json"

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
		// Set by a console sign-up; an account an operator created has none.
		field.Enum("developer_type").Values("INDIVIDUAL", "BUSINESS").Optional().Nillable(),
		// The identity the partner submitted for review (services/developer
		// keeps its shape); nil until submitted.
		field.JSON("profile", json.RawMessage{}).Optional(),
		field.Enum("profile_status").Values("pending", "approved", "rejected").Optional().Nillable(),
		field.Time("profile_submitted_at").Optional().Nillable(),
		field.Time("profile_reviewed_at").Optional().Nillable(),
		createdAt(),
	}
}

func (DeveloperAccount) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("apps", App.Type),
		edge.To("members", DeveloperMember.Type),
	}
}

func (DeveloperAccount) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Checks(positive("developer_accounts", "rate_limit_per_minute")),
	}
}
