package main

import (
	"context"
	"fmt"
	"io"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/services/shipping"
	"github.com/mallplatform/partnerapi/services/shipping/channels"
)

func runMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var dsn string
	fs := newFlagSet("migrate", stderr)
	fs.secretURL(&dsn, "database-url", "MP_DATABASE_URL", "PostgreSQL URL, e.g. postgres://user@host:5432/db?sslmode=disable")
	if err := fs.Parse(args); err != nil {
		return err
	}
	d, err := db.Open(ctx, db.Config{Driver: db.DriverPostgres, DSN: dsn})
	if err != nil {
		return err
	}
	defer d.Close()
	if err := db.Migrate(ctx, d.SQL); err != nil {
		return err
	}
	current, latest, err := db.MigrationStatus(ctx, d.SQL)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "schema at version %d (latest %d)\n", current, latest)
	// The shipping channels are data the quote engine needs from the first
	// request: the built-in set goes in when the table is empty, and an
	// operator's set (admin load-channels) is never overwritten.
	seeded, err := channels.SeedDefault(ctx, channels.NewEntStore(d))
	if err != nil {
		return err
	}
	if seeded {
		fmt.Fprintln(stdout, "stored the built-in shipping channels")
	}
	// The shipped shipping calendar, on a database whose calendar is
	// empty: an operator's edits are never overwritten by a deploy.
	if seeded, err = shipping.SeedCalendar(ctx, shipping.NewEntStore(d)); err != nil {
		return err
	}
	if seeded {
		fmt.Fprintln(stdout, "shipping calendar loaded from the shipped files")
	}
	// River's tables (the worker's job queue) are versioned by River's own
	// migrator, after core's schema.
	if err := db.MigrateRiver(ctx, d); err != nil {
		return err
	}
	rcurrent, rlatest, err := db.RiverMigrationStatus(ctx, d)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "job queue schema at version %d (latest %d)\n", rcurrent, rlatest)
	return nil
}
