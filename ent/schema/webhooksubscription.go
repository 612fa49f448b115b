package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// WebhookSubscription is an app's subscription of one callback URL to one
// event type. Its signing secret is sealed at rest (AES-GCM, bound to the
// row's id), never hashed: every delivery signs with it. See
// docs/decisions.md, "Webhooks".
type WebhookSubscription struct {
	ent.Schema
}

func (WebhookSubscription) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("app_id").NotEmpty().Immutable(),
		// The catalogue's wire name ("order.created").
		field.String("event_type").NotEmpty().MaxLen(64).Immutable(),
		field.String("callback_url").NotEmpty().MaxLen(2048),
		field.Bool("is_active").Default(true),
		// A sandbox app's subscription: its callback may be plain http.
		field.Bool("sandbox").Default(false).Immutable(),
		field.Bytes("secret_ciphertext").Sensitive(),
		// The secret before the last rotation, still signing until
		// previous_secret_expires_at.
		field.Bytes("previous_secret_ciphertext").Optional().Nillable().Sensitive(),
		field.Time("previous_secret_expires_at").Optional().Nillable(),
		// Delivery health: failures in a row since the last success, and
		// when the first of them happened.
		field.Int64("consecutive_failures").Default(0).NonNegative(),
		field.Time("failing_since").Optional().Nillable(),
		// Set when the platform disabled the subscription.
		field.String("disabled_reason").Optional().Nillable().MaxLen(500),
		createdAt(),
		updatedAt(),
	}
}

func (WebhookSubscription) Indexes() []ent.Index {
	return []ent.Index{
		// One subscription per app, type and URL.
		index.Fields("app_id", "event_type", "callback_url").Unique(),
		// Fan-out: the active subscriptions of a type.
		index.Fields("event_type", "is_active"),
	}
}

func (WebhookSubscription) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Checks(nonNegative("webhook_subscriptions", "consecutive_failures")),
	}
}
