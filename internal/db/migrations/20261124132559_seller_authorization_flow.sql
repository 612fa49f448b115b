-- +goose Up
-- modify "apps" table
ALTER TABLE "apps" ADD COLUMN "secret_created_at" timestamptz NULL;
-- modify "events" table
ALTER TABLE "events" ADD COLUMN "app_id" character varying NULL;
-- modify "seller_authorizations" table
ALTER TABLE "seller_authorizations" ADD COLUMN "grant_expires_at" timestamptz NULL, ADD COLUMN "expiring_notified_at" timestamptz NULL;
-- create "authorization_codes" table
CREATE TABLE "authorization_codes" ("id" character varying NOT NULL, "code_hash" character varying NOT NULL, "app_id" character varying NOT NULL, "seller_id" character varying NOT NULL, "redirect_uri" character varying NOT NULL, "scopes" jsonb NOT NULL, "code_challenge" character varying NULL, "expires_at" timestamptz NOT NULL, "used_at" timestamptz NULL, "authorization_id" character varying NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- create index "authorization_codes_code_hash_key" to table: "authorization_codes"
CREATE UNIQUE INDEX "authorization_codes_code_hash_key" ON "authorization_codes" ("code_hash");
-- create index "authorizationcode_expires_at" to table: "authorization_codes"
CREATE INDEX "authorizationcode_expires_at" ON "authorization_codes" ("expires_at");
-- create "authorization_sessions" table
CREATE TABLE "authorization_sessions" ("id" character varying NOT NULL, "token_hash" character varying NOT NULL, "app_id" character varying NOT NULL, "redirect_uri" character varying NOT NULL, "state" character varying NOT NULL DEFAULT '', "scopes" jsonb NOT NULL, "code_challenge" character varying NULL, "expires_at" timestamptz NOT NULL, "seller_id" character varying NULL, "cookie_hash" character varying NULL, "otp_hash" character varying NULL, "otp_expires_at" timestamptz NULL, "otp_verified_at" timestamptz NULL, "consumed_at" timestamptz NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- create index "authorization_sessions_cookie_hash_key" to table: "authorization_sessions"
CREATE UNIQUE INDEX "authorization_sessions_cookie_hash_key" ON "authorization_sessions" ("cookie_hash");
-- create index "authorization_sessions_token_hash_key" to table: "authorization_sessions"
CREATE UNIQUE INDEX "authorization_sessions_token_hash_key" ON "authorization_sessions" ("token_hash");
-- create index "authorizationsession_expires_at" to table: "authorization_sessions"
CREATE INDEX "authorizationsession_expires_at" ON "authorization_sessions" ("expires_at");
-- create "retired_refresh_tokens" table
CREATE TABLE "retired_refresh_tokens" ("id" character varying NOT NULL, "token_hash" character varying NOT NULL, "authorization_id" character varying NOT NULL, "expires_at" timestamptz NOT NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- create index "retired_refresh_tokens_token_hash_key" to table: "retired_refresh_tokens"
CREATE UNIQUE INDEX "retired_refresh_tokens_token_hash_key" ON "retired_refresh_tokens" ("token_hash");
-- create index "retiredrefreshtoken_authorization_id" to table: "retired_refresh_tokens"
CREATE INDEX "retiredrefreshtoken_authorization_id" ON "retired_refresh_tokens" ("authorization_id");
-- create index "retiredrefreshtoken_expires_at" to table: "retired_refresh_tokens"
CREATE INDEX "retiredrefreshtoken_expires_at" ON "retired_refresh_tokens" ("expires_at");
-- create "seller_logins" table
CREATE TABLE "seller_logins" ("id" character varying NOT NULL, "seller_id" character varying NOT NULL, "username" character varying NOT NULL, "password_hash" character varying NOT NULL, "otp_destination" character varying NOT NULL, "fixed_otp_hash" character varying NULL, "otp_failures" bigint NOT NULL DEFAULT 0, "locked_until" timestamptz NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- create index "seller_logins_seller_id_key" to table: "seller_logins"
CREATE UNIQUE INDEX "seller_logins_seller_id_key" ON "seller_logins" ("seller_id");
-- create index "seller_logins_username_key" to table: "seller_logins"
CREATE UNIQUE INDEX "seller_logins_username_key" ON "seller_logins" ("username");

-- +goose Down
-- reverse: create index "seller_logins_username_key" to table: "seller_logins"
DROP INDEX "seller_logins_username_key";
-- reverse: create index "seller_logins_seller_id_key" to table: "seller_logins"
DROP INDEX "seller_logins_seller_id_key";
-- reverse: create "seller_logins" table
DROP TABLE "seller_logins";
-- reverse: create index "retiredrefreshtoken_expires_at" to table: "retired_refresh_tokens"
DROP INDEX "retiredrefreshtoken_expires_at";
-- reverse: create index "retiredrefreshtoken_authorization_id" to table: "retired_refresh_tokens"
DROP INDEX "retiredrefreshtoken_authorization_id";
-- reverse: create index "retired_refresh_tokens_token_hash_key" to table: "retired_refresh_tokens"
DROP INDEX "retired_refresh_tokens_token_hash_key";
-- reverse: create "retired_refresh_tokens" table
DROP TABLE "retired_refresh_tokens";
-- reverse: create index "authorizationsession_expires_at" to table: "authorization_sessions"
DROP INDEX "authorizationsession_expires_at";
-- reverse: create index "authorization_sessions_token_hash_key" to table: "authorization_sessions"
DROP INDEX "authorization_sessions_token_hash_key";
-- reverse: create index "authorization_sessions_cookie_hash_key" to table: "authorization_sessions"
DROP INDEX "authorization_sessions_cookie_hash_key";
-- reverse: create "authorization_sessions" table
DROP TABLE "authorization_sessions";
-- reverse: create index "authorizationcode_expires_at" to table: "authorization_codes"
DROP INDEX "authorizationcode_expires_at";
-- reverse: create index "authorization_codes_code_hash_key" to table: "authorization_codes"
DROP INDEX "authorization_codes_code_hash_key";
-- reverse: create "authorization_codes" table
DROP TABLE "authorization_codes";
-- reverse: modify "seller_authorizations" table
ALTER TABLE "seller_authorizations" DROP COLUMN "expiring_notified_at", DROP COLUMN "grant_expires_at";
-- reverse: modify "events" table
ALTER TABLE "events" DROP COLUMN "app_id";
-- reverse: modify "apps" table
ALTER TABLE "apps" DROP COLUMN "secret_created_at";
