package db_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/internal/db"
)

// The dev role serves concurrent requests from one SQLite file. Read-then-
// write transactions from many goroutines must all succeed: none may fail
// with SQLITE_BUSY, which is what deferred transactions would produce.
func TestSQLiteConcurrentTransactions(t *testing.T) {
	ctx := context.Background()
	d, err := db.Open(ctx, db.Config{Driver: db.DriverSQLite, DSN: filepath.Join(t.TempDir(), "dev.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := db.CreateSchema(ctx, d.Ent); err != nil {
		t.Fatal(err)
	}
	// CreateSchema on an existing schema is a no-op (dev restarts).
	if err := db.CreateSchema(ctx, d.Ent); err != nil {
		t.Fatalf("second CreateSchema: %v", err)
	}
	const workers, each = 8, 15
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				err := db.WithTx(ctx, d.Ent, func(tx *ent.Tx) error {
					n, err := tx.Seller.Query().Count(ctx)
					if err != nil {
						return err
					}
					_, err = tx.Seller.Create().SetID(fmt.Sprintf("slr_%d_%d", w, i)).
						SetName(fmt.Sprint(n)).SetShopName("s").Save(ctx)
					return err
				})
				if err != nil {
					errs <- err
				}
				// Reads outside any transaction run alongside the writers.
				if _, err := d.Ent.Seller.Query().Count(ctx); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n, err := d.Ent.Seller.Query().Count(ctx); err != nil || n != workers*each {
		t.Errorf("sellers = %d (%v), want %d", n, err, workers*each)
	}
	var mode string
	if err := d.SQL.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q (%v), want wal", mode, err)
	}
}

func TestSQLiteMemory(t *testing.T) {
	ctx := context.Background()
	d, err := db.Open(ctx, db.Config{Driver: db.DriverSQLite, DSN: ":memory:", MaxOpenConns: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got := d.SQL.Stats().MaxOpenConnections; got != 1 {
		t.Errorf("in-memory SQLite MaxOpenConnections = %d, want 1", got)
	}
	if err := db.CreateSchema(ctx, d.Ent); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Ent.Seller.Create().SetID("slr_1").SetName("s").SetShopName("s").Save(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := d.Ent.Seller.Query().Count(ctx); err != nil || n != 1 {
		t.Errorf("count = %d (%v), want 1", n, err)
	}
}
