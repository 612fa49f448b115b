package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// SandboxFault is a sandbox shop's queue of injected failures for one
// target (POST /open/v1/sandbox/faults): its next `remaining` calls to the
// target fail with `error`. It is a table, not a process's memory, because
// core scales as several replicas and the partner's next call may reach
// any of them; a call takes one failure with one conditional UPDATE
// (remaining - 1 where remaining > 0), so two replicas never take the same
// one. target is a column so other outside parties (the refund ledger)
// queue theirs beside the carrier's.
type SandboxFault struct {
	ent.Schema
}

func (SandboxFault) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		// What fails: "carrier".
		field.String("target").NotEmpty().MaxLen(32).Immutable(),
		// The failure: SHIP_FAILED, UPSTREAM_ERROR, UPSTREAM_TIMEOUT.
		field.String("error").NotEmpty().MaxLen(64),
		field.Int("remaining").NonNegative(),
		updatedAt(),
	}
}

// Mixin makes a queue seller-owned (SellerOwned), without a foreign key: a
// sandbox tool's state, kept apart from the shop's records.
func (SandboxFault) Mixin() []ent.Mixin {
	return []ent.Mixin{SellerOwned{}}
}

func (SandboxFault) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("seller_id", "target").Unique(),
	}
}
