// Package db opens core's database and keeps its schema current.
//
// PostgreSQL is the production store: a pgx/v5 pool exposed as database/sql
// for ent, with versioned goose migrations (generated from the ent schema)
// applied by the migrate role. SQLite is only for the all-in-one dev role and
// quick tests: its schema comes from ent's auto migration and is not
// versioned, so a dev database may be thrown away whenever the schema moves.
package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/mallplatform/partnerapi/ent"

	// Registers the pure-Go "sqlite" database/sql driver.
	_ "modernc.org/sqlite"
)

// DB bundles the handles on one database. Ent is what storage code uses; SQL
// is the same pool for migrations, health checks and the rare raw query; Pool
// is the underlying pgx pool on PostgreSQL (nil on SQLite) for components that
// speak pgx natively, such as the job queue.
type DB struct {
	Ent  *ent.Client
	SQL  *sql.DB
	Pool *pgxpool.Pool

	driver    string
	closeOnce sync.Once
	closeErr  error

	// batchers are the read batchers of d's statements (ReadBatcher).
	batchersMu sync.Mutex
	batchers   map[string]*ReadBatcher
}

// Driver reports the backend, DriverPostgres or DriverSQLite.
func (d *DB) Driver() string { return d.driver }

// Close releases every connection. It is safe to call more than once, so
// test cleanups and shutdown paths need not coordinate.
func (d *DB) Close() error {
	d.closeOnce.Do(func() {
		// Closing the ent client closes the database/sql handle; the pgx pool
		// is independent of it and must be closed after.
		d.closeErr = d.Ent.Close()
		if d.Pool != nil {
			d.Pool.Close()
		}
	})
	return d.closeErr
}

// Open connects to the configured backend and checks that it answers, so a
// wrong DSN fails at start-up rather than on the first request. It does not
// touch the schema: call Migrate (PostgreSQL) or CreateSchema (SQLite).
func Open(ctx context.Context, cfg Config) (*DB, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	switch cfg.Driver {
	case DriverPostgres:
		return openPostgres(ctx, cfg)
	case DriverSQLite:
		return openSQLite(ctx, cfg)
	}
	return nil, fmt.Errorf("db: unknown driver %q", cfg.Driver)
}

func openPostgres(ctx context.Context, cfg Config) (*DB, error) {
	pcfg, err := pgxpool.ParseConfig(cfg.DSN)
	if err != nil {
		// pgx's parse errors can echo the DSN, password included.
		return nil, errors.New("db: invalid PostgreSQL DSN")
	}
	if cfg.MaxOpenConns > 0 {
		pcfg.MaxConns = int32(cfg.MaxOpenConns)
	}
	if cfg.ConnMaxLifetime > 0 {
		pcfg.MaxConnLifetime = cfg.ConnMaxLifetime
	}
	if cfg.QueryTracer != nil {
		pcfg.ConnConfig.Tracer = cfg.QueryTracer
	}
	next := pcfg.AfterConnect
	pcfg.AfterConnect = func(ctx context.Context, conn *pgx.Conn) error {
		scanTimestamptzAsUTC(conn)
		if next != nil {
			return next(ctx, conn)
		}
		return nil
	}
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return nil, fmt.Errorf("db: create PostgreSQL pool: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("db: PostgreSQL at %s:%d does not answer: %w", pcfg.ConnConfig.Host, pcfg.ConnConfig.Port, err)
	}
	sqlDB := stdlib.OpenDBFromPool(pool)
	// Let database/sql queue callers at the same limit as the pool instead of
	// handing pgxpool more concurrent acquirers than it has connections.
	sqlDB.SetMaxOpenConns(int(pcfg.MaxConns))
	drv := entsql.OpenDB(dialect.Postgres, sqlDB)
	return &DB{
		Ent:    ent.NewClient(ent.Driver(recordingDriver{drv})),
		SQL:    sqlDB,
		Pool:   pool,
		driver: DriverPostgres,
	}, nil
}

// scanTimestamptzAsUTC makes timestamptz values come back in UTC instead of
// the process's local zone, so what a service reads equals what it wrote
// whatever TZ the container runs with.
func scanTimestamptzAsUTC(conn *pgx.Conn) {
	conn.TypeMap().RegisterType(&pgtype.Type{
		Name:  "timestamptz",
		OID:   pgtype.TimestamptzOID,
		Codec: &pgtype.TimestamptzCodec{ScanLocation: time.UTC},
	})
}

// SQLite connection settings, applied unless the DSN sets them itself.
//
//   - foreign_keys(1): SQLite ignores foreign keys otherwise, and ent refuses to
//     migrate without them.
//   - journal_mode(WAL): readers never block the writer nor each other.
//   - busy_timeout(10000): a writer waits up to 10 s for the lock instead of
//     failing at once with SQLITE_BUSY.
//   - synchronous(NORMAL): durable across application crashes in WAL mode,
//     which is all a dev database needs, at a fraction of FULL's fsyncs.
//   - _txlock=immediate: every transaction takes the write lock at BEGIN. A
//     deferred transaction that reads and then writes can fail with
//     SQLITE_BUSY_SNAPSHOT (no retry possible) when another connection wrote
//     in between; taking the lock up front turns that into a wait.
//   - _time_format=sqlite, _timezone=UTC: times are written as sortable UTC
//     text, so keyset comparisons on created_at compare correctly as strings.
var (
	sqlitePragmas = []struct{ name, value string }{
		{"foreign_keys", "1"},
		{"journal_mode", "WAL"},
		{"busy_timeout", "10000"},
		{"synchronous", "NORMAL"},
	}
	sqliteParams = []struct{ name, value string }{
		{"_txlock", "immediate"},
		{"_time_format", "sqlite"},
		{"_timezone", "UTC"},
	}
)

// sqliteDefaultMaxOpenConns allows concurrent readers (WAL) while writers
// serialise on SQLite's lock through busy_timeout. A single connection would
// be simpler but deadlocks the moment code reads through the client while it
// holds a transaction; several connections turn that case into a short wait.
const sqliteDefaultMaxOpenConns = 4

// sqliteDSN adds the platform's settings to a path or "file:" URI and reports
// whether it names an in-memory database.
func sqliteDSN(dsn string) (string, bool, error) {
	base, rawQuery, _ := strings.Cut(dsn, "?")
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return "", false, fmt.Errorf("db: invalid SQLite DSN parameters: %w", err)
	}
	memory := strings.Contains(base, ":memory:") || q.Get("mode") == "memory"
	set := map[string]bool{}
	for _, p := range q["_pragma"] {
		name, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(p)), "(")
		name, _, _ = strings.Cut(name, "=")
		set[strings.TrimSpace(name)] = true
	}
	for _, p := range sqlitePragmas {
		if set[p.name] || (memory && p.name == "journal_mode") {
			continue
		}
		q.Add("_pragma", p.name+"("+p.value+")")
	}
	for _, p := range sqliteParams {
		if q.Get(p.name) == "" {
			q.Set(p.name, p.value)
		}
	}
	return base + "?" + q.Encode(), memory, nil
}

func openSQLite(ctx context.Context, cfg Config) (*DB, error) {
	dsn, memory, err := sqliteDSN(cfg.DSN)
	if err != nil {
		return nil, err
	}
	sqlDB, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("db: open SQLite: %w", err)
	}
	maxOpen := cfg.MaxOpenConns
	if maxOpen == 0 {
		maxOpen = sqliteDefaultMaxOpenConns
	}
	if memory {
		// Every connection to ":memory:" is its own empty database.
		maxOpen = 1
	}
	maxIdle := cfg.MaxIdleConns
	if maxIdle == 0 || maxIdle > maxOpen {
		// Reopening a connection re-runs the pragmas and, for memory
		// databases, loses the data: keep them all.
		maxIdle = maxOpen
	}
	sqlDB.SetMaxOpenConns(maxOpen)
	sqlDB.SetMaxIdleConns(maxIdle)
	if cfg.ConnMaxLifetime > 0 && !memory {
		sqlDB.SetConnMaxLifetime(cfg.ConnMaxLifetime)
	}
	if err := sqlDB.PingContext(ctx); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("db: open SQLite %q: %w", cfg.DSN, err)
	}
	drv := entsql.OpenDB(dialect.SQLite, sqlDB)
	return &DB{
		Ent:    ent.NewClient(ent.Driver(recordingDriver{drv})),
		SQL:    sqlDB,
		driver: DriverSQLite,
	}, nil
}
