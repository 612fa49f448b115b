package dbtest

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mallplatform/partnerapi/internal/db"
)

type stop struct{}

// recorder stands in for testing.TB to observe Skip and Fatal without ending
// the real test.
type recorder struct {
	testing.TB
	skipped, failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Skipf(string, ...any)  { r.skipped = true; panic(stop{}) }
func (r *recorder) Fatalf(string, ...any) { r.failed = true; panic(stop{}) }

func run(t *testing.T, fn func(tb testing.TB)) *recorder {
	r := &recorder{TB: t}
	func() {
		defer func() {
			if p := recover(); p != nil {
				if _, ok := p.(stop); !ok {
					panic(p)
				}
			}
		}()
		fn(r)
	}()
	return r
}

func TestUnreachablePostgresSkipsLocallyAndFailsInCI(t *testing.T) {
	t.Setenv("POSTGRES_ADMIN_DSN", "postgres://postgres@127.0.0.1:1/postgres?sslmode=disable&connect_timeout=2")

	t.Setenv("CI", "")
	if r := run(t, func(tb testing.TB) { RequirePostgres(tb) }); !r.skipped || r.failed {
		t.Errorf("without CI: skipped=%v failed=%v, want a skip", r.skipped, r.failed)
	}
	t.Setenv("CI", "true")
	if r := run(t, func(tb testing.TB) { RequirePostgres(tb) }); !r.failed || r.skipped {
		t.Errorf("with CI=true: skipped=%v failed=%v, want a failure", r.skipped, r.failed)
	}
}

func TestDatabaseName(t *testing.T) {
	a, b := databaseName(), databaseName()
	if a == b {
		t.Errorf("two names collide: %s", a)
	}
	if !strings.HasPrefix(a, "test_dbtest_") || len(a) > 63 {
		t.Errorf("name %q: want test_dbtest_<random> within 63 bytes", a)
	}
}

func TestPostgresIsFullyMigrated(t *testing.T) {
	d := Postgres(t)
	current, latest, err := db.MigrationStatus(context.Background(), d.SQL)
	if err != nil {
		t.Fatal(err)
	}
	if current != latest || latest == 0 {
		t.Errorf("migration status: at %d, newest %d; want the newest", current, latest)
	}
	var sync string
	if err := d.SQL.QueryRowContext(context.Background(), "SHOW synchronous_commit").Scan(&sync); err != nil || sync != "off" {
		t.Errorf("synchronous_commit %q (%v), want off in a test's database", sync, err)
	}
}

func TestPostgresDatabasesAreIndependent(t *testing.T) {
	a, b := Postgres(t), Postgres(t)
	ctx := context.Background()
	if _, err := a.SQL.ExecContext(ctx, "CREATE TABLE only_in_a (id int)"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := b.SQL.QueryRowContext(ctx, "SELECT count(*) FROM information_schema.tables WHERE table_name = 'only_in_a'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Error("a table created in one database shows in another")
	}
}

// An unfinished template (a build that died before marking it) is dropped
// and built again rather than copied.
func TestUnfinishedTemplateIsRebuilt(t *testing.T) {
	adminDSN := RequirePostgres(t)
	ctx := context.Background()
	digest, err := migrationsDigest()
	if err != nil {
		t.Fatal(err)
	}
	admin, err := pgx.Connect(ctx, adminDSN)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	// A template of its own (a digest no migration set has), so other
	// packages' tests never see it.
	name := templatePrefix + "unfinished" + digest[:6]
	ident := pgx.Identifier{name}.Sanitize()
	// On a connection of its own: the cleanup runs after admin is closed.
	drop := func() {
		c, err := pgx.Connect(ctx, adminDSN)
		if err != nil {
			t.Errorf("drop %s: %v", name, err)
			return
		}
		defer c.Close(ctx)
		_, _ = c.Exec(ctx, "ALTER DATABASE "+ident+" WITH IS_TEMPLATE false")
		if _, err := c.Exec(ctx, "DROP DATABASE IF EXISTS "+ident+" WITH (FORCE)"); err != nil {
			t.Errorf("drop %s: %v", name, err)
		}
	}
	drop()
	t.Cleanup(drop)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+ident); err != nil {
		t.Fatal(err)
	}
	if err := buildTemplate(ctx, admin, adminDSN, name, true); err != nil {
		t.Fatal(err)
	}
	var ready bool
	if err := admin.QueryRow(ctx, "SELECT datistemplate AND NOT datallowconn FROM pg_database WHERE datname = $1", name).Scan(&ready); err != nil {
		t.Fatal(err)
	}
	if !ready {
		t.Error("the rebuilt database is not marked as a template")
	}
	dsn := createPostgres(t, adminDSN, name)
	d, err := db.Open(ctx, db.Config{Driver: db.DriverPostgres, DSN: dsn, MaxOpenConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	current, latest, err := db.MigrationStatus(ctx, d.SQL)
	if err != nil || current != latest {
		t.Errorf("copy of the rebuilt template: at %d, newest %d, err %v", current, latest, err)
	}
}

func TestSQLiteDatabasesAreIndependentAndHoldTheSchema(t *testing.T) {
	a, b := SQLite(t), SQLite(t)
	ctx := context.Background()
	if _, err := a.SQL.ExecContext(ctx, "CREATE TABLE only_in_a (id int)"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := b.SQL.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE name = 'only_in_a'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Error("a table created in one database shows in another")
	}
	// The copy holds what ent creates in a new file.
	fresh, err := db.Open(ctx, db.Config{Driver: db.DriverSQLite, DSN: filepath.Join(t.TempDir(), "fresh.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if err := db.CreateSchema(ctx, fresh.Ent); err != nil {
		t.Fatal(err)
	}
	const schema = "SELECT type || ' ' || name || ' ' || coalesce(sql, '') AS s FROM sqlite_master ORDER BY type, name"
	got, want := Query(t, b.SQL, schema), Query(t, fresh.SQL, schema)
	if len(want) < 10 || !reflect.DeepEqual(got, want) {
		t.Errorf("schema of the copy:\n%v\nwant:\n%v", got, want)
	}
	var mode string
	if err := b.SQL.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode %q (%v), want wal", mode, err)
	}
}

// A template that could not be had is not tried again: later tests of the
// process fail at once with the first error, even once the server answers.
func TestTemplateFailureIsRemembered(t *testing.T) {
	adminDSN := RequirePostgres(t)
	var c templateCache
	_, first := c.get("postgres://nobody@127.0.0.1:1/postgres?connect_timeout=1&sslmode=disable")
	if first == nil {
		t.Fatal("a template from an unreachable server")
	}
	if _, err := c.get(adminDSN); !errors.Is(err, first) {
		t.Fatalf("second attempt: %v, want the first error %v", err, first)
	}
}

// A build drops the templates of other migrations unused for a day, marks
// those without a mark, and keeps those used within the day.
func TestUnusedTemplatesAreDropped(t *testing.T) {
	adminDSN := RequirePostgres(t)
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, adminDSN)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	now := time.Now()
	// Templates of the test's own prefix: the server's real ones are not
	// the test's to drop.
	prefix := templatePrefix + "t" + strconv.FormatInt(now.UnixNano(), 36) + "_"
	stale, fresh, unmarked := prefix+"stale", prefix+"fresh", prefix+"unmarked"
	for _, name := range []string{stale, fresh, unmarked} {
		ident := pgx.Identifier{name}.Sanitize()
		if _, err := admin.Exec(ctx, "CREATE DATABASE "+ident); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			c, err := pgx.Connect(ctx, adminDSN)
			if err != nil {
				t.Errorf("drop %s: %v", name, err)
				return
			}
			defer c.Close(ctx)
			_, _ = c.Exec(ctx, "ALTER DATABASE "+ident+" WITH IS_TEMPLATE false")
			if _, err := c.Exec(ctx, "DROP DATABASE IF EXISTS "+ident+" WITH (FORCE)"); err != nil {
				t.Errorf("drop %s: %v", name, err)
			}
		})
		if _, err := admin.Exec(ctx, "ALTER DATABASE "+ident+" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false"); err != nil {
			t.Fatal(err)
		}
	}
	if err := markUsed(ctx, admin, stale, now.Add(-unusedTemplateAge-time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := markUsed(ctx, admin, fresh, now.Add(-unusedTemplateAge+time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := dropUnusedTemplates(ctx, admin, prefix, prefix+"kept", now); err != nil {
		t.Fatal(err)
	}
	comments := map[string]string{}
	rows, err := admin.Query(ctx, "SELECT datname, coalesce(shobj_description(oid, 'pg_database'), '') FROM pg_database WHERE datname = ANY($1)",
		[]string{stale, fresh, unmarked})
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name, comment string
		if err := rows.Scan(&name, &comment); err != nil {
			t.Fatal(err)
		}
		comments[name] = comment
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if _, ok := comments[stale]; ok {
		t.Error("a template unused for more than a day was kept")
	}
	if _, ok := comments[fresh]; !ok {
		t.Error("a template used within the day was dropped")
	}
	if c, ok := comments[unmarked]; !ok || c != usedComment+now.UTC().Format(time.RFC3339) {
		t.Errorf("an unmarked template: kept %v, comment %q", ok, c)
	}
}
