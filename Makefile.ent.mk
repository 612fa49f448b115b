# ent schema and PostgreSQL migrations. Included by the top-level Makefile;
# paths are relative to the repository root.
#
#   make ent-generate                    regenerate ent/ after editing ent/schema
#   make migrations-diff NAME=add_x      write the next migration from the schema
#   make migrations-check                CI: fail if schema and migrations drifted,
#                                        then river-migrations-check
#   make river-migrations-check          CI: River's migrations apply on PostgreSQL and
#                                        reach the version the binary carries
#   make ent-check                       CI: fail if ent/ is not what the schema generates
#
# The migration targets replay internal/db/migrations on a scratch database they
# create and drop on POSTGRES_ADMIN_DSN (the role needs CREATEDB).

POSTGRES_ADMIN_DSN ?= postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable
MIGRATIONS_DIR ?= internal/db/migrations

.PHONY: ent-generate ent-check migrations-diff migrations-check river-migrations-check migrations-rehash

ent-generate:
	go generate ./ent

# Regenerates in place and compares with a snapshot taken first; on failure the
# tree holds the fresh code, ready to commit.
ent-check:
	@snap=$$(mktemp -d) && cp -R ent/. "$$snap"/ && \
	go generate ./ent && \
	if diff -r -q "$$snap" ent; then rm -rf "$$snap"; echo "ent/ is up to date"; \
	else rm -rf "$$snap"; echo "ent/ was stale: run make ent-generate and commit the result" >&2; exit 1; fi

migrations-diff:
	@if [ -z "$(NAME)" ]; then echo "usage: make migrations-diff NAME=<snake_case_name>" >&2; exit 2; fi
	go run ./internal/db/cmd/migrationsdiff -dir '$(MIGRATIONS_DIR)' -admin-dsn '$(POSTGRES_ADMIN_DSN)' -name '$(NAME)'

migrations-check:
	go run ./internal/db/cmd/migrationsdiff -dir '$(MIGRATIONS_DIR)' -admin-dsn '$(POSTGRES_ADMIN_DSN)' -check
	$(MAKE) --no-print-directory river-migrations-check

# River's tables are not ent's and have no goose file: River's migrator
# versions them (db.MigrateRiver). This applies them to a scratch database
# (twice, and concurrently) and checks the version, on PostgreSQL and SQLite;
# CI=true makes a missing PostgreSQL a failure, never a skip.
river-migrations-check:
	CI=true POSTGRES_ADMIN_DSN='$(POSTGRES_ADMIN_DSN)' go test -count=1 -run '^(TestMigrateRiver|TestRiverFamilyOnOneVersion)$$' ./internal/db/

# After adding a hand-written migration (data fixes, anything ent cannot
# express), record it in atlas.sum.
migrations-rehash:
	go run ./internal/db/cmd/migrationsdiff -dir '$(MIGRATIONS_DIR)' -rehash
