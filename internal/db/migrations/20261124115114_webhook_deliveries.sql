-- +goose Up
-- modify "webhook_subscriptions" table
ALTER TABLE "webhook_subscriptions" ADD COLUMN "sandbox" boolean NOT NULL DEFAULT false;
-- create "webhook_deliveries" table
CREATE TABLE "webhook_deliveries" ("id" character varying NOT NULL, "subscription_id" character varying NOT NULL, "app_id" character varying NOT NULL, "event_id" character varying NOT NULL, "event_type" character varying NOT NULL, "attempt" bigint NOT NULL, "status" character varying NOT NULL, "response_status" bigint NULL, "duration_ms" bigint NOT NULL, "error" character varying NOT NULL DEFAULT '', "response_body" bytea NULL, "next_attempt_at" timestamptz NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "webhook_deliveries_attempt_check" CHECK (attempt > 0), CONSTRAINT "webhook_deliveries_duration_ms_check" CHECK (duration_ms >= 0), CONSTRAINT "webhook_deliveries_response_status_check" CHECK (response_status >= 0));
-- create index "webhookdelivery_created_at" to table: "webhook_deliveries"
CREATE INDEX "webhookdelivery_created_at" ON "webhook_deliveries" ("created_at");
-- create index "webhookdelivery_subscription_id_created_at" to table: "webhook_deliveries"
CREATE INDEX "webhookdelivery_subscription_id_created_at" ON "webhook_deliveries" ("subscription_id", "created_at");

-- +goose Down
-- reverse: create index "webhookdelivery_subscription_id_created_at" to table: "webhook_deliveries"
DROP INDEX "webhookdelivery_subscription_id_created_at";
-- reverse: create index "webhookdelivery_created_at" to table: "webhook_deliveries"
DROP INDEX "webhookdelivery_created_at";
-- reverse: create "webhook_deliveries" table
DROP TABLE "webhook_deliveries";
-- reverse: modify "webhook_subscriptions" table
ALTER TABLE "webhook_subscriptions" DROP COLUMN "sandbox";
