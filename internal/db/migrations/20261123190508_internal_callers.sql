-- +goose Up
-- create "internal_callers" table
CREATE TABLE "internal_callers" ("id" character varying NOT NULL, "name" character varying NOT NULL, "token_hash" character varying NOT NULL, "services" jsonb NOT NULL, "created_at" timestamptz NOT NULL, "revoked_at" timestamptz NULL, PRIMARY KEY ("id"));
-- create index "internal_callers_token_hash_key" to table: "internal_callers"
CREATE UNIQUE INDEX "internal_callers_token_hash_key" ON "internal_callers" ("token_hash");

-- +goose Down
-- reverse: create index "internal_callers_token_hash_key" to table: "internal_callers"
DROP INDEX "internal_callers_token_hash_key";
-- reverse: create "internal_callers" table
DROP TABLE "internal_callers";
