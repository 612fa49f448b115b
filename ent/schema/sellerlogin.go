package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
)

// SellerLogin is how a seller signs in on the consent pages: a username, a
// password (argon2id, never in clear), and where one-time codes are sent.
// Test shops also accept a fixed sandbox code (its hash), so partners can
// script the flow; elsewhere codes are random and per session.
type SellerLogin struct {
	ent.Schema
}

func (SellerLogin) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		// Not SellerOwned: one login per seller (unique), which names the
		// seller on the consent pages rather than being one of its records.
		field.String("seller_id").NotEmpty().Unique().Immutable(),
		// Lowercased as typed at sign-in.
		field.String("username").NotEmpty().MaxLen(254).Unique(),
		// PHC-format argon2id hash.
		field.String("password_hash").NotEmpty().Sensitive(),
		// A phone number (+63…) or an e-mail address.
		field.String("otp_destination").NotEmpty().MaxLen(254),
		// Test shops only: SHA-256 hex of the sandbox's fixed code.
		field.String("fixed_otp_hash").Optional().Nillable().MaxLen(64).Match(sha256Hex).Sensitive(),
		// Wrong one-time codes in a row; the fifth locks the login until
		// locked_until.
		field.Int("otp_failures").Default(0).NonNegative(),
		field.Time("locked_until").Optional().Nillable(),
		createdAt(),
		updatedAt(),
	}
}
