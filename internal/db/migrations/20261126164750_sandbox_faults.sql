-- +goose Up
-- create "sandbox_faults" table
CREATE TABLE "sandbox_faults" ("id" character varying NOT NULL, "seller_id" character varying NOT NULL, "target" character varying NOT NULL, "error" character varying NOT NULL, "remaining" bigint NOT NULL, "updated_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- create index "sandboxfault_seller_id_target" to table: "sandbox_faults"
CREATE UNIQUE INDEX "sandboxfault_seller_id_target" ON "sandbox_faults" ("seller_id", "target");

-- +goose Down
-- reverse: create index "sandboxfault_seller_id_target" to table: "sandbox_faults"
DROP INDEX "sandboxfault_seller_id_target";
-- reverse: create "sandbox_faults" table
DROP TABLE "sandbox_faults";
