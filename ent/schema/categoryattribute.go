package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// CategoryAttribute is a product attribute a category asks for. Product
// create validates attribute_values against these rows.
type CategoryAttribute struct {
	ent.Schema
}

func (CategoryAttribute) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("category_id").NotEmpty(),
		field.String("name").NotEmpty(),
		field.Enum("input_type").
			NamedValues(
				"Text", "TEXT",
				"Number", "NUMBER",
				"Boolean", "BOOLEAN",
				"Select", "SELECT",
				"Multivalue", "MULTIVALUE",
				"Date", "DATE",
			),
		field.Bool("mandatory").Default(false),
		// Only meaningful for SELECT and MULTIVALUE; empty otherwise.
		field.JSON("allowed_values", []string{}).Default([]string{}),
		field.String("unit").Optional(),
		field.Int("position").Default(0),
	}
}

func (CategoryAttribute) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("category", Category.Type).
			Ref("attributes").
			Field("category_id").
			Unique().
			Required(),
	}
}

func (CategoryAttribute) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("category_id", "position"),
	}
}
