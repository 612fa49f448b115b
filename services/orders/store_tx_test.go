package orders

import (
	"context"
	"errors"
	"testing"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/catalog"
)

// Stores of different domains take part in one transaction carried by the
// context: an order and a catalog change roll back together and commit
// together, and an order read inside the transaction sees its writes (on
// PostgreSQL too, where reads outside one take the pgx fast path).
func TestOrdersJoinTheContextTransaction(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		orders := newTestStore(t, d, "sel_a")
		cats := catalog.NewEntStore(d)
		category := []catalog.Category{{ID: "900001", Name: "Pets", Active: true, Position: 10}}
		write := func(ctx context.Context, id string) error {
			if err := orders.CreateOrders(ctx, []*Order{fixture(id, "sel_a", StatusPaid, t0)}); err != nil {
				return err
			}
			if o, err := orders.GetOrder(ctx, "sel_a", id); err != nil || o.ID != id {
				t.Fatalf("the transaction's own order: %v %v", o, err)
			}
			_, err := cats.InsertTaxonomy(ctx, category, nil)
			return err
		}
		errBoom := errors.New("boom")
		err := db.InTx(ctx, d.Ent, func(ctx context.Context) error {
			if err := write(ctx, "ord_tx_1"); err != nil {
				return err
			}
			return errBoom
		})
		if !errors.Is(err, errBoom) {
			t.Fatal(err)
		}
		if _, err := orders.GetOrder(ctx, "sel_a", "ord_tx_1"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("order after rollback: %v", err)
		}
		if _, err := cats.GetCategory(ctx, "900001"); err == nil {
			t.Fatal("category after rollback")
		}
		if err := db.InTx(ctx, d.Ent, func(ctx context.Context) error { return write(ctx, "ord_tx_2") }); err != nil {
			t.Fatal(err)
		}
		if _, err := orders.GetOrder(ctx, "sel_a", "ord_tx_2"); err != nil {
			t.Fatalf("order after commit: %v", err)
		}
		if _, err := cats.GetCategory(ctx, "900001"); err != nil {
			t.Fatalf("category after commit: %v", err)
		}
	})
}
