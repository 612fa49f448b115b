// Package dbtypes holds the Go shapes of the JSON columns. They are the
// storage representation, not the wire format: services convert between these
// and their proto messages, so the JSON keys here may differ from the spec's
// field names and must stay stable once rows exist.
//
// The package imports nothing from ent so that services, converters and tests
// can use it without pulling in the generated client.
package dbtypes

import "encoding/json"

// OptionGroup is one option axis of a product (for example "Colour" with its
// values), kept in the order the seller submitted it so reads render the same
// order back.
type OptionGroup struct {
	Title  string   `json:"title"`
	Values []string `json:"values"`
}

// AttributeValue is a category attribute answered on a product. Value stays raw
// JSON because its type depends on the attribute's input type (text, number,
// boolean, list...), which the catalog service validates against the category.
// PostgreSQL keeps it as jsonb, which re-renders it (spacing, key order): a
// value reads back equal in meaning, not byte for byte.
type AttributeValue struct {
	AttributeID string          `json:"attribute_id"`
	Value       json.RawMessage `json:"value"`
}

// VariantOption is one option of a variant. Name and Value are pointers
// because the contract renders a missing one as null, distinct from "".
type VariantOption struct {
	Name  *string `json:"name"`
	Value *string `json:"value"`
}

// Address is a postal address on an order. Line2 is a pointer because the
// contract omits it when the buyer gave none, which differs from an empty line.
type Address struct {
	Name       string  `json:"name"`
	Line1      string  `json:"line1"`
	Line2      *string `json:"line2,omitempty"`
	City       string  `json:"city"`
	Province   string  `json:"province"`
	PostalCode string  `json:"postal_code"`
	Country    string  `json:"country"`
	Phone      string  `json:"phone"`
}

// FulfillmentItem is how many units of one order item a fulfillment covers.
// ItemID refers to an OrderItem of the same order.
type FulfillmentItem struct {
	ItemID   string `json:"item_id"`
	Quantity int    `json:"quantity"`
}
