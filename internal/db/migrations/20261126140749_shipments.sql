-- +goose Up
-- create "shipments" table
CREATE TABLE "shipments" ("id" character varying NOT NULL, "order_id" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'PENDING', "method" character varying NOT NULL, "channel_id" character varying NOT NULL, "pickup_date" character varying NOT NULL DEFAULT '', "window_start" character varying NOT NULL DEFAULT '', "window_end" character varying NOT NULL DEFAULT '', "address_id" character varying NOT NULL, "carrier" character varying NOT NULL, "reference" character varying NOT NULL, "tracking_number" character varying NOT NULL DEFAULT '', "tracking_company" character varying NOT NULL DEFAULT '', "route_code" character varying NOT NULL DEFAULT '', "booked_at" timestamptz NULL, "cancelled_at" timestamptz NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "seller_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "shipments_sellers_shipments" FOREIGN KEY ("seller_id") REFERENCES "sellers" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- create index "shipment_carrier_tracking_number" to table: "shipments"
CREATE INDEX "shipment_carrier_tracking_number" ON "shipments" ("carrier", "tracking_number");
-- create index "shipment_one_active_per_order" to table: "shipments"
CREATE UNIQUE INDEX "shipment_one_active_per_order" ON "shipments" ("order_id") WHERE ((status)::text <> 'CANCELLED'::text);
-- create index "shipment_reference" to table: "shipments"
CREATE UNIQUE INDEX "shipment_reference" ON "shipments" ("reference");
-- create index "shipment_seller_id_created_at_id" to table: "shipments"
CREATE INDEX "shipment_seller_id_created_at_id" ON "shipments" ("seller_id", "created_at", "id");
-- create "shipment_tracking_events" table
CREATE TABLE "shipment_tracking_events" ("id" character varying NOT NULL, "sequence" bigint NOT NULL, "status" character varying NOT NULL, "carrier_status" character varying NOT NULL DEFAULT '', "description" character varying NOT NULL DEFAULT '', "location" character varying NOT NULL DEFAULT '', "occurred_at" timestamptz NOT NULL, "created_at" timestamptz NOT NULL, "shipment_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "shipment_tracking_events_shipments_tracking_events" FOREIGN KEY ("shipment_id") REFERENCES "shipments" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- create index "shipmenttrackingevent_shipment_id_sequence" to table: "shipment_tracking_events"
CREATE UNIQUE INDEX "shipmenttrackingevent_shipment_id_sequence" ON "shipment_tracking_events" ("shipment_id", "sequence");

-- +goose Down
-- reverse: create index "shipmenttrackingevent_shipment_id_sequence" to table: "shipment_tracking_events"
DROP INDEX "shipmenttrackingevent_shipment_id_sequence";
-- reverse: create "shipment_tracking_events" table
DROP TABLE "shipment_tracking_events";
-- reverse: create index "shipment_seller_id_created_at_id" to table: "shipments"
DROP INDEX "shipment_seller_id_created_at_id";
-- reverse: create index "shipment_reference" to table: "shipments"
DROP INDEX "shipment_reference";
-- reverse: create index "shipment_one_active_per_order" to table: "shipments"
DROP INDEX "shipment_one_active_per_order";
-- reverse: create index "shipment_carrier_tracking_number" to table: "shipments"
DROP INDEX "shipment_carrier_tracking_number";
-- reverse: create "shipments" table
DROP TABLE "shipments";
