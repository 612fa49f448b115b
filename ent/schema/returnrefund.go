package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// ReturnRefund is one refund of a return in the platform's ledger, table
// "return_refunds": written in the transaction of the return's move to
// REFUNDED, so the money and the status commit together or not at all. A
// return is refunded at most once (the unique return_id), whoever refunds
// it (the seller, the inspection deadline, the platform's decision). Kept
// without foreign keys: a ledger entry stays valid on its own.
type ReturnRefund struct {
	ent.Schema
}

// Annotations names the table and keeps amounts positive.
func (ReturnRefund) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "return_refunds"},
		entsql.Checks(merge(positive("return_refunds", "amount"), nonNegative("return_refunds", "requested_amount"))),
	}
}

// Mixin makes a refund seller-owned (SellerOwned), without a foreign key.
func (ReturnRefund) Mixin() []ent.Mixin {
	return []ent.Mixin{SellerOwned{}}
}

func (ReturnRefund) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("return_id").NotEmpty().Immutable(),
		field.String("order_id").NotEmpty().Immutable(),
		// Centavos refunded.
		field.Int64("amount").Immutable(),
		// Centavos the buyer asked back: amount below it is a partial
		// refund.
		field.Int64("requested_amount").Immutable(),
		field.String("currency").Default("PHP").MaxLen(3).Immutable(),
		// Who refunded: SELLER, DEADLINE (inspection not done in time) or
		// PLATFORM (a dispute's decision).
		field.Enum("source").Values("SELLER", "DEADLINE", "PLATFORM").Immutable(),
		createdAt(),
	}
}

func (ReturnRefund) Indexes() []ent.Index {
	return []ent.Index{
		// One refund per return.
		index.Fields("return_id").Unique(),
		// A seller's ledger, by time.
		index.Fields("seller_id", "created_at", "id"),
	}
}
