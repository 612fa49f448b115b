package db

import (
	"context"
	"database/sql"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
)

// recordingDriver is ent's SQL driver that also hands the *sql.Tx under each
// transaction it begins to the holder the context carries, so that what is
// not ent (River's job inserts) writes in the same transaction.
type recordingDriver struct {
	*entsql.Driver
}

// Tx implements dialect.Driver.
func (d recordingDriver) Tx(ctx context.Context) (dialect.Tx, error) { return d.BeginTx(ctx, nil) }

// BeginTx is what ent's Client.BeginTx looks for.
func (d recordingDriver) BeginTx(ctx context.Context, opts *sql.TxOptions) (dialect.Tx, error) {
	tx, err := d.Driver.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	if h, ok := ctx.Value(sqlTxKey{}).(*sqlTxHolder); ok {
		if etx, ok := tx.(*entsql.Tx); ok {
			h.tx, _ = etx.Tx.(*sql.Tx)
		}
	}
	return tx, nil
}

type sqlTxKey struct{}

// sqlTxHolder receives the *sql.Tx of the transaction begun with it in the
// context.
type sqlTxHolder struct{ tx *sql.Tx }

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
