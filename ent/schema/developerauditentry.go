package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// DeveloperAuditEntry is one change made from the developer console: who,
// what, when, from which address. Entries outlive the account (no foreign
// key) so an operator can still read what happened to a deleted one.
type DeveloperAuditEntry struct {
	ent.Schema
}

func (DeveloperAuditEntry) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("account_id").NotEmpty().Immutable(),
		// The person who made the change; empty for an operator's.
		field.String("user_id").Default("").Immutable(),
		// What happened, e.g. "account.created", "app.secret_rotated".
		field.String("action").NotEmpty().MaxLen(64).Immutable(),
		// The id of the thing changed (an app, a member), when not the account.
		field.String("subject_id").Default("").Immutable(),
		field.String("client_ip").Default("").MaxLen(64).Immutable(),
		createdAt(),
	}
}

func (DeveloperAuditEntry) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("account_id", "created_at"),
	}
}
