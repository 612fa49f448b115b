package db

import (
	"context"
	"fmt"

	"github.com/mallplatform/partnerapi/ent"
)

// WithTx runs fn in a transaction and commits when it returns nil. A state
// change, its idempotency record and the webhook events it emits must commit
// together, so services go through this rather than hand-rolling Begin and
// Rollback. A panic in fn rolls back and is re-raised.
func WithTx(ctx context.Context, client *ent.Client, fn func(tx *ent.Tx) error) (err error) {
	tx, err := client.Tx(ctx)
	if err != nil {
		return fmt.Errorf("db: begin: %w", err)
	}
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
	}()
	if err := fn(tx); err != nil {
		if rerr := tx.Rollback(); rerr != nil {
			return fmt.Errorf("%w (rollback: %v)", err, rerr)
		}
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("db: commit: %w", err)
	}
	return nil
}
