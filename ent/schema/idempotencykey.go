package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// IdempotencyKey is one client's Idempotency-Key for a write: claimed
// in_progress under a lease before the write runs, completed with the write's
// answer in the write's own transaction, replayed for every repeat, and
// purged after 24 hours. See docs/decisions.md, "Idempotency".
type IdempotencyKey struct {
	ent.Schema
}

func (IdempotencyKey) Fields() []ent.Field {
	return []ent.Field{
		// Scope is who owns the key: "app:<app id>" for partner calls,
		// "caller:<id>" for internal callers.
		field.String("scope").NotEmpty().MaxLen(80).Immutable(),
		field.String("key").NotEmpty().MaxLen(255).Immutable(),
		// Fingerprint is the hex SHA-256 of the request the key was first
		// used with.
		field.String("fingerprint").MaxLen(64).Immutable(),
		// Method is the full gRPC method, for operators reading the table.
		field.String("method").MaxLen(200).Immutable(),
		// RequestID is the request id of the attempt whose answer is kept:
		// a replayed error names it as its requestId, so the replay is the
		// first answer byte for byte.
		field.String("request_id").Default("").MaxLen(128),
		field.Enum("state").Values("in_progress", "completed").Default("in_progress"),
		// Holder is the random token of the attempt that owns the lease;
		// completing checks it, so an attempt that lost its lease to a
		// retry cannot complete the key.
		field.String("holder").MaxLen(64).Sensitive(),
		field.Time("locked_until"),
		// The answer: error_code 0 with the response message's bytes, or
		// the apierr code and message of a failure.
		field.Bytes("response").Optional().Nillable(),
		field.Int32("error_code").Default(0),
		field.String("error_message").Default("").MaxLen(2000),
		// The error body's machine-readable fields (apierr.Fields), so a
		// replayed INVALID_PICKUP_DATE keeps its reason.
		field.String("error_reason").Default("").MaxLen(64),
		field.Bool("error_retryable").Optional().Nillable(),
		createdAt(),
		field.Time("completed_at").Optional().Nillable(),
	}
}

func (IdempotencyKey) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("scope", "key").Unique(),
		// The purge job deletes by age.
		index.Fields("created_at"),
	}
}
