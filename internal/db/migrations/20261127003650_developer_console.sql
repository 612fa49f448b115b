-- +goose Up
-- modify "developer_accounts" table
ALTER TABLE "developer_accounts" ADD COLUMN "developer_type" character varying NULL, ADD COLUMN "profile" jsonb NULL, ADD COLUMN "profile_status" character varying NULL, ADD COLUMN "profile_submitted_at" timestamptz NULL, ADD COLUMN "profile_reviewed_at" timestamptz NULL;
-- create "console_sessions" table
CREATE TABLE "console_sessions" ("id" character varying NOT NULL, "token_hash" character varying NOT NULL, "user_id" character varying NOT NULL, "account_id" character varying NOT NULL, "client_ip" character varying NOT NULL DEFAULT '', "last_seen_at" timestamptz NOT NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- create index "console_sessions_token_hash_key" to table: "console_sessions"
CREATE UNIQUE INDEX "console_sessions_token_hash_key" ON "console_sessions" ("token_hash");
-- create index "consolesession_last_seen_at" to table: "console_sessions"
CREATE INDEX "consolesession_last_seen_at" ON "console_sessions" ("last_seen_at");
-- create index "consolesession_user_id" to table: "console_sessions"
CREATE INDEX "consolesession_user_id" ON "console_sessions" ("user_id");
-- create "developer_audit_entries" table
CREATE TABLE "developer_audit_entries" ("id" character varying NOT NULL, "account_id" character varying NOT NULL, "user_id" character varying NOT NULL DEFAULT '', "action" character varying NOT NULL, "subject_id" character varying NOT NULL DEFAULT '', "client_ip" character varying NOT NULL DEFAULT '', "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- create index "developerauditentry_account_id_created_at" to table: "developer_audit_entries"
CREATE INDEX "developerauditentry_account_id_created_at" ON "developer_audit_entries" ("account_id", "created_at");
-- create "developer_email_tokens" table
CREATE TABLE "developer_email_tokens" ("id" character varying NOT NULL, "kind" character varying NOT NULL, "token_hash" character varying NOT NULL, "user_id" character varying NOT NULL, "expires_at" timestamptz NOT NULL, "used_at" timestamptz NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- create index "developer_email_tokens_token_hash_key" to table: "developer_email_tokens"
CREATE UNIQUE INDEX "developer_email_tokens_token_hash_key" ON "developer_email_tokens" ("token_hash");
-- create index "developeremailtoken_user_id_kind" to table: "developer_email_tokens"
CREATE INDEX "developeremailtoken_user_id_kind" ON "developer_email_tokens" ("user_id", "kind");
-- create "developer_users" table
CREATE TABLE "developer_users" ("id" character varying NOT NULL, "email" character varying NOT NULL, "name" character varying NOT NULL, "password_hash" character varying NOT NULL, "email_verified_at" timestamptz NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- create index "developer_users_email_key" to table: "developer_users"
CREATE UNIQUE INDEX "developer_users_email_key" ON "developer_users" ("email");
-- create "developer_members" table
CREATE TABLE "developer_members" ("id" character varying NOT NULL, "role" character varying NOT NULL, "created_at" timestamptz NOT NULL, "account_id" character varying NOT NULL, "user_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "developer_members_developer_accounts_members" FOREIGN KEY ("account_id") REFERENCES "developer_accounts" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "developer_members_developer_users_memberships" FOREIGN KEY ("user_id") REFERENCES "developer_users" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- create index "developermember_account_id_user_id" to table: "developer_members"
CREATE UNIQUE INDEX "developermember_account_id_user_id" ON "developer_members" ("account_id", "user_id");
-- create index "developermember_user_id" to table: "developer_members"
CREATE INDEX "developermember_user_id" ON "developer_members" ("user_id");

-- +goose Down
-- reverse: create index "developermember_user_id" to table: "developer_members"
DROP INDEX "developermember_user_id";
-- reverse: create index "developermember_account_id_user_id" to table: "developer_members"
DROP INDEX "developermember_account_id_user_id";
-- reverse: create "developer_members" table
DROP TABLE "developer_members";
-- reverse: create index "developer_users_email_key" to table: "developer_users"
DROP INDEX "developer_users_email_key";
-- reverse: create "developer_users" table
DROP TABLE "developer_users";
-- reverse: create index "developeremailtoken_user_id_kind" to table: "developer_email_tokens"
DROP INDEX "developeremailtoken_user_id_kind";
-- reverse: create index "developer_email_tokens_token_hash_key" to table: "developer_email_tokens"
DROP INDEX "developer_email_tokens_token_hash_key";
-- reverse: create "developer_email_tokens" table
DROP TABLE "developer_email_tokens";
-- reverse: create index "developerauditentry_account_id_created_at" to table: "developer_audit_entries"
DROP INDEX "developerauditentry_account_id_created_at";
-- reverse: create "developer_audit_entries" table
DROP TABLE "developer_audit_entries";
-- reverse: create index "consolesession_user_id" to table: "console_sessions"
DROP INDEX "consolesession_user_id";
-- reverse: create index "consolesession_last_seen_at" to table: "console_sessions"
DROP INDEX "consolesession_last_seen_at";
-- reverse: create index "console_sessions_token_hash_key" to table: "console_sessions"
DROP INDEX "console_sessions_token_hash_key";
-- reverse: create "console_sessions" table
DROP TABLE "console_sessions";
-- reverse: modify "developer_accounts" table
ALTER TABLE "developer_accounts" DROP COLUMN "profile_reviewed_at", DROP COLUMN "profile_submitted_at", DROP COLUMN "profile_status", DROP COLUMN "profile", DROP COLUMN "developer_type";
