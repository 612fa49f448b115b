package worker_test

import (
	"context"
	"errors"
	"testing"

	"github.com/riverqueue/river"

	"github.com/mallplatform/partnerapi/ent/seller"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/worker"
)

type probeArgs struct {
	N int `json:"n"`
}

func (probeArgs) Kind() string { return "test.probe" }

func countJobs(t *testing.T, d *db.DB) int {
	t.Helper()
	var n int
	if err := d.SQL.QueryRow("SELECT count(*) FROM river_job WHERE kind = 'test.probe'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A job inserted in a change's transaction commits with it and rolls back
// with it; outside a transaction it is refused.
func TestInserterJoinsTheChangesTransaction(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if err := db.MigrateRiver(ctx, d); err != nil {
			t.Fatal(err)
		}
		ins, err := worker.NewInserter(d)
		if err != nil {
			t.Fatal(err)
		}
		change := func(id string, fail bool) error {
			return db.InTx(ctx, d.Ent, func(ctx context.Context) error {
				if _, err := db.Client(ctx, d.Ent).Seller.Create().SetID(id).SetName("x").SetShopName("x").Save(ctx); err != nil {
					return err
				}
				if err := ins.InsertTx(ctx, river.InsertManyParams{Args: probeArgs{N: 1}}); err != nil {
					return err
				}
				if fail {
					return errors.New("the change fails after the insert")
				}
				return nil
			})
		}
		if err := change("slr_rolled", true); err == nil {
			t.Fatal("the failing change committed")
		}
		if n := countJobs(t, d); n != 0 {
			t.Fatalf("%d jobs after a rollback, want 0", n)
		}
		if ok, _ := d.Ent.Seller.Query().Where(seller.ID("slr_rolled")).Exist(ctx); ok {
			t.Fatal("the rolled-back seller exists")
		}
		if err := change("slr_kept", false); err != nil {
			t.Fatal(err)
		}
		if n := countJobs(t, d); n != 1 {
			t.Fatalf("%d jobs after a commit, want 1", n)
		}
		if err := ins.InsertTx(ctx, river.InsertManyParams{Args: probeArgs{N: 2}}); err == nil {
			t.Fatal("a job outside any transaction was inserted")
		}
	})
}
