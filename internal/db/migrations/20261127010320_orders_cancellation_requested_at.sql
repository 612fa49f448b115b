-- +goose Up
-- modify "orders" table
ALTER TABLE "orders" ADD COLUMN "cancellation_requested_at" timestamptz NULL;

-- +goose Down
-- reverse: modify "orders" table
ALTER TABLE "orders" DROP COLUMN "cancellation_requested_at";
