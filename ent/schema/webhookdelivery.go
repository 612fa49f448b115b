package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// WebhookDelivery is one attempt to deliver an event to a subscription: the
// delivery log partners read (30 days).
type WebhookDelivery struct {
	ent.Schema
}

func (WebhookDelivery) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("subscription_id").NotEmpty().Immutable(),
		field.String("app_id").NotEmpty().Immutable(),
		// The event's public id (the webhook-id header) and type.
		field.String("event_id").NotEmpty().MaxLen(64).Immutable(),
		field.String("event_type").NotEmpty().MaxLen(64).Immutable(),
		// A synthetic event sent by POST /webhooks/test.
		field.Bool("test").Default(false).Immutable(),
		// 1 for the first attempt.
		field.Int64("attempt").Positive().Immutable(),
		field.Enum("status").Values("succeeded", "failed").Immutable(),
		// The receiver's HTTP status; nil when no answer came.
		field.Int64("response_status").Optional().Nillable().NonNegative().Immutable(),
		field.Int64("duration_ms").NonNegative().Immutable(),
		// Why the attempt failed, in words safe to show the partner.
		field.String("error").Default("").MaxLen(500).Immutable(),
		// The start of the receiver's answer (at most 4 KiB), for the log.
		field.Bytes("response_body").Optional().Immutable(),
		// When the next attempt is due; nil after the last one.
		field.Time("next_attempt_at").Optional().Nillable().Immutable(),
		createdAt(),
	}
}

func (WebhookDelivery) Indexes() []ent.Index {
	return []ent.Index{
		// The log of a subscription, newest first.
		index.Fields("subscription_id", "created_at"),
		// Retention.
		index.Fields("created_at"),
	}
}

func (WebhookDelivery) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Checks(merge(positive("webhook_deliveries", "attempt"),
			nonNegative("webhook_deliveries", "response_status", "duration_ms"))),
	}
}
