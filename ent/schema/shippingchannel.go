package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
)

// ShippingChannel is one shipping channel as an operator loaded it: its id
// (the code orders carry as shippingChannel) and its whole document as JSON
// text, checked by services/shipping/channels before it is written and again
// when read. The set is replaced as a whole ("mpserver admin load-channels"),
// in one transaction. `active` is the column the quote engine obeys (an
// operator may switch a channel off without rewriting its document).
type ShippingChannel struct {
	ent.Schema
}

func (ShippingChannel) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Annotation{Table: "shipping_channels"}}
}

func (ShippingChannel) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").Immutable().NotEmpty().MaxLen(40),
		// Text, not jsonb: the bytes read back are the bytes written, so
		// the set's version (a hash of the rows) is the same on every
		// backend and every read.
		field.Text("document").NotEmpty(),
		field.Bool("active").Default(true),
		updatedAt(),
	}
}
