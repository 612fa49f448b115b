package platform

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/mallplatform/partnerapi/internal/db"
)

// DatabaseReady is core's readiness: the database answers and, on
// PostgreSQL, its schema has every migration this binary carries (a replica
// never serves against an unmigrated or older schema). A schema ahead of the
// binary is ready: migrations are additive, so the previous release's pods
// keep serving while the next one migrates, and a rollback finds them ready.
// Once the schema has been seen current it is not asked again: it only moves
// forward.
func DatabaseReady(d *db.DB) func(context.Context) error {
	var migrated atomic.Bool
	return func(ctx context.Context) error {
		if err := d.SQL.PingContext(ctx); err != nil {
			return fmt.Errorf("database does not answer: %w", err)
		}
		if d.Driver() != db.DriverPostgres || migrated.Load() {
			return nil
		}
		current, latest, err := db.MigrationStatus(ctx, d.SQL)
		if err != nil {
			return err
		}
		if current < latest {
			return fmt.Errorf("database schema is at version %d, this release needs %d: run the migrate role", current, latest)
		}
		migrated.Store(true)
		return nil
	}
}
