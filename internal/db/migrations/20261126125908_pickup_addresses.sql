-- +goose Up
-- create "pickup_addresses" table
CREATE TABLE "pickup_addresses" ("id" character varying NOT NULL, "is_default" boolean NOT NULL DEFAULT false, "name" character varying NOT NULL, "line1" character varying NOT NULL, "line2" character varying NOT NULL DEFAULT '', "city" character varying NOT NULL, "province" character varying NOT NULL, "region" character varying NOT NULL, "postal_code" character varying NOT NULL, "phone" character varying NOT NULL, "psgc_code" character varying NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "seller_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "pickup_addresses_sellers_pickup_addresses" FOREIGN KEY ("seller_id") REFERENCES "sellers" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- create index "pickupaddress_one_default_per_seller" to table: "pickup_addresses"
CREATE UNIQUE INDEX "pickupaddress_one_default_per_seller" ON "pickup_addresses" ("seller_id") WHERE is_default;
-- create index "pickupaddress_seller_id_created_at_id" to table: "pickup_addresses"
CREATE INDEX "pickupaddress_seller_id_created_at_id" ON "pickup_addresses" ("seller_id", "created_at", "id");

-- +goose Down
-- reverse: create index "pickupaddress_seller_id_created_at_id" to table: "pickup_addresses"
DROP INDEX "pickupaddress_seller_id_created_at_id";
-- reverse: create index "pickupaddress_one_default_per_seller" to table: "pickup_addresses"
DROP INDEX "pickupaddress_one_default_per_seller";
-- reverse: create "pickup_addresses" table
DROP TABLE "pickup_addresses";
