package db

import (
	"context"
	"fmt"

	"github.com/mallplatform/partnerapi/ent"
)

// txKey carries the transaction a request runs in.
type txKey struct{}

// ContextWithTx returns ctx carrying tx: every store that reads its client
// through Client runs on tx, so stores of different domains (an order's
// cancellation, its restock, its events, the idempotency key that guards it)
// commit or roll back together.
func ContextWithTx(ctx context.Context, tx *ent.Tx) context.Context {
	return context.WithValue(ctx, txKey{}, tx)
}

// TxFromContext returns the transaction ctx carries, if any.
func TxFromContext(ctx context.Context) (*ent.Tx, bool) {
	tx, ok := ctx.Value(txKey{}).(*ent.Tx)
	return tx, ok && tx != nil
}

// Client is the client a store's queries use: the transaction's when ctx
// carries one, fallback otherwise.
func Client(ctx context.Context, fallback *ent.Client) *ent.Client {
	if tx, ok := TxFromContext(ctx); ok {
		return tx.Client()
	}
	return fallback
}

// InTx runs fn with a transaction in its context and commits when fn returns
// nil. When ctx already carries a transaction fn joins it: the outermost
// caller commits or rolls back, so a store's own unit of work becomes part of
// the request's. A panic in fn rolls back and is re-raised.
func InTx(ctx context.Context, client *ent.Client, fn func(ctx context.Context) error) error {
	if _, ok := TxFromContext(ctx); ok {
		return fn(ctx)
	}
	// The holder travels with the transaction: SQLTx finds the *sql.Tx
	// under it (clients opened by Open record it; others leave it empty).
	ctx = context.WithValue(ctx, sqlTxKey{}, &sqlTxHolder{})
	return begin(ctx, client, func(tx *ent.Tx) error { return fn(ContextWithTx(ctx, tx)) })
}

// WithTx runs fn in a transaction and commits when it returns nil: the
// transaction ctx carries when there is one (its owner commits), a new one
// otherwise. A state change, its idempotency record and the webhook events
// it emits must commit together, so services go through this (or InTx)
// rather than hand-rolling Begin and Rollback.
func WithTx(ctx context.Context, client *ent.Client, fn func(tx *ent.Tx) error) error {
	if tx, ok := TxFromContext(ctx); ok {
		return fn(tx)
	}
	return begin(ctx, client, fn)
}

func begin(ctx context.Context, client *ent.Client, fn func(tx *ent.Tx) error) (err error) {
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
