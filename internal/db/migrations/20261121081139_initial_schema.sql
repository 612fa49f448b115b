-- +goose Up
-- create "developer_accounts" table
CREATE TABLE "developer_accounts" ("id" character varying NOT NULL, "name" character varying NOT NULL, "email" character varying NOT NULL, "rate_limit_per_minute" bigint NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "developer_accounts_rate_limit_per_minute_check" CHECK (rate_limit_per_minute > 0));
-- create index "developer_accounts_email_key" to table: "developer_accounts"
CREATE UNIQUE INDEX "developer_accounts_email_key" ON "developer_accounts" ("email");
-- create "apps" table
CREATE TABLE "apps" ("id" character varying NOT NULL, "client_id" character varying NOT NULL, "name" character varying NOT NULL, "environment" character varying NOT NULL, "scopes" jsonb NOT NULL, "active" boolean NOT NULL DEFAULT true, "rate_limit_per_minute" bigint NULL, "secret_ciphertext" bytea NOT NULL, "previous_secret_ciphertext" bytea NULL, "previous_secret_expires_at" timestamptz NULL, "redirect_uris" jsonb NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "account_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "apps_developer_accounts_apps" FOREIGN KEY ("account_id") REFERENCES "developer_accounts" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "apps_rate_limit_per_minute_check" CHECK (rate_limit_per_minute > 0));
-- create index "app_account_id" to table: "apps"
CREATE INDEX "app_account_id" ON "apps" ("account_id");
-- create index "apps_client_id_key" to table: "apps"
CREATE UNIQUE INDEX "apps_client_id_key" ON "apps" ("client_id");
-- create "categories" table
CREATE TABLE "categories" ("id" character varying NOT NULL, "name" character varying NOT NULL, "handle" character varying NULL, "description" character varying NULL, "active" boolean NOT NULL DEFAULT true, "position" bigint NOT NULL DEFAULT 0, "created_at" timestamptz NOT NULL, "parent_id" character varying NULL, PRIMARY KEY ("id"), CONSTRAINT "categories_categories_children" FOREIGN KEY ("parent_id") REFERENCES "categories" ("id") ON UPDATE NO ACTION ON DELETE SET NULL);
-- create index "category_parent_id" to table: "categories"
CREATE INDEX "category_parent_id" ON "categories" ("parent_id");
-- create index "category_position_id" to table: "categories"
CREATE INDEX "category_position_id" ON "categories" ("position", "id");
-- create "category_attributes" table
CREATE TABLE "category_attributes" ("id" character varying NOT NULL, "name" character varying NOT NULL, "input_type" character varying NOT NULL, "mandatory" boolean NOT NULL DEFAULT false, "allowed_values" jsonb NOT NULL, "unit" character varying NULL, "position" bigint NOT NULL DEFAULT 0, "category_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "category_attributes_categories_attributes" FOREIGN KEY ("category_id") REFERENCES "categories" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- create index "categoryattribute_category_id_position" to table: "category_attributes"
CREATE INDEX "categoryattribute_category_id_position" ON "category_attributes" ("category_id", "position");
-- create "sellers" table
CREATE TABLE "sellers" ("id" character varying NOT NULL, "name" character varying NOT NULL, "shop_name" character varying NOT NULL, "test_shop" boolean NOT NULL DEFAULT false, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- create "orders" table
CREATE TABLE "orders" ("id" character varying NOT NULL, "customer_id" character varying NOT NULL, "buyer_email" character varying NOT NULL DEFAULT '', "status" character varying NOT NULL, "currency" character varying NOT NULL DEFAULT 'PHP', "subtotal" bigint NOT NULL, "total" bigint NOT NULL, "tax" bigint NOT NULL, "shipping" bigint NOT NULL, "discount" bigint NOT NULL, "payment_status" character varying NOT NULL, "fulfillment_status" character varying NOT NULL, "shipping_address" jsonb NOT NULL, "billing_address" jsonb NOT NULL, "ship_by_date" timestamptz NULL, "shipped_at" timestamptz NULL, "shipping_channel" character varying NULL, "booking_status" character varying NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "seller_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "orders_sellers_orders" FOREIGN KEY ("seller_id") REFERENCES "sellers" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "orders_discount_check" CHECK (discount >= 0), CONSTRAINT "orders_shipping_check" CHECK (shipping >= 0), CONSTRAINT "orders_subtotal_check" CHECK (subtotal >= 0), CONSTRAINT "orders_tax_check" CHECK (tax >= 0), CONSTRAINT "orders_total_check" CHECK (total >= 0));
-- create index "order_seller_id_created_at_id" to table: "orders"
CREATE INDEX "order_seller_id_created_at_id" ON "orders" ("seller_id", "created_at", "id");
-- create index "order_seller_id_status_created_at_id" to table: "orders"
CREATE INDEX "order_seller_id_status_created_at_id" ON "orders" ("seller_id", "status", "created_at", "id");
-- create "fulfillments" table
CREATE TABLE "fulfillments" ("id" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'pending', "tracking_number" character varying NOT NULL DEFAULT '', "tracking_company" character varying NOT NULL DEFAULT '', "items" jsonb NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "order_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "fulfillments_orders_fulfillments" FOREIGN KEY ("order_id") REFERENCES "orders" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- create index "fulfillment_order_id" to table: "fulfillments"
CREATE INDEX "fulfillment_order_id" ON "fulfillments" ("order_id");
-- create "order_items" table
CREATE TABLE "order_items" ("id" character varying NOT NULL, "position" bigint NOT NULL, "product_id" character varying NOT NULL, "variant_id" character varying NULL, "title" character varying NOT NULL, "sku" character varying NOT NULL DEFAULT '', "quantity" bigint NOT NULL, "unit_price" bigint NOT NULL, "total_price" bigint NOT NULL, "thumbnail" character varying NULL, "order_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "order_items_orders_items" FOREIGN KEY ("order_id") REFERENCES "orders" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, CONSTRAINT "order_items_position_check" CHECK ("position" >= 0), CONSTRAINT "order_items_quantity_check" CHECK (quantity > 0), CONSTRAINT "order_items_total_price_check" CHECK (total_price >= 0), CONSTRAINT "order_items_unit_price_check" CHECK (unit_price >= 0));
-- create index "orderitem_order_id_position" to table: "order_items"
CREATE INDEX "orderitem_order_id_position" ON "order_items" ("order_id", "position");
-- create "products" table
CREATE TABLE "products" ("id" character varying NOT NULL, "short_id" character varying NOT NULL, "name" character varying NOT NULL, "description" character varying NOT NULL DEFAULT '', "status" character varying NOT NULL DEFAULT 'proposed', "category_id" character varying NOT NULL, "category_name" character varying NOT NULL, "images" jsonb NOT NULL, "weight" double precision NOT NULL DEFAULT 0, "length" double precision NOT NULL DEFAULT 0, "width" double precision NOT NULL DEFAULT 0, "height" double precision NOT NULL DEFAULT 0, "use_variant_dimensions" boolean NOT NULL DEFAULT false, "options_order" jsonb NULL, "attribute_values" jsonb NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "seller_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "products_sellers_products" FOREIGN KEY ("seller_id") REFERENCES "sellers" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "products_height_check" CHECK (height >= (0)::double precision), CONSTRAINT "products_length_check" CHECK (length >= (0)::double precision), CONSTRAINT "products_weight_check" CHECK (weight >= (0)::double precision), CONSTRAINT "products_width_check" CHECK (width >= (0)::double precision));
-- create index "product_seller_id_created_at_id" to table: "products"
CREATE INDEX "product_seller_id_created_at_id" ON "products" ("seller_id", "created_at", "id");
-- create index "product_seller_id_status_created_at_id" to table: "products"
CREATE INDEX "product_seller_id_status_created_at_id" ON "products" ("seller_id", "status", "created_at", "id");
-- create index "products_short_id_key" to table: "products"
CREATE UNIQUE INDEX "products_short_id_key" ON "products" ("short_id");
-- create "product_variants" table
CREATE TABLE "product_variants" ("id" character varying NOT NULL, "position" bigint NOT NULL, "title" character varying NULL, "sku" character varying NULL, "price" bigint NULL, "stock_quantity" bigint NULL, "options" jsonb NOT NULL, "weight" double precision NOT NULL DEFAULT 0, "length" double precision NOT NULL DEFAULT 0, "width" double precision NOT NULL DEFAULT 0, "height" double precision NOT NULL DEFAULT 0, "images" jsonb NOT NULL, "product_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "product_variants_products_variants" FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, CONSTRAINT "product_variants_height_check" CHECK (height >= (0)::double precision), CONSTRAINT "product_variants_length_check" CHECK (length >= (0)::double precision), CONSTRAINT "product_variants_position_check" CHECK ("position" >= 0), CONSTRAINT "product_variants_price_check" CHECK (price >= 0), CONSTRAINT "product_variants_stock_quantity_check" CHECK (stock_quantity >= 0), CONSTRAINT "product_variants_weight_check" CHECK (weight >= (0)::double precision), CONSTRAINT "product_variants_width_check" CHECK (width >= (0)::double precision));
-- create index "productvariant_product_id_position" to table: "product_variants"
CREATE INDEX "productvariant_product_id_position" ON "product_variants" ("product_id", "position");
-- create "seller_authorizations" table
CREATE TABLE "seller_authorizations" ("id" character varying NOT NULL, "scopes" jsonb NOT NULL, "access_token_hash" character varying NOT NULL, "access_expires_at" timestamptz NOT NULL, "refresh_token_hash" character varying NOT NULL, "refresh_expires_at" timestamptz NOT NULL, "revoked_at" timestamptz NULL, "created_at" timestamptz NOT NULL, "app_id" character varying NOT NULL, "seller_id" character varying NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "seller_authorizations_apps_seller_authorizations" FOREIGN KEY ("app_id") REFERENCES "apps" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "seller_authorizations_sellers_authorizations" FOREIGN KEY ("seller_id") REFERENCES "sellers" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- create index "seller_authorizations_access_token_hash_key" to table: "seller_authorizations"
CREATE UNIQUE INDEX "seller_authorizations_access_token_hash_key" ON "seller_authorizations" ("access_token_hash");
-- create index "seller_authorizations_refresh_token_hash_key" to table: "seller_authorizations"
CREATE UNIQUE INDEX "seller_authorizations_refresh_token_hash_key" ON "seller_authorizations" ("refresh_token_hash");
-- create index "sellerauthorization_app_id_seller_id" to table: "seller_authorizations"
CREATE INDEX "sellerauthorization_app_id_seller_id" ON "seller_authorizations" ("app_id", "seller_id");
-- create index "sellerauthorization_seller_id" to table: "seller_authorizations"
CREATE INDEX "sellerauthorization_seller_id" ON "seller_authorizations" ("seller_id");

-- +goose Down
-- reverse: create index "sellerauthorization_seller_id" to table: "seller_authorizations"
DROP INDEX "sellerauthorization_seller_id";
-- reverse: create index "sellerauthorization_app_id_seller_id" to table: "seller_authorizations"
DROP INDEX "sellerauthorization_app_id_seller_id";
-- reverse: create index "seller_authorizations_refresh_token_hash_key" to table: "seller_authorizations"
DROP INDEX "seller_authorizations_refresh_token_hash_key";
-- reverse: create index "seller_authorizations_access_token_hash_key" to table: "seller_authorizations"
DROP INDEX "seller_authorizations_access_token_hash_key";
-- reverse: create "seller_authorizations" table
DROP TABLE "seller_authorizations";
-- reverse: create index "productvariant_product_id_position" to table: "product_variants"
DROP INDEX "productvariant_product_id_position";
-- reverse: create "product_variants" table
DROP TABLE "product_variants";
-- reverse: create index "products_short_id_key" to table: "products"
DROP INDEX "products_short_id_key";
-- reverse: create index "product_seller_id_status_created_at_id" to table: "products"
DROP INDEX "product_seller_id_status_created_at_id";
-- reverse: create index "product_seller_id_created_at_id" to table: "products"
DROP INDEX "product_seller_id_created_at_id";
-- reverse: create "products" table
DROP TABLE "products";
-- reverse: create index "orderitem_order_id_position" to table: "order_items"
DROP INDEX "orderitem_order_id_position";
-- reverse: create "order_items" table
DROP TABLE "order_items";
-- reverse: create index "fulfillment_order_id" to table: "fulfillments"
DROP INDEX "fulfillment_order_id";
-- reverse: create "fulfillments" table
DROP TABLE "fulfillments";
-- reverse: create index "order_seller_id_status_created_at_id" to table: "orders"
DROP INDEX "order_seller_id_status_created_at_id";
-- reverse: create index "order_seller_id_created_at_id" to table: "orders"
DROP INDEX "order_seller_id_created_at_id";
-- reverse: create "orders" table
DROP TABLE "orders";
-- reverse: create "sellers" table
DROP TABLE "sellers";
-- reverse: create index "categoryattribute_category_id_position" to table: "category_attributes"
DROP INDEX "categoryattribute_category_id_position";
-- reverse: create "category_attributes" table
DROP TABLE "category_attributes";
-- reverse: create index "category_position_id" to table: "categories"
DROP INDEX "category_position_id";
-- reverse: create index "category_parent_id" to table: "categories"
DROP INDEX "category_parent_id";
-- reverse: create "categories" table
DROP TABLE "categories";
-- reverse: create index "apps_client_id_key" to table: "apps"
DROP INDEX "apps_client_id_key";
-- reverse: create index "app_account_id" to table: "apps"
DROP INDEX "app_account_id";
-- reverse: create "apps" table
DROP TABLE "apps";
-- reverse: create index "developer_accounts_email_key" to table: "developer_accounts"
DROP INDEX "developer_accounts_email_key";
-- reverse: create "developer_accounts" table
DROP TABLE "developer_accounts";
