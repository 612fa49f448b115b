package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

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
		if err := tryLockUntil(ctx, conn.Conn(), riverMigrateLock); err != nil {
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
		return createWebhookJobIndex(ctx, conn.Conn())
	case DriverSQLite:
		m, err := rivermigrate.New(riversqlite.New(d.SQL), &rivermigrate.Config{Logger: quietRiverLogger()})
		if err != nil {
			return fmt.Errorf("db: river migrations: %w", err)
		}
		if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
			return fmt.Errorf("db: river migrate: %w", err)
		}
		if _, err := d.SQL.ExecContext(ctx, `CREATE INDEX IF NOT EXISTS `+webhookJobIndex+` ON river_job
			(json_extract(args, '$.subscription_id'), json_extract(args, '$.resource_id'), id) WHERE kind = 'webhook.deliver'`); err != nil {
			return fmt.Errorf("db: river index: %w", err)
		}
		return nil
	}
	return fmt.Errorf("db: unknown driver %q", d.driver)
}

// tryLockUntil takes the session advisory lock key, polling until it is
// free or ctx ends. A waiter blocked in pg_advisory_lock would hold a
// snapshot, and CREATE INDEX CONCURRENTLY by the holder waits for every
// snapshot older than its own: the two would deadlock.
func tryLockUntil(ctx context.Context, conn *pgx.Conn, key int64) error {
	for {
		var got bool
		if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", key).Scan(&got); err != nil {
			return err
		}
		if got {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// webhookJobIndex finds a subscription's delivery jobs, and one resource's
// among them, without scanning the queue: the delivery worker asks before
// each first attempt whether an earlier event of the same resource is still
// waiting (services/webhooks, EarlierFirstAttemptPending), and the deliveries
// page lists a subscription's pending jobs. River's GIN index on args serves
// neither reliably (the planner prefers a scan that grows with the queue).
// It is the platform's index on River's table, so it is created here, after
// River's migrations, and not in the goose set.
const webhookJobIndex = "river_job_webhook_resource"

// createWebhookJobIndex creates webhookJobIndex without blocking the queue's
// writers (CONCURRENTLY), replacing one a failed earlier build left invalid.
func createWebhookJobIndex(ctx context.Context, conn *pgx.Conn) error {
	var valid *bool
	err := conn.QueryRow(ctx, `SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass($1)`, webhookJobIndex).Scan(&valid)
	switch {
	case err == nil && valid != nil && *valid:
		return nil
	case err == nil:
		if _, err := conn.Exec(ctx, `DROP INDEX CONCURRENTLY IF EXISTS `+webhookJobIndex); err != nil {
			return fmt.Errorf("db: river index: %w", err)
		}
	case !errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("db: river index: %w", err)
	}
	if _, err := conn.Exec(ctx, `CREATE INDEX CONCURRENTLY `+webhookJobIndex+` ON river_job
		((args->>'subscription_id'), (args->>'resource_id'), id) WHERE kind = 'webhook.deliver'`); err != nil {
		return fmt.Errorf("db: river index: %w", err)
	}
	return nil
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
