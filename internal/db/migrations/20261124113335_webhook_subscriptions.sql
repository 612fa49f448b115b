-- +goose Up
-- create "webhook_subscriptions" table
CREATE TABLE "webhook_subscriptions" ("id" character varying NOT NULL, "app_id" character varying NOT NULL, "event_type" character varying NOT NULL, "callback_url" character varying NOT NULL, "is_active" boolean NOT NULL DEFAULT true, "secret_ciphertext" bytea NOT NULL, "previous_secret_ciphertext" bytea NULL, "previous_secret_expires_at" timestamptz NULL, "consecutive_failures" bigint NOT NULL DEFAULT 0, "failing_since" timestamptz NULL, "disabled_reason" character varying NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "webhook_subscriptions_consecutive_failures_check" CHECK (consecutive_failures >= 0));
-- create index "webhooksubscription_app_id_event_type_callback_url" to table: "webhook_subscriptions"
CREATE UNIQUE INDEX "webhooksubscription_app_id_event_type_callback_url" ON "webhook_subscriptions" ("app_id", "event_type", "callback_url");
-- create index "webhooksubscription_event_type_is_active" to table: "webhook_subscriptions"
CREATE INDEX "webhooksubscription_event_type_is_active" ON "webhook_subscriptions" ("event_type", "is_active");

-- +goose Down
-- reverse: create index "webhooksubscription_event_type_is_active" to table: "webhook_subscriptions"
DROP INDEX "webhooksubscription_event_type_is_active";
-- reverse: create index "webhooksubscription_app_id_event_type_callback_url" to table: "webhook_subscriptions"
DROP INDEX "webhooksubscription_app_id_event_type_callback_url";
-- reverse: create "webhook_subscriptions" table
DROP TABLE "webhook_subscriptions";
