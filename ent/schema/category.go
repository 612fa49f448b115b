package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Category is a node of the marketplace taxonomy. Ids are the marketplace's
// stable ids (for example "100017"), not minted ones, because partners send
// them back on product create.
type Category struct {
	ent.Schema
}

func (Category) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("name").NotEmpty(),
		field.String("handle").Optional(),
		field.String("description").Optional(),
		field.String("parent_id").Optional().Nillable(),
		// Categories are deactivated, never deleted: products keep pointing at
		// the id they were created with.
		field.Bool("active").Default(true),
		field.Int("position").Default(0),
		createdAt(),
	}
}

func (Category) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("children", Category.Type).
			From("parent").
			Field("parent_id").
			Unique(),
		edge.To("attributes", CategoryAttribute.Type),
	}
}

func (Category) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("parent_id"),
		// Listing order of the category tree.
		index.Fields("position", "id"),
	}
}
