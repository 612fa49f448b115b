package db

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Backends understood by Open.
const (
	// DriverPostgres is production: pgx/v5 pool, versioned migrations.
	DriverPostgres = "postgres"
	// DriverSQLite is the all-in-one dev role and quick tests: one local
	// file, schema created by ent's auto migration, never versioned.
	DriverSQLite = "sqlite"
)

// Config selects and tunes the database. Zero pool fields mean "backend
// default" (see Open).
type Config struct {
	// Driver is DriverPostgres or DriverSQLite.
	Driver string
	// DSN is a libpq-style URL or keyword/value string for PostgreSQL (pgx
	// and pgxpool parameters such as pool_max_conn_idle_time are honoured),
	// or a file path / "file:" URI for SQLite.
	DSN string
	// MaxOpenConns caps connections to the database: pgxpool's MaxConns on
	// PostgreSQL, database/sql's limit on SQLite.
	MaxOpenConns int
	// MaxIdleConns applies to SQLite only. On PostgreSQL idle connections are
	// owned by pgxpool (database/sql keeps none of its own); tune them with
	// pool_max_conn_idle_time and pool_min_idle_conns in the DSN.
	MaxIdleConns int
	// ConnMaxLifetime recycles connections so that load balancers and
	// failovers in front of PostgreSQL spread load again. Zero keeps the
	// backend default (pgxpool: one hour; SQLite: forever).
	ConnMaxLifetime time.Duration
	// QueryTracer sees every PostgreSQL statement (telemetry's, when
	// tracing is on); nil traces nothing. SQLite ignores it.
	QueryTracer pgx.QueryTracer
}

// Validate reports configuration mistakes before any connection is tried, so
// a bad deployment fails at start-up with a readable message.
func (c Config) Validate() error {
	var errs []error
	switch c.Driver {
	case DriverPostgres, DriverSQLite:
	case "":
		errs = append(errs, errors.New("db: driver is required (postgres or sqlite)"))
	default:
		errs = append(errs, fmt.Errorf("db: unknown driver %q (want postgres or sqlite)", c.Driver))
	}
	if strings.TrimSpace(c.DSN) == "" {
		errs = append(errs, errors.New("db: DSN is required"))
	}
	if c.MaxOpenConns < 0 {
		errs = append(errs, fmt.Errorf("db: MaxOpenConns must be >= 0, got %d", c.MaxOpenConns))
	}
	if c.MaxOpenConns > 1<<20 {
		errs = append(errs, fmt.Errorf("db: MaxOpenConns %d is not a sane pool size", c.MaxOpenConns))
	}
	if c.MaxIdleConns < 0 {
		errs = append(errs, fmt.Errorf("db: MaxIdleConns must be >= 0, got %d", c.MaxIdleConns))
	}
	if c.MaxOpenConns > 0 && c.MaxIdleConns > c.MaxOpenConns {
		errs = append(errs, fmt.Errorf("db: MaxIdleConns (%d) exceeds MaxOpenConns (%d)", c.MaxIdleConns, c.MaxOpenConns))
	}
	if c.ConnMaxLifetime < 0 {
		errs = append(errs, fmt.Errorf("db: ConnMaxLifetime must be >= 0, got %s", c.ConnMaxLifetime))
	}
	return errors.Join(errs...)
}
