package db

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
)

// The job queue (River, run by the worker role) keeps its tables in the same
// database as core. Its schema is versioned by River's own migrator and
// recorded in its own table (river_migration), beside the goose set: the goose
// files are generated from the ent schema and River's tables are not ent's, so
// each set stays checkable on its own. The migrate role applies both.

// riverMigrateLock is the advisory lock key the migrate role holds while it
// applies River's migrations, so replicas of a retried or overlapping migrate
// job wait for one another instead of racing on DDL.
const riverMigrateLock int64 = 0x6d70726976657231 // "mpriver1"

// MigrateRiver applies River's pending migrations. On PostgreSQL it holds an
// advisory lock meanwhile; on SQLite (dev) it runs as River's migrator does by
// default. Running it on a current schema changes nothing.
func MigrateRiver(ctx context.Context, d *DB) error {
	switch d.driver {
	case DriverPostgres:
		m, err := rivermigrate.New(riverpgxv5.New(d.Pool), &rivermigrate.Config{Logger: quietRiverLogger()})
		if err != nil {
			return fmt.Errorf("db: river migrations: %w", err)
		}
		// A session lock on a connection of its own: River applies each
		// version in its own transaction (a version that adds an enum value
		// cannot share one with the next that uses it).
		conn, err := d.Pool.Acquire(ctx)
		if err != nil {
			return fmt.Errorf("db: river migrate: %w", err)
		}
		defer conn.Release()
		if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", riverMigrateLock); err != nil {
			return fmt.Errorf("db: river migrate lock: %w", err)
		}
		defer func() {
			// Unlock even when ctx ended; on failure closing the connection
			// ends the session and its lock.
			if _, err := conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", riverMigrateLock); err != nil {
				_ = conn.Hijack().Close(context.WithoutCancel(ctx))
			}
		}()
		if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
			return fmt.Errorf("db: river migrate: %w", err)
		}
		return nil
	case DriverSQLite:
		m, err := rivermigrate.New(riversqlite.New(d.SQL), &rivermigrate.Config{Logger: quietRiverLogger()})
		if err != nil {
			return fmt.Errorf("db: river migrations: %w", err)
		}
		if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
			return fmt.Errorf("db: river migrate: %w", err)
		}
		return nil
	}
	return fmt.Errorf("db: unknown driver %q", d.driver)
}

// RiverMigrationStatus reports the River schema version the database is at (0
// when River's tables do not exist yet) and the newest version this binary
// carries. The worker's readiness and the migration checks compare them.
func RiverMigrationStatus(ctx context.Context, d *DB) (current, latest int, err error) {
	var existing, all []rivermigrate.Migration
	switch d.driver {
	case DriverPostgres:
		existing, all, err = riverVersions[pgx.Tx](ctx, riverpgxv5.New(d.Pool))
	case DriverSQLite:
		existing, all, err = riverVersions[*sql.Tx](ctx, riversqlite.New(d.SQL))
	default:
		return 0, 0, fmt.Errorf("db: unknown driver %q", d.driver)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("db: river migration status: %w", err)
	}
	for _, m := range existing {
		current = max(current, m.Version)
	}
	for _, m := range all {
		latest = max(latest, m.Version)
	}
	return current, latest, nil
}

func riverVersions[TTx any](ctx context.Context, drv riverdriver.Driver[TTx]) (existing, all []rivermigrate.Migration, err error) {
	m, err := rivermigrate.New(drv, &rivermigrate.Config{Logger: quietRiverLogger()})
	if err != nil {
		return nil, nil, err
	}
	existing, err = m.ExistingVersions(ctx)
	return existing, m.AllVersions(), err
}

// quietRiverLogger drops River's informational migration lines: the migrate
// role prints its own summary and errors come back as values.
func quietRiverLogger() *slog.Logger {
	return slog.New(slog.DiscardHandler)
}
