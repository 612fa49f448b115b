package db_test

import (
	"context"
	"errors"
	"testing"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
)

// Stores of different domains joined by the transaction in the context:
// a failure after both wrote rolls back both; success commits both.
func TestTxInContextJoinsStores(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		// Two "stores" that each run their own unit of work with WithTx
		// and InTx on the same base client.
		storeA := func(ctx context.Context, id string) error {
			return db.WithTx(ctx, d.Ent, func(tx *ent.Tx) error {
				_, err := tx.Seller.Create().SetID(id).SetName("a").SetShopName("a").Save(ctx)
				return err
			})
		}
		storeB := func(ctx context.Context, id string) error {
			return db.InTx(ctx, d.Ent, func(ctx context.Context) error {
				_, err := db.Client(ctx, d.Ent).Seller.Create().SetID(id).SetName("b").SetShopName("b").Save(ctx)
				return err
			})
		}
		errBoom := errors.New("boom")
		err := db.InTx(ctx, d.Ent, func(ctx context.Context) error {
			if _, ok := db.TxFromContext(ctx); !ok {
				t.Fatal("InTx gave no transaction in the context")
			}
			if err := storeA(ctx, "slr_ctx_a1"); err != nil {
				return err
			}
			if err := storeB(ctx, "slr_ctx_b1"); err != nil {
				return err
			}
			return errBoom
		})
		if !errors.Is(err, errBoom) {
			t.Fatalf("InTx error = %v, want boom", err)
		}
		for _, id := range []string{"slr_ctx_a1", "slr_ctx_b1"} {
			if _, err := d.Ent.Seller.Get(ctx, id); !ent.IsNotFound(err) {
				t.Errorf("%s after rollback: got %v, want not found", id, err)
			}
		}
		err = db.InTx(ctx, d.Ent, func(ctx context.Context) error {
			if err := storeA(ctx, "slr_ctx_a2"); err != nil {
				return err
			}
			return storeB(ctx, "slr_ctx_b2")
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"slr_ctx_a2", "slr_ctx_b2"} {
			if _, err := d.Ent.Seller.Get(ctx, id); err != nil {
				t.Errorf("%s after commit: %v", id, err)
			}
		}
		if got := db.Client(ctx, d.Ent); got != d.Ent {
			t.Error("Client without a transaction in the context is not the fallback")
		}
	})
}
