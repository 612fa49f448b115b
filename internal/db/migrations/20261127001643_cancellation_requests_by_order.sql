-- +goose Up
-- create index "cancellationrequest_seller_id_order_id_created_at" to table: "cancellation_requests"
CREATE INDEX "cancellationrequest_seller_id_order_id_created_at" ON "cancellation_requests" ("seller_id", "order_id", "created_at");

-- +goose Down
-- reverse: create index "cancellationrequest_seller_id_order_id_created_at" to table: "cancellation_requests"
DROP INDEX "cancellationrequest_seller_id_order_id_created_at";
