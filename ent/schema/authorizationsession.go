package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// AuthorizationSession is one run of the consent pages, from authorize to
// consent or deny: single use, valid 10 minutes. The page's link carries a
// random session token and the seller's browser, once signed in, a cookie
// bound to the session; both are stored as SHA-256 only, as is the pending
// one-time code.
type AuthorizationSession struct {
	ent.Schema
}

func (AuthorizationSession) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("token_hash").MaxLen(64).Match(sha256Hex).Unique().Immutable().Sensitive(),
		field.String("app_id").NotEmpty().Immutable(),
		field.String("redirect_uri").NotEmpty().MaxLen(2048).Immutable(),
		field.String("state").MaxLen(1024).Default("").Immutable(),
		// The scopes the app asks for (all of its own).
		field.JSON("scopes", []string{}).Default([]string{}).Immutable(),
		// PKCE (S256 only), when the app sent one.
		field.String("code_challenge").Optional().MaxLen(128).Immutable(),
		field.Time("expires_at").Immutable(),
		// Set by a successful sign-in. Not SellerOwned: a session exists
		// before anyone signed in, so the seller is optional and set later.
		field.String("seller_id").Optional(),
		field.String("cookie_hash").Optional().Nillable().MaxLen(64).Match(sha256Hex).Unique().Sensitive(),
		field.String("otp_hash").Optional().Nillable().MaxLen(64).Match(sha256Hex).Sensitive(),
		field.Time("otp_expires_at").Optional().Nillable(),
		field.Time("otp_verified_at").Optional().Nillable(),
		// Consent or deny ends the session.
		field.Time("consumed_at").Optional().Nillable(),
		createdAt(),
	}
}

func (AuthorizationSession) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("expires_at"),
	}
}
