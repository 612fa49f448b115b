package cancellation_test

import (
	"context"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/returns/cancellation"
)

// TestLatestForOrders: the order reads' lookup answers each order's latest
// request, the seller's only, the same on the pgx pool (PostgreSQL outside
// a transaction), through ent, and inside a transaction seeing its writes.
func TestLatestForOrders(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		for _, s := range []string{"sel_a", "sel_b"} {
			if err := d.Ent.Seller.Create().SetID(s).SetName(s).SetShopName(s).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		st := cancellation.NewEntStore(d)
		for _, r := range []*cancellation.Request{
			request("ccr_1", "sel_a", "ord_1", t0),
			request("ccr_2", "sel_a", "ord_2", t0),
			request("ccr_b", "sel_b", "ord_b", t0),
		} {
			if err := st.Create(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		// ord_1's first request rejected, then asked again.
		if ok, err := st.Decide(ctx, "sel_a", "ccr_1", cancellation.Rejected, "Already packed", t0.Add(time.Hour)); !ok || err != nil {
			t.Fatalf("reject: %v %v", ok, err)
		}
		if err := st.Create(ctx, request("ccr_1b", "sel_a", "ord_1", t0.Add(2*time.Hour))); err != nil {
			t.Fatal(err)
		}
		check := func(ctx context.Context, what string) {
			got, err := st.LatestForOrders(ctx, "sel_a", []string{"ord_1", "ord_2", "ord_b", "ord_none"})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 || got["ord_1"].ID != "ccr_1b" || got["ord_1"].Status != cancellation.Pending ||
				got["ord_2"].ID != "ccr_2" || !got["ord_2"].RespondBy.Equal(cancellation.RespondBy(t0)) || got["ord_2"].Reason != "changed my mind" {
				t.Errorf("%s: %+v", what, got)
			}
			one, err := st.LatestForOrders(ctx, "sel_a", []string{"ord_1"})
			if err != nil || len(one) != 1 || one["ord_1"].ID != "ccr_1b" {
				t.Errorf("%s, one order: %+v %v", what, one, err)
			}
		}
		check(ctx, "outside a transaction")
		if err := db.InTx(ctx, d.Ent, func(ctx context.Context) error {
			if _, err := st.Decide(ctx, "sel_a", "ccr_2", cancellation.Approved, "", t0.Add(time.Hour)); err != nil {
				return err
			}
			got, err := st.LatestForOrders(ctx, "sel_a", []string{"ord_2"})
			if err != nil || got["ord_2"].Status != cancellation.Approved || got["ord_2"].DecidedAt == nil {
				t.Errorf("inside the transaction: %+v %v", got["ord_2"], err)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if got, _ := st.LatestForOrders(ctx, "sel_b", []string{"ord_1", "ord_2"}); len(got) != 0 {
			t.Errorf("another seller reads %+v", got)
		}
	})
}
