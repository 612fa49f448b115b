package schema

import (
	"regexp"

	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// sha256Hex is the only accepted shape of a stored token: storing anything
// else would mean a raw token slipped through.
var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// SellerAuthorization is a seller's grant to an app, created by the consent
// flow (or an operator), with the grant's current token pair: a refresh
// rotates both in place and retires the old refresh token
// (RetiredRefreshToken), so presenting it again is detected as reuse. Tokens
// are never stored, only their SHA-256 so a database leak does not leak
// usable credentials; lookups hash the presented token first.
type SellerAuthorization struct {
	ent.Schema
}

// Mixin makes the grant seller-owned; revoking everything a seller
// granted (or listing it) scans by seller: the mixin's index (SellerOwned).
func (SellerAuthorization) Mixin() []ent.Mixin {
	return []ent.Mixin{SellerOwned{Ref: "authorizations", Index: true}}
}

func (SellerAuthorization) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("app_id").NotEmpty().Immutable(),
		field.JSON("scopes", []string{}).Default([]string{}),
		field.String("access_token_hash").MaxLen(64).Match(sha256Hex).Unique().Sensitive(),
		field.Time("access_expires_at"),
		field.String("refresh_token_hash").MaxLen(64).Match(sha256Hex).Unique().Sensitive(),
		field.Time("refresh_expires_at"),
		field.Time("revoked_at").Optional().Nillable(),
		// When the grant itself ends (365 days after consent): no refresh
		// goes past it and the app must send the seller through consent
		// again. Unset on grants from before it was kept: refresh_expires_at.
		field.Time("grant_expires_at").Optional().Nillable(),
		// When authorization.expiring was recorded for this grant (the
		// worker's job records it once, 7 days before grant_expires_at).
		field.Time("expiring_notified_at").Optional().Nillable(),
		createdAt(),
	}
}

func (SellerAuthorization) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("app", App.Type).
			Ref("seller_authorizations").
			Field("app_id").
			Unique().
			Required().
			Immutable(),
	}
}

func (SellerAuthorization) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("app_id", "seller_id"),
	}
}
