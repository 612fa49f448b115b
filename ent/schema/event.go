package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Event is one state change of a seller's resource, written in the
// transaction of the change itself (the outbox): no change commits without
// its event and no event without its change. The events feed reads it back
// and the webhook deliveries send it. See docs/decisions.md, "Events".
type Event struct {
	ent.Schema
}

// Mixin makes the event seller-owned (SellerOwned), without a foreign key:
// the feed is a record of what happened.
func (Event) Mixin() []ent.Mixin {
	return []ent.Mixin{SellerOwned{}}
}

func (Event) Fields() []ent.Field {
	return []ent.Field{
		// The position in the feed, assigned by the database in insert
		// order; the feed pages on it.
		field.Int64("id").Positive().Immutable(),
		// The public id ("evt_…").
		field.String("event_id").NotEmpty().MaxLen(64).Unique().Immutable(),
		// Set on an event addressed to one app alone (a seller's grant to
		// it: authorization.*): other apps neither read nor receive it.
		field.String("app_id").Optional().Immutable(),
		// The catalogue's wire name ("order.cancelled").
		field.String("type").NotEmpty().MaxLen(64).Immutable(),
		// The resource the event is about ("ord_…", "prd_…").
		field.String("resource_id").NotEmpty().MaxLen(120).Immutable(),
		// One more than the resource's previous event, from 1.
		field.Int64("sequence").Positive().Immutable(),
		// The resource's partner-safe view at that moment, as wire JSON.
		field.Bytes("data").Immutable(),
		// Business time of the change (the shop's clock in the sandbox).
		field.Time("created_at").Immutable(),
		// Wall time of the write: retention counts from it.
		field.Time("recorded_at").Immutable(),
	}
}

func (Event) Indexes() []ent.Index {
	return []ent.Index{
		// The feed: a seller's events in position order, optionally by type.
		index.Fields("seller_id", "id"),
		index.Fields("seller_id", "type", "id"),
		// A resource's sequence never repeats (and the next one is read
		// from its end).
		index.Fields("resource_id", "sequence").Unique(),
		// The retention job deletes by age.
		index.Fields("recorded_at"),
	}
}

func (Event) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Checks(merge(positive("events", "id", "sequence"))),
	}
}
