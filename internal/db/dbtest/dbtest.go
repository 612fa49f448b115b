// Package dbtest gives storage tests a real, empty, fully migrated database:
// a fresh PostgreSQL database per call (dropped afterwards) and an SQLite file
// in the test's temp dir, so the same contract tests run on both backends.
//
// A fresh PostgreSQL database is a copy of a template the migrations were
// applied to once (CREATE DATABASE ... TEMPLATE), and a fresh SQLite file a
// copy of one ent created the schema in once per test process: the schema
// is the same as migrating every database, at a fraction of the cost.
//
// When PostgreSQL does not answer, PostgreSQL tests are skipped on a
// developer machine but fail when CI=true: CI must never pass by skipping.
package dbtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/schemadiff"
)

// AdminDSN returns POSTGRES_ADMIN_DSN or the local default; the role must be
// allowed to CREATE and DROP DATABASE.
func AdminDSN() string { return schemadiff.AdminDSN() }

// RequirePostgres returns the admin DSN when PostgreSQL answers, and
// otherwise skips the test (fails it under CI=true).
func RequirePostgres(t testing.TB) string {
	t.Helper()
	dsn := AdminDSN()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err == nil {
		err = conn.Ping(ctx)
		conn.Close(ctx)
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("dbtest: PostgreSQL is required under CI=true but does not answer at POSTGRES_ADMIN_DSN: %v", err)
		}
		t.Skipf("dbtest: PostgreSQL not available (%v); set POSTGRES_ADMIN_DSN or start it", err)
	}
	return dsn
}

// Postgres creates a uniquely named database holding every migration (a
// copy of the migrated template) and registers cleanups that close and drop
// it. Options adjust the database's configuration before it is opened (a
// query tracer, say).
func Postgres(t testing.TB, options ...func(*db.Config)) *db.DB {
	t.Helper()
	dsn := MigratedPostgres(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := db.Config{Driver: db.DriverPostgres, DSN: dsn, MaxOpenConns: 8}
	for _, o := range options {
		o(&cfg)
	}
	d, err := db.Open(ctx, cfg)
	if err != nil {
		t.Fatalf("dbtest: open: %v", err)
	}
	// Registered after the database's drop, so it runs before it (cleanups
	// are LIFO).
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// MigratedPostgres creates a uniquely named database holding every
// migration, copied from the template, and returns its DSN; a cleanup drops
// it.
func MigratedPostgres(t testing.TB) string {
	t.Helper()
	adminDSN := RequirePostgres(t)
	tmpl, err := migratedTemplate(adminDSN)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	return createPostgres(t, adminDSN, tmpl)
}

// EmptyPostgres creates a uniquely named, empty database (no migrations) and
// returns its DSN; a cleanup drops it. For tests of the migrate role itself.
func EmptyPostgres(t testing.TB) string {
	t.Helper()
	return createPostgres(t, RequirePostgres(t), "")
}

// createPostgres creates a uniquely named database, a copy of tmpl when it
// is not empty, and returns its DSN; a cleanup drops it.
func createPostgres(t testing.TB, adminDSN, tmpl string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	name := databaseName()
	admin, err := pgx.Connect(ctx, adminDSN)
	if err != nil {
		t.Fatalf("dbtest: connect admin: %v", err)
	}
	defer admin.Close(ctx)
	ident := pgx.Identifier{name}.Sanitize()
	create := "CREATE DATABASE " + ident
	if tmpl != "" {
		create += " TEMPLATE " + pgx.Identifier{tmpl}.Sanitize()
	}
	if _, err := admin.Exec(ctx, create); err != nil {
		t.Fatalf("dbtest: create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		admin, err := pgx.Connect(ctx, adminDSN)
		if err != nil {
			t.Errorf("dbtest: drop database %s: %v", name, err)
			return
		}
		defer admin.Close(ctx)
		// FORCE ends connections a test leaked, which would otherwise block
		// the drop and leave databases behind.
		if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+ident+" WITH (FORCE)"); err != nil {
			t.Errorf("dbtest: drop database %s: %v", name, err)
		}
	})
	// A commit of a test's database does not wait for its WAL to reach the
	// disk (about 4 ms a commit on the CI machine, most of many tests'
	// time). What a commit makes visible, and when, is unchanged; only
	// durability across a crash of the machine is given up, for a database
	// the test drops anyway.
	if _, err := admin.Exec(ctx, "ALTER DATABASE "+ident+" SET synchronous_commit = off"); err != nil {
		t.Fatalf("dbtest: configure database %s: %v", name, err)
	}
	dsn, err := schemadiff.WithDatabase(adminDSN, name)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	return dsn
}

// SQLite opens a new database file in the test's temp dir with the schema
// created by ent (a copy of a file ent created it in once per process).
func SQLite(t testing.TB) *db.DB {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	image, err := sqliteImage()
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	path := filepath.Join(t.TempDir(), "test.db")
	if err := os.WriteFile(path, image, 0o600); err != nil {
		t.Fatalf("dbtest: write SQLite database: %v", err)
	}
	d, err := db.Open(ctx, db.Config{Driver: db.DriverSQLite, DSN: path})
	if err != nil {
		t.Fatalf("dbtest: open SQLite: %v", err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// ForEachDriver runs fn as a subtest on PostgreSQL and on SQLite, each with
// its own fresh database.
func ForEachDriver(t *testing.T, fn func(t *testing.T, d *db.DB)) {
	t.Helper()
	t.Run(db.DriverPostgres, func(t *testing.T) { fn(t, Postgres(t)) })
	t.Run(db.DriverSQLite, func(t *testing.T) { fn(t, SQLite(t)) })
}

var unsafeChars = regexp.MustCompile(`[^a-z0-9_]+`)

// databaseName is test_<package>_<random>: the package (from the test
// binary's name) tells whose database a leftover is, the random part keeps
// parallel tests and packages apart.
func databaseName() string {
	pkg := strings.TrimSuffix(filepath.Base(os.Args[0]), ".test")
	pkg = strings.TrimSuffix(pkg, ".exe")
	pkg = strings.Trim(unsafeChars.ReplaceAllString(strings.ToLower(pkg), "_"), "_")
	if pkg == "" {
		pkg = "pkg"
	}
	// PostgreSQL truncates identifiers at 63 bytes; keep the random part.
	if len(pkg) > 40 {
		pkg = pkg[:40]
	}
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return "test_" + pkg + "_" + hex.EncodeToString(b[:])
}
