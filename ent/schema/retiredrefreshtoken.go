package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// RetiredRefreshToken is a refresh token a refresh has already used. It is
// kept (its hash) until it would have expired, so that presenting it again
// is recognised as reuse (a stolen token, or a client that lost the new one)
// and the whole grant is revoked, as RFC 9700 asks of rotating refresh
// tokens.
type RetiredRefreshToken struct {
	ent.Schema
}

func (RetiredRefreshToken) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("token_hash").MaxLen(64).Match(sha256Hex).Unique().Immutable().Sensitive(),
		field.String("authorization_id").NotEmpty().Immutable(),
		// When the token would have expired: after it, it is purged.
		field.Time("expires_at").Immutable(),
		createdAt(),
	}
}

func (RetiredRefreshToken) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("authorization_id"),
		index.Fields("expires_at"),
	}
}
