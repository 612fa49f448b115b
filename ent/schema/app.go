package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// App is a partner application: its client id and HMAC secret sign every
// request. The secret is needed in clear to verify HMAC, so it is stored
// encrypted with a key from config rather than hashed.
type App struct {
	ent.Schema
}

func (App) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		// "test_..." for sandbox, "live_..." for production; the gateway
		// rejects a credential used against the other environment.
		field.String("client_id").NotEmpty().Unique().Immutable(),
		field.String("name").NotEmpty(),
		field.String("account_id").NotEmpty().Immutable(),
		field.Enum("environment").Values("sandbox", "production").Immutable(),
		field.JSON("scopes", []string{}).Default([]string{}),
		field.Bool("active").Default(true),
		// Per-app override of the 600/min default; nil means the default.
		field.Int("rate_limit_per_minute").Optional().Nillable().Positive(),
		field.Bytes("secret_ciphertext").Sensitive().NotEmpty(),
		// During a rotation the previous secret keeps verifying until
		// previous_secret_expires_at, so partners can roll without downtime.
		field.Bytes("previous_secret_ciphertext").Optional().Nillable().Sensitive(),
		field.Time("previous_secret_expires_at").Optional().Nillable(),
		// When the current secret was issued (at creation or the last
		// rotation); unset on apps from before it was kept: created_at.
		field.Time("secret_created_at").Optional().Nillable(),
		field.JSON("redirect_uris", []string{}).Default([]string{}),
		createdAt(),
		updatedAt(),
	}
}

func (App) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("account", DeveloperAccount.Type).
			Ref("apps").
			Field("account_id").
			Unique().
			Required().
			Immutable(),
		edge.To("seller_authorizations", SellerAuthorization.Type),
	}
}

func (App) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("account_id"),
	}
}

func (App) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Checks(positive("apps", "rate_limit_per_minute")),
	}
}
