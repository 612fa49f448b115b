-- +goose Up
-- modify "webhook_deliveries" table
ALTER TABLE "webhook_deliveries" ADD COLUMN "test" boolean NOT NULL DEFAULT false;

-- +goose Down
-- reverse: modify "webhook_deliveries" table
ALTER TABLE "webhook_deliveries" DROP COLUMN "test";
