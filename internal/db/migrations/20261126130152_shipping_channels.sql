-- +goose Up
-- create "shipping_channels" table
CREATE TABLE "shipping_channels" ("id" character varying NOT NULL, "document" text NOT NULL, "active" boolean NOT NULL DEFAULT true, "updated_at" timestamptz NOT NULL, PRIMARY KEY ("id"));

-- +goose Down
-- reverse: create "shipping_channels" table
DROP TABLE "shipping_channels";
