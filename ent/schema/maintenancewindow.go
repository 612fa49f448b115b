package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
)

// MaintenanceWindow is an environment's maintenance state: one row per
// environment, its id the environment's name ("sandbox", "production"),
// written by operators through core's MaintenanceAdminService and read by
// every gateway replica about once a second. A row that does not exist is
// an environment never switched (off).
type MaintenanceWindow struct {
	ent.Schema
}

func (MaintenanceWindow) Fields() []ent.Field {
	return []ent.Field{
		// The environment: "sandbox" or "production".
		field.String("id").Immutable().NotEmpty().MaxLen(16),
		field.Bool("active").Default(false),
		// The end the operator announced (nil: none); advisory, it
		// sets Retry-After and does not end maintenance by itself.
		field.Time("until").Optional().Nillable(),
		field.String("message").MaxLen(500).Default(""),
		// The internal caller that made the last change.
		field.String("set_by").MaxLen(200).Default(""),
		updatedAt(),
	}
}
