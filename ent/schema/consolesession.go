package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// ConsoleSession is a signed-in console user acting in one account. The
// cookie holds the token; only its SHA-256 is kept. It ends after 12 h
// without a call (last_seen_at) or at sign-out.
type ConsoleSession struct {
	ent.Schema
}

func (ConsoleSession) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		// SHA-256 hex of the cookie's token.
		field.String("token_hash").NotEmpty().MaxLen(64).Match(sha256Hex).Unique().Immutable().Sensitive(),
		field.String("user_id").NotEmpty().Immutable(),
		field.String("account_id").NotEmpty(),
		// The address the session was signed in from.
		field.String("client_ip").Default("").MaxLen(64).Immutable(),
		field.Time("last_seen_at"),
		createdAt(),
	}
}

func (ConsoleSession) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("user_id"),
		index.Fields("last_seen_at"),
	}
}
