-- +goose Up
-- create "maintenance_windows" table
CREATE TABLE "maintenance_windows" ("id" character varying NOT NULL, "active" boolean NOT NULL DEFAULT false, "until" timestamptz NULL, "message" character varying NOT NULL DEFAULT '', "set_by" character varying NOT NULL DEFAULT '', "updated_at" timestamptz NOT NULL, PRIMARY KEY ("id"));

-- +goose Down
-- reverse: create "maintenance_windows" table
DROP TABLE "maintenance_windows";
