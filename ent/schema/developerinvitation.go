package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// DeveloperInvitation is an e-mailed invitation to join a developer account
// with a role. Only the link token's SHA-256 is kept; it is accepted once,
// by the person with the invited address.
type DeveloperInvitation struct {
	ent.Schema
}

func (DeveloperInvitation) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("account_id").NotEmpty().Immutable(),
		// Lower-cased, as console addresses are stored.
		field.String("email").NotEmpty().Immutable(),
		field.Enum("role").Values("OWNER", "ADMIN", "DEVELOPER", "VIEWER").Immutable(),
		// SHA-256 hex of the link's token.
		field.String("token_hash").NotEmpty().MaxLen(64).Match(sha256Hex).Unique().Immutable().Sensitive(),
		// The console user who sent it.
		field.String("invited_by").NotEmpty().Immutable(),
		field.Time("expires_at").Immutable(),
		// Set when accepted, or when a newer invitation to the same address
		// replaced it.
		field.Time("used_at").Optional().Nillable(),
		createdAt(),
	}
}

func (DeveloperInvitation) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("account_id", "email"),
		index.Fields("expires_at"),
	}
}
