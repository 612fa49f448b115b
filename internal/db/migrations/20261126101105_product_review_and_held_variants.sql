-- +goose Up
-- create index "orderitem_variant_id" to table: "order_items"
CREATE INDEX "orderitem_variant_id" ON "order_items" ("variant_id");
-- modify "products" table
ALTER TABLE "products" ADD COLUMN "review_note" character varying NULL;

-- +goose Down
-- reverse: modify "products" table
ALTER TABLE "products" DROP COLUMN "review_note";
-- reverse: create index "orderitem_variant_id" to table: "order_items"
DROP INDEX "orderitem_variant_id";
