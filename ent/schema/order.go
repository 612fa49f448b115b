package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/mallplatform/partnerapi/internal/db/dbtypes"
)

// Order is a buyer's order from one seller, ingested by checkout. Amounts are
// integer centavos; nothing on a money path is a float.
type Order struct {
	ent.Schema
}

// Mixin makes an order seller-owned (SellerOwned).
func (Order) Mixin() []ent.Mixin {
	return []ent.Mixin{SellerOwned{Ref: "orders"}}
}

func (Order) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("customer_id"),
		// Personal data: only rendered for apps holding customer:email:read and
		// never put in webhook payloads. Empty when checkout had none.
		field.String("buyer_email").Default(""),
		// PENDING and PAID come from checkout; the cancellation guard treats
		// them like READY_TO_SHIP.
		field.Enum("status").
			NamedValues(
				"Pending", "PENDING",
				"Paid", "PAID",
				"ReadyToShip", "READY_TO_SHIP",
				"Shipped", "SHIPPED",
				"Delivered", "DELIVERED",
				"Cancelled", "CANCELLED",
				"ReturnRefund", "RETURN_REFUND",
			),
		field.String("currency").Default("PHP").MinLen(3).MaxLen(3),
		field.Int64("subtotal").NonNegative(),
		field.Int64("total").NonNegative(),
		field.Int64("tax").NonNegative(),
		field.Int64("shipping").NonNegative(),
		field.Int64("discount").NonNegative(),
		field.String("payment_status"),
		field.String("fulfillment_status"),
		field.JSON("shipping_address", dbtypes.Address{}),
		field.JSON("billing_address", dbtypes.Address{}),
		// nil when the order has no ship-by deadline: the contract renders
		// null and omits slaBreached.
		field.Time("ship_by_date").Optional().Nillable(),
		field.Time("shipped_at").Optional().Nillable(),
		field.String("shipping_channel").Optional().Nillable(),
		// nil once handover has progressed past the pre-shipment booking
		// window (the contract omits the field).
		field.Enum("booking_status").
			NamedValues(
				"PendingArrange", "PENDING_ARRANGE",
				"ReadyForHandover", "READY_FOR_HANDOVER",
			).
			Optional().
			Nillable(),
		// When the order's buyer last asked to cancel it (the orders step
		// CancellationRequested, in the request's transaction): the order
		// reads ask the cancellations domain for the request only when it is
		// set, so an order nobody asked about stays one statement to read.
		field.Time("cancellation_requested_at").Optional().Nillable(),
		createdAt(),
		updatedAt(),
	}
}

func (Order) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("items", OrderItem.Type).
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("fulfillments", Fulfillment.Type).
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

func (Order) Indexes() []ent.Index {
	return []ent.Index{
		// Keyset listing of a seller's orders, optionally by status.
		index.Fields("seller_id", "created_at", "id"),
		index.Fields("seller_id", "status", "created_at", "id"),
	}
}

func (Order) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Checks(nonNegative("orders", "subtotal", "total", "tax", "shipping", "discount")),
	}
}
