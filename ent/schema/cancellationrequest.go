package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// CancellationRequest is a buyer's request to cancel an order before it
// ships. The seller answers by respond_by on the shop's business clock, or
// it is AUTO_APPROVED by the deadline sweep (internal/deadline). An order
// has at most one PENDING request at a time; decided ones stay as history.
type CancellationRequest struct {
	ent.Schema
}

// Mixin makes a request seller-owned (SellerOwned).
func (CancellationRequest) Mixin() []ent.Mixin {
	return []ent.Mixin{SellerOwned{Ref: "cancellation_requests"}}
}

func (CancellationRequest) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		// The order; no foreign key, as for returns.
		field.String("order_id").NotEmpty().Immutable(),
		field.Enum("status").Values("PENDING", "APPROVED", "REJECTED", "AUTO_APPROVED").Default("PENDING"),
		field.String("reason").NotEmpty().MaxLen(500).Immutable(),
		// The seller's reason for a rejection.
		field.String("reject_reason").Default("").MaxLen(500),
		field.Time("requested_at").Immutable(),
		field.Time("respond_by").Immutable(),
		field.Time("decided_at").Optional().Nillable(),
		createdAt(),
		updatedAt(),
	}
}

func (CancellationRequest) Indexes() []ent.Index {
	return []ent.Index{
		// A seller's requests, oldest first, and by status.
		index.Fields("seller_id", "created_at", "id"),
		index.Fields("seller_id", "status", "created_at", "id"),
		// An order's requests, newest first: the order reads show the
		// latest (one index range per order, or per page of orders).
		index.Fields("seller_id", "order_id", "created_at"),
		// One pending request per order, held by the database.
		index.Fields("order_id").
			Unique().
			Annotations(entsql.IndexWhere("status = 'PENDING'")).
			StorageKey("cancellation_request_one_pending_per_order"),
		// The deadline sweep: pending requests by deadline.
		index.Fields("status", "respond_by"),
	}
}
