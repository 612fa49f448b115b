package dbtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/schemadiff"
)

// templateLock is the advisory lock under which a test process checks for,
// and when missing builds, the migrated template: test binaries of several
// packages start at once and must not build it twice.
const templateLock int64 = 0x6462746573747470 // "dbtesttp"

// templatePrefix names the migrated templates; the rest of the name is a
// digest of the embedded migrations, so a changed migration gets a template
// of its own and an old one is never used for new code.
const templatePrefix = "dbtest_tpl_"

// pgTemplate is the process's template: its name once found or built, or
// the error of the one attempt, which every later test then fails with at
// once instead of trying the build again.
var pgTemplate templateCache

type templateCache struct {
	mu   sync.Mutex
	done bool
	name string
	err  error
}

// unusedTemplateAge is how long a template of other migrations (an older
// branch's, a changed migration's) is kept after its last use.
const unusedTemplateAge = 24 * time.Hour

// usedComment is the comment a test process leaves on the template it uses
// (COMMENT ON DATABASE), so that a build can tell which templates nobody
// has used for a day.
const usedComment = "dbtest template, last used "

// migratedTemplate returns the name of a database that holds every embedded
// migration, applied by db.Migrate, and that accepts no connections, so
// CREATE DATABASE can copy it at any time. It is built once per set of
// migrations on the server and kept: later test processes, of this run or
// the next, only copy it. A build that failed half way is not marked as a
// template and is dropped and built again. A build also drops the templates
// of other migrations that no test process has used for a day.
func migratedTemplate(adminDSN string) (string, error) { return pgTemplate.get(adminDSN) }

func (c *templateCache) get(adminDSN string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.done {
		c.name, c.err = findOrBuildTemplate(adminDSN)
		c.done = true
	}
	return c.name, c.err
}

func findOrBuildTemplate(adminDSN string) (string, error) {
	digest, err := migrationsDigest()
	if err != nil {
		return "", err
	}
	name := templatePrefix + digest
	// The first build may wait for another package's, on a busy machine.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	admin, err := pgx.Connect(ctx, adminDSN)
	if err != nil {
		return "", fmt.Errorf("template: connect admin: %w", err)
	}
	defer admin.Close(context.WithoutCancel(ctx))
	if _, err := admin.Exec(ctx, "SELECT pg_advisory_lock($1)", templateLock); err != nil {
		return "", fmt.Errorf("template: lock: %w", err)
	}
	// Closing the connection also ends the session's lock.
	defer func() { _, _ = admin.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", templateLock) }()

	var exists, ready bool
	err = admin.QueryRow(ctx, "SELECT true, datistemplate AND NOT datallowconn FROM pg_database WHERE datname = $1", name).
		Scan(&exists, &ready)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("template: look up %s: %w", name, err)
	}
	if !ready {
		if err := buildTemplate(ctx, admin, adminDSN, name, exists); err != nil {
			return "", err
		}
	}
	now := time.Now()
	if err := markUsed(ctx, admin, name, now); err != nil {
		return "", err
	}
	if !ready {
		if err := dropUnusedTemplates(ctx, admin, templatePrefix, name, now); err != nil {
			return "", err
		}
	}
	return name, nil
}

func markUsed(ctx context.Context, admin *pgx.Conn, name string, now time.Time) error {
	// COMMENT takes no parameters: the text is a literal of digits and
	// letters of a formatted time.
	_, err := admin.Exec(ctx, "COMMENT ON DATABASE "+pgx.Identifier{name}.Sanitize()+
		" IS '"+usedComment+now.UTC().Format(time.RFC3339)+"'")
	if err != nil {
		return fmt.Errorf("template: mark %s used: %w", name, err)
	}
	return nil
}

// dropUnusedTemplates drops the templates (names starting with prefix)
// other than keep whose last use
// is more than unusedTemplateAge before now. Run under templateLock, which
// every process holds while it marks the template it uses: a process that
// marked one within the day keeps it. A template without the mark (built
// before marks were left) gets one now, and goes a day later if nobody
// uses it meanwhile. A template that cannot be dropped (being copied) is
// left for a later build.
func dropUnusedTemplates(ctx context.Context, admin *pgx.Conn, prefix, keep string, now time.Time) error {
	rows, err := admin.Query(ctx, `SELECT datname, coalesce(shobj_description(oid, 'pg_database'), '')
		FROM pg_database WHERE starts_with(datname, $1) AND datname <> $2`, prefix, keep)
	if err != nil {
		return fmt.Errorf("template: list templates: %w", err)
	}
	type template struct{ name, comment string }
	var all []template
	for rows.Next() {
		var t template
		if err := rows.Scan(&t.name, &t.comment); err != nil {
			rows.Close()
			return fmt.Errorf("template: list templates: %w", err)
		}
		all = append(all, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("template: list templates: %w", err)
	}
	for _, t := range all {
		used, err := time.Parse(time.RFC3339, strings.TrimPrefix(t.comment, usedComment))
		if err != nil || !strings.HasPrefix(t.comment, usedComment) {
			if err := markUsed(ctx, admin, t.name, now); err != nil {
				return err
			}
			continue
		}
		if now.Sub(used) <= unusedTemplateAge {
			continue
		}
		ident := pgx.Identifier{t.name}.Sanitize()
		if _, err := admin.Exec(ctx, "ALTER DATABASE "+ident+" WITH IS_TEMPLATE false"); err != nil {
			continue
		}
		if _, err := admin.Exec(ctx, "DROP DATABASE "+ident); err != nil {
			_, _ = admin.Exec(ctx, "ALTER DATABASE "+ident+" WITH IS_TEMPLATE true")
		}
	}
	return nil
}

func buildTemplate(ctx context.Context, admin *pgx.Conn, adminDSN, name string, exists bool) error {
	ident := pgx.Identifier{name}.Sanitize()
	if exists {
		if _, err := admin.Exec(ctx, "DROP DATABASE "+ident+" WITH (FORCE)"); err != nil {
			return fmt.Errorf("template: drop unfinished %s: %w", name, err)
		}
	}
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+ident); err != nil {
		return fmt.Errorf("template: create %s: %w", name, err)
	}
	dsn, err := schemadiff.WithDatabase(adminDSN, name)
	if err != nil {
		return fmt.Errorf("template: %w", err)
	}
	d, err := db.Open(ctx, db.Config{Driver: db.DriverPostgres, DSN: dsn, MaxOpenConns: 2})
	if err != nil {
		return fmt.Errorf("template: open %s: %w", name, err)
	}
	err = db.Migrate(ctx, d.SQL)
	// Every connection must be gone before the database can be copied.
	_ = d.Close()
	if err != nil {
		return fmt.Errorf("template: migrate %s: %w", name, err)
	}
	// Marked last: only a fully migrated database is ever a template.
	if _, err := admin.Exec(ctx, "ALTER DATABASE "+ident+" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false"); err != nil {
		return fmt.Errorf("template: mark %s: %w", name, err)
	}
	return nil
}

// migrationsDigest is a digest of the embedded migrations' names and
// contents (16 hex digits fit PostgreSQL's 63-byte names).
func migrationsDigest() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(db.Migrations(), ".", func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := fs.ReadFile(db.Migrations(), path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("template: read migrations: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)[:8]), nil
}

var sqliteTemplate struct {
	once  sync.Once
	image []byte
	err   error
}

// sqliteImage returns the bytes of an SQLite database file in which ent
// created the schema, built once per test process.
func sqliteImage() ([]byte, error) {
	s := &sqliteTemplate
	s.once.Do(func() {
		dir, err := os.MkdirTemp("", "dbtest-sqlite-")
		if err != nil {
			s.err = err
			return
		}
		defer os.RemoveAll(dir)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		path := filepath.Join(dir, "template.db")
		d, err := db.Open(ctx, db.Config{Driver: db.DriverSQLite, DSN: path})
		if err != nil {
			s.err = fmt.Errorf("open SQLite template: %w", err)
			return
		}
		if err := db.CreateSchema(ctx, d.Ent); err != nil {
			_ = d.Close()
			s.err = fmt.Errorf("create SQLite schema: %w", err)
			return
		}
		// Everything into the main file, so that file alone is the database.
		if _, err := d.SQL.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
			_ = d.Close()
			s.err = fmt.Errorf("checkpoint SQLite template: %w", err)
			return
		}
		if err := d.Close(); err != nil {
			s.err = fmt.Errorf("close SQLite template: %w", err)
			return
		}
		s.image, s.err = os.ReadFile(path)
	})
	return s.image, s.err
}
