package db

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/mallplatform/partnerapi/ent"
	entmigrate "github.com/mallplatform/partnerapi/ent/migrate"
)

// The migrations are generated from the ent schema by
// internal/db/cmd/migrationsdiff (make migrations-diff) and embedded so the
// migrate role needs nothing but its own binary.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations returns the embedded goose migrations for PostgreSQL.
func Migrations() fs.FS {
	sub, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		panic(err) // the directory is embedded at build time
	}
	return sub
}

func newProvider(sqlDB *sql.DB) (*goose.Provider, error) {
	// A session-level advisory lock lets several replicas run the migrate
	// role at once (a rolling deploy, a retried job): one applies, the others
	// wait and then find nothing to do. Polling every second for up to ten
	// minutes covers a slow migration without making waiters sleep long
	// after it finished.
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 600))
	if err != nil {
		return nil, err
	}
	return goose.NewProvider(goose.DialectPostgres, sqlDB, Migrations(),
		goose.WithSessionLocker(locker),
		// Go migrations registered by any imported package must not sneak into
		// this set: only the embedded SQL files define the schema.
		goose.WithDisableGlobalRegistry(true),
	)
}

// Migrate applies every pending embedded migration to a PostgreSQL database.
// Running it again on an up-to-date database changes nothing.
func Migrate(ctx context.Context, sqlDB *sql.DB) error {
	p, err := newProvider(sqlDB)
	if err != nil {
		return fmt.Errorf("db: migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("db: migrate: %w", err)
	}
	return nil
}

// MigrationStatus reports the version the database is at and the newest
// embedded version. Core compares them at start-up and on readiness so a pod
// never serves against a schema older than its code.
func MigrationStatus(ctx context.Context, sqlDB *sql.DB) (current, latest int64, err error) {
	p, err := newProvider(sqlDB)
	if err != nil {
		return 0, 0, fmt.Errorf("db: migrations: %w", err)
	}
	current, latest, err = p.GetVersions(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("db: migration status: %w", err)
	}
	return current, latest, nil
}

// CreateSchema creates or extends the schema with ent's auto migration. It is
// for SQLite in the dev role and tests only: it is not versioned, never drops
// columns, and must not be used on PostgreSQL, whose schema belongs to
// Migrate.
func CreateSchema(ctx context.Context, client *ent.Client) error {
	if err := client.Schema.Create(ctx, entmigrate.WithDropIndex(true)); err != nil {
		return fmt.Errorf("db: create schema: %w", err)
	}
	return nil
}
