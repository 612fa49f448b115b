package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// returnStatuses are services/returns' statuses.
var returnStatuses = []string{
	"REQUESTED", "APPROVED", "REJECTED", "BUYER_SHIPPED", "RECEIVED", "DISPUTED", "REFUNDED", "CLOSED", "CANCELLED",
}

// disputeReasonCodes are the spec's six DisputeReasonCode codes.
var disputeReasonCodes = []string{
	"did_not_receive_return_parcel", "received_physical_damage", "received_incomplete",
	"received_wrong_product", "received_used_product", "buyer_claim_incorrect",
}

// ReturnRequest is a buyer's return of (part of) a delivered order, table
// "returns" (the Go name avoids the keyword). Its status moves by the table
// of services/returns; every deadline it has had is kept, and auto_due_at
// is the deadline of the automatic move due next (none when the status has
// none), which the deadline sweep lists by.
type ReturnRequest struct {
	ent.Schema
}

// Annotations names the table and keeps money at or above zero.
func (ReturnRequest) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "returns"},
		entsql.Checks(nonNegative("returns", "refund_amount", "refunded_amount")),
	}
}

// Mixin makes a return seller-owned (SellerOwned).
func (ReturnRequest) Mixin() []ent.Mixin {
	return []ent.Mixin{SellerOwned{Ref: "returns"}}
}

func (ReturnRequest) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		// The order returned; no foreign key, so returns keep out of the
		// orders tables (orders move only through their own service).
		field.String("order_id").NotEmpty().Immutable(),
		field.Enum("status").Values(returnStatuses...).Default("REQUESTED"),
		field.String("reason").NotEmpty().MaxLen(500).Immutable(),
		field.String("buyer_note").Default("").MaxLen(2000).Immutable(),
		field.JSON("evidence", []string{}).Default([]string{}).Immutable(),
		// What the buyer asks back, in centavos (the items' sum).
		field.Int64("refund_amount").Immutable(),
		// What was refunded so far (a partial refund is less than
		// refund_amount).
		field.Int64("refunded_amount").Default(0),
		field.String("currency").Default("PHP").MaxLen(3).Immutable(),
		field.Bool("refund_only").Default(false).Immutable(),
		field.String("return_tracking_number").Default("").MaxLen(64),
		field.Time("seller_response_by").Optional().Nillable(),
		field.Time("buyer_ship_by").Optional().Nillable(),
		field.Time("inspect_by").Optional().Nillable(),
		field.Time("dispute_by").Optional().Nillable(),
		// The deadline of the automatic move due next; none when the
		// status has no automatic move.
		field.Time("auto_due_at").Optional().Nillable(),
		// The status the last move left when that move was automatic;
		// empty otherwise (services/returns State.AutoFrom).
		field.String("auto_from").Default("").MaxLen(16),
		field.String("reject_reason").Default("").MaxLen(500),
		field.String("reject_note").Default("").MaxLen(2000),
		createdAt(),
		updatedAt(),
	}
}

func (ReturnRequest) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("items", ReturnItem.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("dispute", ReturnDispute.Type).Unique().Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

func (ReturnRequest) Indexes() []ent.Index {
	return []ent.Index{
		// A seller's returns, oldest first, and by status.
		index.Fields("seller_id", "created_at", "id"),
		index.Fields("seller_id", "status", "created_at", "id"),
		// An order's returns.
		index.Fields("seller_id", "order_id"),
		// The deadline sweep: automatic moves due.
		index.Fields("auto_due_at"),
	}
}

// ReturnItem is one order line returned, with its quantity and the amount
// asked back for it.
type ReturnItem struct {
	ent.Schema
}

// Annotations keeps quantities positive and money at or above zero.
func (ReturnItem) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Checks(merge(positive("return_items", "quantity"), nonNegative("return_items", "refund_amount"))),
	}
}

func (ReturnItem) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("return_id").NotEmpty().Immutable(),
		// The order item returned.
		field.String("item_id").NotEmpty().Immutable(),
		field.Int64("quantity").Immutable(),
		field.Int64("refund_amount").Immutable(),
		// The order of the items on the return.
		field.Int("position").NonNegative().Immutable(),
	}
}

func (ReturnItem) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("return", ReturnRequest.Type).Ref("items").Field("return_id").Unique().Required().Immutable(),
	}
}

func (ReturnItem) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("return_id", "position").Unique(),
	}
}

// ReturnDispute is the dispute of a return: the seller's (from
// BUYER_SHIPPED or RECEIVED) or the buyer's escalation of a rejection, and
// the platform's decision once made.
type ReturnDispute struct {
	ent.Schema
}

func (ReturnDispute) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("return_id").NotEmpty().Immutable(),
		// Who raised it: the seller's dispute or the buyer's escalation.
		field.Enum("raised_by").Values("SELLER", "BUYER").Immutable(),
		// One of the six codes; empty for a buyer's escalation.
		field.String("reason_code").Default("").MaxLen(40).Immutable(),
		field.String("description").Default("").MaxLen(2000).Immutable(),
		field.JSON("evidence", []string{}).Default([]string{}).Immutable(),
		// The platform's decision: REFUNDED or CLOSED, empty until made.
		field.String("outcome").Default("").MaxLen(16),
		field.Time("decided_at").Optional().Nillable(),
		createdAt(),
	}
}

func (ReturnDispute) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("return", ReturnRequest.Type).Ref("dispute").Field("return_id").Unique().Required().Immutable(),
	}
}

// Annotations holds the reason code to the six (or empty) in the database.
func (ReturnDispute) Annotations() []schema.Annotation {
	in := ""
	for i, c := range disputeReasonCodes {
		if i > 0 {
			in += ", "
		}
		in += "'" + c + "'"
	}
	return []schema.Annotation{
		entsql.Checks(map[string]string{
			"return_disputes_reason_code_check": "reason_code IN ('', " + in + ")",
			"return_disputes_outcome_check":     "outcome IN ('', 'REFUNDED', 'CLOSED')",
		}),
	}
}
