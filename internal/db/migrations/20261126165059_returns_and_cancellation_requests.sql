-- +goose Up
-- create "cancellation_requests" table
CREATE TABLE "cancellation_requests" ("id" character varying NOT NULL, "order_id" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'PENDING', "reason" character varying NOT NULL, "reject_reason" character varying NOT NULL DEFAULT '', "requested_at" timestamptz NOT NULL, "respond_by" timestamptz NOT NULL, "decided_at" timestamptz NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "seller_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "cancellation_requests_sellers_cancellation_requests" FOREIGN KEY ("seller_id") REFERENCES "sellers" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- create index "cancellation_request_one_pending_per_order" to table: "cancellation_requests"
CREATE UNIQUE INDEX "cancellation_request_one_pending_per_order" ON "cancellation_requests" ("order_id") WHERE ((status)::text = 'PENDING'::text);
-- create index "cancellationrequest_seller_id_created_at_id" to table: "cancellation_requests"
CREATE INDEX "cancellationrequest_seller_id_created_at_id" ON "cancellation_requests" ("seller_id", "created_at", "id");
-- create index "cancellationrequest_seller_id_status_created_at_id" to table: "cancellation_requests"
CREATE INDEX "cancellationrequest_seller_id_status_created_at_id" ON "cancellation_requests" ("seller_id", "status", "created_at", "id");
-- create index "cancellationrequest_status_respond_by" to table: "cancellation_requests"
CREATE INDEX "cancellationrequest_status_respond_by" ON "cancellation_requests" ("status", "respond_by");
-- create "returns" table
CREATE TABLE "returns" ("id" character varying NOT NULL, "order_id" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'REQUESTED', "reason" character varying NOT NULL, "buyer_note" character varying NOT NULL DEFAULT '', "evidence" jsonb NOT NULL, "refund_amount" bigint NOT NULL, "refunded_amount" bigint NOT NULL DEFAULT 0, "currency" character varying NOT NULL DEFAULT 'PHP', "refund_only" boolean NOT NULL DEFAULT false, "return_tracking_number" character varying NOT NULL DEFAULT '', "seller_response_by" timestamptz NULL, "buyer_ship_by" timestamptz NULL, "inspect_by" timestamptz NULL, "dispute_by" timestamptz NULL, "auto_due_at" timestamptz NULL, "auto_from" character varying NOT NULL DEFAULT '', "reject_reason" character varying NOT NULL DEFAULT '', "reject_note" character varying NOT NULL DEFAULT '', "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "seller_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "returns_sellers_returns" FOREIGN KEY ("seller_id") REFERENCES "sellers" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "returns_refund_amount_check" CHECK (refund_amount >= 0), CONSTRAINT "returns_refunded_amount_check" CHECK (refunded_amount >= 0));
-- create index "returnrequest_auto_due_at" to table: "returns"
CREATE INDEX "returnrequest_auto_due_at" ON "returns" ("auto_due_at");
-- create index "returnrequest_seller_id_created_at_id" to table: "returns"
CREATE INDEX "returnrequest_seller_id_created_at_id" ON "returns" ("seller_id", "created_at", "id");
-- create index "returnrequest_seller_id_order_id" to table: "returns"
CREATE INDEX "returnrequest_seller_id_order_id" ON "returns" ("seller_id", "order_id");
-- create index "returnrequest_seller_id_status_created_at_id" to table: "returns"
CREATE INDEX "returnrequest_seller_id_status_created_at_id" ON "returns" ("seller_id", "status", "created_at", "id");
-- create "return_disputes" table
CREATE TABLE "return_disputes" ("id" character varying NOT NULL, "raised_by" character varying NOT NULL, "reason_code" character varying NOT NULL DEFAULT '', "description" character varying NOT NULL DEFAULT '', "evidence" jsonb NOT NULL, "outcome" character varying NOT NULL DEFAULT '', "decided_at" timestamptz NULL, "created_at" timestamptz NOT NULL, "return_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "return_disputes_returns_dispute" FOREIGN KEY ("return_id") REFERENCES "returns" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, CONSTRAINT "return_disputes_outcome_check" CHECK ((outcome)::text = ANY ((ARRAY[''::character varying, 'REFUNDED'::character varying, 'CLOSED'::character varying])::text[])), CONSTRAINT "return_disputes_reason_code_check" CHECK ((reason_code)::text = ANY ((ARRAY[''::character varying, 'did_not_receive_return_parcel'::character varying, 'received_physical_damage'::character varying, 'received_incomplete'::character varying, 'received_wrong_product'::character varying, 'received_used_product'::character varying, 'buyer_claim_incorrect'::character varying])::text[])));
-- create index "return_disputes_return_id_key" to table: "return_disputes"
CREATE UNIQUE INDEX "return_disputes_return_id_key" ON "return_disputes" ("return_id");
-- create "return_items" table
CREATE TABLE "return_items" ("id" character varying NOT NULL, "item_id" character varying NOT NULL, "quantity" bigint NOT NULL, "refund_amount" bigint NOT NULL, "position" bigint NOT NULL, "return_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "return_items_returns_items" FOREIGN KEY ("return_id") REFERENCES "returns" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, CONSTRAINT "return_items_quantity_check" CHECK (quantity > 0), CONSTRAINT "return_items_refund_amount_check" CHECK (refund_amount >= 0));
-- create index "returnitem_return_id_position" to table: "return_items"
CREATE UNIQUE INDEX "returnitem_return_id_position" ON "return_items" ("return_id", "position");

-- +goose Down
-- reverse: create index "returnitem_return_id_position" to table: "return_items"
DROP INDEX "returnitem_return_id_position";
-- reverse: create "return_items" table
DROP TABLE "return_items";
-- reverse: create index "return_disputes_return_id_key" to table: "return_disputes"
DROP INDEX "return_disputes_return_id_key";
-- reverse: create "return_disputes" table
DROP TABLE "return_disputes";
-- reverse: create index "returnrequest_seller_id_status_created_at_id" to table: "returns"
DROP INDEX "returnrequest_seller_id_status_created_at_id";
-- reverse: create index "returnrequest_seller_id_order_id" to table: "returns"
DROP INDEX "returnrequest_seller_id_order_id";
-- reverse: create index "returnrequest_seller_id_created_at_id" to table: "returns"
DROP INDEX "returnrequest_seller_id_created_at_id";
-- reverse: create index "returnrequest_auto_due_at" to table: "returns"
DROP INDEX "returnrequest_auto_due_at";
-- reverse: create "returns" table
DROP TABLE "returns";
-- reverse: create index "cancellationrequest_status_respond_by" to table: "cancellation_requests"
DROP INDEX "cancellationrequest_status_respond_by";
-- reverse: create index "cancellationrequest_seller_id_status_created_at_id" to table: "cancellation_requests"
DROP INDEX "cancellationrequest_seller_id_status_created_at_id";
-- reverse: create index "cancellationrequest_seller_id_created_at_id" to table: "cancellation_requests"
DROP INDEX "cancellationrequest_seller_id_created_at_id";
-- reverse: create index "cancellation_request_one_pending_per_order" to table: "cancellation_requests"
DROP INDEX "cancellation_request_one_pending_per_order";
-- reverse: create "cancellation_requests" table
DROP TABLE "cancellation_requests";
