-- +goose Up
-- create "developer_invitations" table
CREATE TABLE "developer_invitations" ("id" character varying NOT NULL, "account_id" character varying NOT NULL, "email" character varying NOT NULL, "role" character varying NOT NULL, "token_hash" character varying NOT NULL, "invited_by" character varying NOT NULL, "expires_at" timestamptz NOT NULL, "used_at" timestamptz NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- create index "developer_invitations_token_hash_key" to table: "developer_invitations"
CREATE UNIQUE INDEX "developer_invitations_token_hash_key" ON "developer_invitations" ("token_hash");
-- create index "developerinvitation_account_id_email" to table: "developer_invitations"
CREATE INDEX "developerinvitation_account_id_email" ON "developer_invitations" ("account_id", "email");
-- create index "developerinvitation_expires_at" to table: "developer_invitations"
CREATE INDEX "developerinvitation_expires_at" ON "developer_invitations" ("expires_at");
-- create "developer_test_shops" table
CREATE TABLE "developer_test_shops" ("id" character varying NOT NULL, "account_id" character varying NOT NULL, "shop_name" character varying NOT NULL, "seller_id" character varying NULL, "username" character varying NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- create index "developer_test_shops_seller_id_key" to table: "developer_test_shops"
CREATE UNIQUE INDEX "developer_test_shops_seller_id_key" ON "developer_test_shops" ("seller_id");
-- create index "developertestshop_account_id" to table: "developer_test_shops"
CREATE INDEX "developertestshop_account_id" ON "developer_test_shops" ("account_id");

-- +goose Down
-- reverse: create index "developertestshop_account_id" to table: "developer_test_shops"
DROP INDEX "developertestshop_account_id";
-- reverse: create index "developer_test_shops_seller_id_key" to table: "developer_test_shops"
DROP INDEX "developer_test_shops_seller_id_key";
-- reverse: create "developer_test_shops" table
DROP TABLE "developer_test_shops";
-- reverse: create index "developerinvitation_expires_at" to table: "developer_invitations"
DROP INDEX "developerinvitation_expires_at";
-- reverse: create index "developerinvitation_account_id_email" to table: "developer_invitations"
DROP INDEX "developerinvitation_account_id_email";
-- reverse: create index "developer_invitations_token_hash_key" to table: "developer_invitations"
DROP INDEX "developer_invitations_token_hash_key";
-- reverse: create "developer_invitations" table
DROP TABLE "developer_invitations";
