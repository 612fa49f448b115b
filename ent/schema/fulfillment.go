package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/mallplatform/partnerapi/internal/db/dbtypes"
)

// Fulfillment is a shipment of some or all items of an order. Carrier-internal
// details are not stored here; only what the partner view shows.
type Fulfillment struct {
	ent.Schema
}

func (Fulfillment) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("order_id").NotEmpty().Immutable(),
		field.Enum("status").
			Values("pending", "shipped", "delivered", "cancelled").
			Default("pending"),
		field.String("tracking_number").Default(""),
		field.String("tracking_company").Default(""),
		field.JSON("items", []dbtypes.FulfillmentItem{}).Default([]dbtypes.FulfillmentItem{}),
		createdAt(),
		updatedAt(),
	}
}

func (Fulfillment) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("order", Order.Type).
			Ref("fulfillments").
			Field("order_id").
			Unique().
			Required().
			Immutable(),
	}
}

func (Fulfillment) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("order_id"),
	}
}
