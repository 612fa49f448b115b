-- +goose Up
-- modify "sellers" table
ALTER TABLE "sellers" ADD CONSTRAINT "sellers_clock_offset_ms_check" CHECK (clock_offset_ms >= 0);

-- +goose Down
-- reverse: modify "sellers" table
ALTER TABLE "sellers" DROP CONSTRAINT "sellers_clock_offset_ms_check";
