package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// AuthorizationCode is the one-time code consent returns to the app's
// redirect URI: single use, valid 10 minutes, bound to the app, the redirect
// URI and the seller (and a PKCE challenge when one was sent). Stored as
// SHA-256 only. A second exchange revokes the grant the first one created.
type AuthorizationCode struct {
	ent.Schema
}

// Mixin makes the code seller-owned (SellerOwned): the seller who consented.
func (AuthorizationCode) Mixin() []ent.Mixin {
	return []ent.Mixin{SellerOwned{}}
}

func (AuthorizationCode) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("code_hash").MaxLen(64).Match(sha256Hex).Unique().Immutable().Sensitive(),
		field.String("app_id").NotEmpty().Immutable(),
		field.String("redirect_uri").NotEmpty().MaxLen(2048).Immutable(),
		// What the seller consented to.
		field.JSON("scopes", []string{}).Default([]string{}).Immutable(),
		field.String("code_challenge").Optional().MaxLen(128).Immutable(),
		field.Time("expires_at").Immutable(),
		field.Time("used_at").Optional().Nillable(),
		// The grant the exchange created.
		field.String("authorization_id").Optional(),
		createdAt(),
	}
}

func (AuthorizationCode) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("expires_at"),
	}
}
