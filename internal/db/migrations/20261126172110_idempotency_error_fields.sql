-- +goose Up
-- modify "idempotency_keys" table
ALTER TABLE "idempotency_keys" ADD COLUMN "error_reason" character varying NOT NULL DEFAULT '', ADD COLUMN "error_retryable" boolean NULL;

-- +goose Down
-- reverse: modify "idempotency_keys" table
ALTER TABLE "idempotency_keys" DROP COLUMN "error_retryable", DROP COLUMN "error_reason";
