// Package schemadiff keeps the PostgreSQL migrations in internal/db/migrations
// in step with the ent schema.
//
// Both operations replay the migration directory on a scratch database that
// they create on the given server and drop afterwards, then compare the result
// with the schema ent describes (including its CHECK constraints). Comparing
// against replayed migrations rather than a live database means the outcome
// depends only on the repository, so CI and every developer get the same
// answer.
package schemadiff

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/sqltool"
	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/schema"
	"github.com/jackc/pgx/v5"
	// Registers the "pgx" database/sql driver for the scratch database.
	_ "github.com/jackc/pgx/v5/stdlib"

	entmigrate "github.com/mallplatform/partnerapi/ent/migrate"
)

// DefaultAdminDSN is the local PostgreSQL of every developer and CI machine.
const DefaultAdminDSN = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// AdminDSN returns POSTGRES_ADMIN_DSN or the local default.
func AdminDSN() string {
	if v := os.Getenv("POSTGRES_ADMIN_DSN"); v != "" {
		return v
	}
	return DefaultAdminDSN
}

// DriftError means the ent schema describes something the migrations do not
// produce (or the reverse). SQL is the migration that would fix it.
type DriftError struct {
	SQL string
}

func (e *DriftError) Error() string {
	return "ent schema and migrations have drifted; the missing migration would be:\n" + e.SQL
}

// ErrSumMismatch means atlas.sum does not match the migration files: a
// migration was edited, added or removed without rehashing.
var ErrSumMismatch = errors.New("atlas.sum does not match the migration files")

// Diff writes a new goose migration named name into dir when the ent schema
// differs from what the existing migrations produce, updates atlas.sum, and
// returns the paths of the files it wrote (none when already in step).
func Diff(ctx context.Context, adminDSN, dir, name string) ([]string, error) {
	if name == "" || strings.ContainsAny(name, `/\ `) {
		return nil, fmt.Errorf("schemadiff: migration name %q must be non-empty, without spaces or slashes", name)
	}
	if err := ValidateSum(dir); err != nil {
		return nil, err
	}
	before, err := sqlFiles(dir)
	if err != nil {
		return nil, err
	}
	if err := diff(ctx, adminDSN, dir, name); err != nil {
		if errors.Is(err, migrate.ErrNoPlan) {
			return nil, nil
		}
		return nil, err
	}
	after, err := sqlFiles(dir)
	if err != nil {
		return nil, err
	}
	var written []string
	for _, f := range after {
		if !slices.Contains(before, f) {
			written = append(written, filepath.Join(dir, f))
		}
	}
	return written, nil
}

// Check fails when atlas.sum is stale or when diffing would produce a new
// migration. It works on a temporary copy, so dir is never modified.
func Check(ctx context.Context, adminDSN, dir string) error {
	if err := ValidateSum(dir); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "schemadiff-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tmp, e.Name()), b, 0o644); err != nil {
			return err
		}
	}
	before, err := sqlFiles(tmp)
	if err != nil {
		return err
	}
	err = diff(ctx, adminDSN, tmp, "drift")
	if errors.Is(err, migrate.ErrNoPlan) {
		return nil
	}
	if err != nil {
		return err
	}
	after, err := sqlFiles(tmp)
	if err != nil {
		return err
	}
	var sb strings.Builder
	for _, f := range after {
		if slices.Contains(before, f) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(tmp, f))
		if err != nil {
			return err
		}
		sb.Write(b)
	}
	return &DriftError{SQL: sb.String()}
}

// ValidateSum checks atlas.sum against the migration files. The sum makes an
// edit to an already-applied migration, or a merge of two branches that both
// added one, visible in review instead of in production.
func ValidateSum(dir string) error {
	d, err := sqltool.NewGooseDir(dir)
	if err != nil {
		return err
	}
	switch err := migrate.Validate(d); {
	case err == nil:
		return nil
	case errors.Is(err, migrate.ErrChecksumMismatch), errors.Is(err, migrate.ErrChecksumNotFound):
		return fmt.Errorf("%w in %s (%v); if a hand-written migration was added on purpose, run the generator with -rehash", ErrSumMismatch, dir, err)
	default:
		return fmt.Errorf("schemadiff: validate %s: %w", dir, err)
	}
}

// Rehash rewrites atlas.sum from the files in dir, for hand-written
// migrations that the generator did not produce.
func Rehash(dir string) error {
	d, err := sqltool.NewGooseDir(dir)
	if err != nil {
		return err
	}
	sum, err := d.Checksum()
	if err != nil {
		return err
	}
	return migrate.WriteSumFile(d, sum)
}

func diff(ctx context.Context, adminDSN, dir, name string) error {
	gooseDir, err := sqltool.NewGooseDir(dir)
	if err != nil {
		return err
	}
	scratch, drop, err := createScratch(ctx, adminDSN)
	if err != nil {
		return err
	}
	defer drop()
	sqlDB, err := sql.Open("pgx", scratch)
	if err != nil {
		return err
	}
	defer sqlDB.Close()
	m, err := schema.NewMigrate(entsql.OpenDB(dialect.Postgres, sqlDB),
		schema.WithDir(gooseDir),
		schema.WithFormatter(sqltool.GooseFormatter),
		schema.WithDialect(dialect.Postgres),
		schema.WithMigrationMode(schema.ModeReplay),
		// A column or index removed from the schema must disappear from the
		// database too; otherwise the migrations would silently keep it.
		schema.WithDropColumn(true),
		schema.WithDropIndex(true),
		schema.WithErrNoPlan(true),
	)
	if err != nil {
		return err
	}
	return m.NamedDiff(ctx, name, entmigrate.Tables...)
}

// createScratch makes an empty database on the admin server and returns its
// DSN and a function that drops it.
func createScratch(ctx context.Context, adminDSN string) (string, func(), error) {
	admin, err := pgx.Connect(ctx, adminDSN)
	if err != nil {
		return "", nil, fmt.Errorf("schemadiff: connect to PostgreSQL admin DSN: %w", err)
	}
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		admin.Close(ctx)
		return "", nil, err
	}
	name := "schemadiff_" + hex.EncodeToString(b[:])
	ident := pgx.Identifier{name}.Sanitize()
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+ident); err != nil {
		admin.Close(ctx)
		return "", nil, fmt.Errorf("schemadiff: create scratch database: %w", err)
	}
	drop := func() {
		// The caller's context may be cancelled by now; the scratch database
		// must go regardless.
		ctx := context.WithoutCancel(ctx)
		_, _ = admin.Exec(ctx, "DROP DATABASE IF EXISTS "+ident+" WITH (FORCE)")
		admin.Close(ctx)
	}
	dsn, err := WithDatabase(adminDSN, name)
	if err != nil {
		drop()
		return "", nil, err
	}
	return dsn, drop, nil
}

// WithDatabase returns dsn pointed at database name, for URL and
// keyword/value DSNs alike.
func WithDatabase(dsn, name string) (string, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", errors.New("schemadiff: invalid PostgreSQL URL")
		}
		u.Path = "/" + name
		u.RawPath = ""
		return u.String(), nil
	}
	// In keyword/value form the last occurrence of a key wins.
	return strings.TrimSpace(dsn) + " dbname=" + name, nil
}

func sqlFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".sql") {
			out = append(out, e.Name())
		}
	}
	return out, nil
}
