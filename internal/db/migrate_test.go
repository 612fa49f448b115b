package db_test

import (
	"context"
	"io/fs"
	"strings"
	"sync"
	"testing"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
)

func gooseRows(t *testing.T, d *db.DB) int {
	t.Helper()
	var n int
	if err := d.SQL.QueryRowContext(context.Background(), "SELECT count(*) FROM goose_db_version").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestMigrateTwiceIsNoop(t *testing.T) {
	ctx := context.Background()
	d := dbtest.Postgres(t) // migrated once already
	current, latest, err := db.MigrationStatus(ctx, d.SQL)
	if err != nil {
		t.Fatal(err)
	}
	if current != latest || latest == 0 {
		t.Fatalf("after Migrate: current %d, latest %d", current, latest)
	}
	rows := gooseRows(t, d)
	if err := db.Migrate(ctx, d.SQL); err != nil {
		t.Fatalf("second Migrate: %v", err)
	}
	again, _, err := db.MigrationStatus(ctx, d.SQL)
	if err != nil {
		t.Fatal(err)
	}
	if again != current || gooseRows(t, d) != rows {
		t.Errorf("second Migrate changed the version table: version %d -> %d, rows %d -> %d", current, again, rows, gooseRows(t, d))
	}
}

// Several replicas of the migrate role may start together; the advisory lock
// must let exactly one apply each migration.
func TestMigrateConcurrently(t *testing.T) {
	ctx := context.Background()
	dsn := dbtest.EmptyPostgres(t)
	const replicas = 4
	var wg sync.WaitGroup
	errs := make([]error, replicas)
	for i := range replicas {
		d, err := db.Open(ctx, db.Config{Driver: db.DriverPostgres, DSN: dsn, MaxOpenConns: 2})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = d.Close() })
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = db.Migrate(ctx, d.SQL)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("replica %d: %v", i, err)
		}
	}
	d, err := db.Open(ctx, db.Config{Driver: db.DriverPostgres, DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	files, _ := fs.Glob(db.Migrations(), "*.sql")
	// goose_db_version holds one bootstrap row (version 0) plus one per
	// applied migration; duplicates would mean two replicas applied one.
	if got, want := gooseRows(t, d), len(files)+1; got != want {
		t.Errorf("goose_db_version rows = %d, want %d", got, want)
	}
}

func TestEmbeddedMigrationsAreGoose(t *testing.T) {
	files, err := fs.Glob(db.Migrations(), "*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("embedded migrations: %v %v", files, err)
	}
	for _, f := range files {
		b, err := fs.ReadFile(db.Migrations(), f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), "-- +goose Up") {
			t.Errorf("%s does not start with a goose Up annotation", f)
		}
	}
}
