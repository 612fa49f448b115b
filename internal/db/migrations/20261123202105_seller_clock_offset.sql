-- +goose Up
-- modify "sellers" table
ALTER TABLE "sellers" ADD COLUMN "clock_offset_ms" bigint NOT NULL DEFAULT 0;

-- +goose Down
-- reverse: modify "sellers" table
ALTER TABLE "sellers" DROP COLUMN "clock_offset_ms";
