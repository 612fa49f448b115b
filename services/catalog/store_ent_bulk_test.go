package catalog_test

import (
	"context"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/catalog"
)

// On PostgreSQL another transaction can commit a short id after the batch
// looked its ids up: the COPY that meets it waits for that transaction, is
// refused, rolls back to its savepoint and copies again with a redrawn id,
// in the same transaction.
func TestCreateProductsRedrawsShortIDTakenMeanwhile(t *testing.T) {
	d := dbtest.Postgres(t)
	h := newHarness(t, d)
	ctx := context.Background()
	at := h.clock.Business(ctx)
	other, mine := storedProduct(sellerB, catalog.StatusLive, at), storedProduct(sellerA, catalog.StatusProposed, at)
	mine.ShortID = other.ShortID

	inserted, release, otherDone := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		otherDone <- db.InTx(ctx, d.Ent, func(ctx context.Context) error {
			if err := h.store.CreateProduct(ctx, other); err != nil {
				close(inserted)
				return err
			}
			close(inserted)
			<-release
			return nil
		})
	}()
	<-inserted
	mineDone := make(chan error, 1)
	draws := 0
	go func() {
		mineDone <- h.store.CreateProducts(ctx, []*catalog.Product{mine}, func() string { draws++; return shortID() })
	}()
	// The batch's COPY waits on the other transaction's row lock.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var waiting int
		err := d.SQL.QueryRowContext(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting)
		if err != nil {
			t.Fatal(err)
		}
		if waiting > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the batch never waited on the other transaction")
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(release)
	if err := <-otherDone; err != nil {
		t.Fatal(err)
	}
	if err := <-mineDone; err != nil {
		t.Fatalf("batch: %v", err)
	}
	if draws != 1 || mine.ShortID == other.ShortID {
		t.Errorf("draws %d, short id %s (other's %s)", draws, mine.ShortID, other.ShortID)
	}
	got, err := h.store.GetProduct(ctx, sellerA, mine.ID)
	if err != nil || got.ShortID != mine.ShortID || len(got.Variants) != 1 {
		t.Errorf("stored %v, %v", got, err)
	}
}
