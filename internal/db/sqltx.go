package db

import (
	"context"
	"database/sql"
	"errors"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// recordingDriver is ent's SQL driver that also hands the *sql.Tx under each
// transaction it begins to the holder the context carries, so that what is
// not ent (River's job inserts) writes in the same transaction. On
// PostgreSQL the transaction runs on a connection held apart from the pool
// (*sql.Conn), which PgxConn reaches for what database/sql cannot send
// (COPY).
type recordingDriver struct {
	*entsql.Driver
}

// Tx implements dialect.Driver.
func (d recordingDriver) Tx(ctx context.Context) (dialect.Tx, error) { return d.BeginTx(ctx, nil) }

// BeginTx is what ent's Client.BeginTx looks for.
func (d recordingDriver) BeginTx(ctx context.Context, opts *sql.TxOptions) (dialect.Tx, error) {
	h, ok := ctx.Value(sqlTxKey{}).(*sqlTxHolder)
	if !ok || d.Dialect() != dialect.Postgres {
		tx, err := d.Driver.BeginTx(ctx, opts)
		if err != nil {
			return nil, err
		}
		if etx, isEnt := tx.(*entsql.Tx); ok && isEnt {
			h.tx, _ = etx.Tx.(*sql.Tx)
		}
		return tx, nil
	}
	conn, err := d.DB().Conn(ctx)
	if err != nil {
		return nil, err
	}
	tx, err := conn.BeginTx(ctx, opts)
	if err != nil {
		_ = conn.Close()
		return nil, err
	}
	h.tx, h.conn = tx, conn
	// ent's Tx over the same connection: the driver's Conn keeps its
	// dialect, with the transaction as what it runs statements on.
	c := d.Conn
	c.ExecQuerier = tx
	return &entsql.Tx{Conn: c, Tx: connTx{Tx: tx, conn: conn}}, nil
}

// connTx ends a transaction and then hands its connection back to the pool.
type connTx struct {
	*sql.Tx
	conn *sql.Conn
}

// Commit implements driver.Tx.
func (t connTx) Commit() error {
	err := t.Tx.Commit()
	return errors.Join(err, t.conn.Close())
}

// Rollback implements driver.Tx.
func (t connTx) Rollback() error {
	err := t.Tx.Rollback()
	return errors.Join(err, t.conn.Close())
}

type sqlTxKey struct{}

// sqlTxHolder receives the *sql.Tx of the transaction begun with it in the
// context, and on PostgreSQL the connection it runs on.
type sqlTxHolder struct {
	tx   *sql.Tx
	conn *sql.Conn
}

// SQLTx is the database/sql transaction under the transaction ctx carries:
// River inserts jobs in it (riverdatabasesql on PostgreSQL, riversqlite on
// SQLite), so a job commits or rolls back with the change that made it.
func SQLTx(ctx context.Context) (*sql.Tx, bool) {
	h, ok := ctx.Value(sqlTxKey{}).(*sqlTxHolder)
	if !ok || h.tx == nil {
		return nil, false
	}
	return h.tx, true
}

// ErrNoPgxConn is PgxConn's answer when ctx carries no PostgreSQL
// transaction begun by InTx.
var ErrNoPgxConn = errors.New("db: no PostgreSQL transaction in the context")

// PgxConn runs fn with the pgx connection of the PostgreSQL transaction ctx
// carries, so that fn's statements (pgx's CopyFrom: COPY is several times
// faster than INSERT for thousands of rows) commit or roll back with it.
// The transaction's other statements wait until fn returns; fn must not use
// the transaction through database/sql or ent meanwhile. Without such a
// transaction (SQLite, or no InTx) it returns ErrNoPgxConn and does not call
// fn.
func PgxConn(ctx context.Context, fn func(conn *pgx.Conn) error) error {
	h, ok := ctx.Value(sqlTxKey{}).(*sqlTxHolder)
	if !ok || h.conn == nil {
		return ErrNoPgxConn
	}
	return h.conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return ErrNoPgxConn
		}
		return fn(c.Conn())
	})
}
