-- +goose Up
-- modify "idempotency_keys" table
ALTER TABLE "idempotency_keys" ADD COLUMN "request_id" character varying NOT NULL DEFAULT '';

-- +goose Down
-- reverse: modify "idempotency_keys" table
ALTER TABLE "idempotency_keys" DROP COLUMN "request_id";
