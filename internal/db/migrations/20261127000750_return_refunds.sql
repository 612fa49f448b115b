-- +goose Up
-- create "return_refunds" table
CREATE TABLE "return_refunds" ("id" character varying NOT NULL, "seller_id" character varying NOT NULL, "return_id" character varying NOT NULL, "order_id" character varying NOT NULL, "amount" bigint NOT NULL, "requested_amount" bigint NOT NULL, "currency" character varying NOT NULL DEFAULT 'PHP', "source" character varying NOT NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "return_refunds_amount_check" CHECK (amount > 0), CONSTRAINT "return_refunds_requested_amount_check" CHECK (requested_amount >= 0));
-- create index "returnrefund_return_id" to table: "return_refunds"
CREATE UNIQUE INDEX "returnrefund_return_id" ON "return_refunds" ("return_id");
-- create index "returnrefund_seller_id_created_at_id" to table: "return_refunds"
CREATE INDEX "returnrefund_seller_id_created_at_id" ON "return_refunds" ("seller_id", "created_at", "id");

-- +goose Down
-- reverse: create index "returnrefund_seller_id_created_at_id" to table: "return_refunds"
DROP INDEX "returnrefund_seller_id_created_at_id";
-- reverse: create index "returnrefund_return_id" to table: "return_refunds"
DROP INDEX "returnrefund_return_id";
-- reverse: create "return_refunds" table
DROP TABLE "return_refunds";
