package worker

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"

	"github.com/mallplatform/partnerapi/internal/db"
)

// Inserter puts jobs into River's queue inside the transaction a change runs
// in (db.SQLTx): the jobs commit with the change or not at all, and a worker
// picks them up once they did. Core holds one; it runs no jobs itself.
type Inserter struct {
	insert func(ctx context.Context, params []river.InsertManyParams) error
}

// NewInserter returns an insert-only River client on d: database/sql
// transactions on PostgreSQL (riverdatabasesql) and SQLite (riversqlite),
// the ones ent's transactions run on.
func NewInserter(d *db.DB) (*Inserter, error) {
	var drv riverdriver.Driver[*sql.Tx]
	switch d.Driver() {
	case db.DriverPostgres:
		drv = riverdatabasesql.New(d.SQL)
	case db.DriverSQLite:
		drv = riversqlite.New(d.SQL)
	default:
		return nil, fmt.Errorf("worker: inserter: unknown driver %q", d.Driver())
	}
	c, err := river.NewClient(drv, &river.Config{})
	if err != nil {
		return nil, fmt.Errorf("worker: inserter: %w", err)
	}
	return &Inserter{insert: func(ctx context.Context, params []river.InsertManyParams) error {
		tx, ok := db.SQLTx(ctx)
		if !ok {
			return errNoTx
		}
		_, err := c.InsertManyTx(ctx, tx, params)
		return err
	}}, nil
}

var errNoTx = errors.New("worker: jobs are inserted in the transaction of the change that makes them (db.InTx)")

// InsertTx inserts jobs in the transaction ctx carries; without one it
// refuses, since a job inserted beside a change could outlive its rollback.
func (i *Inserter) InsertTx(ctx context.Context, jobs ...river.InsertManyParams) error {
	if len(jobs) == 0 {
		return nil
	}
	if err := i.insert(ctx, jobs); err != nil {
		return fmt.Errorf("worker: insert jobs: %w", err)
	}
	return nil
}
