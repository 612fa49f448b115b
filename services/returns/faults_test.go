package returns_test

import (
	"context"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/pagination"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/returns"
	"github.com/mallplatform/partnerapi/services/sandbox/faults"
)

// shopOrders stands in for the orders service's seller-scoped read: an
// order of another shop is not found, as GetOrder answers it.
type shopOrders struct {
	stepOrders
	byID map[string]*orders.Order
}

func (o *shopOrders) GetOrder(ctx context.Context, id string) (orders.View, error) {
	seller, _ := principal.Seller(ctx)
	if ord, ok := o.byID[id]; ok && ord.SellerID == seller {
		return orders.View{Order: ord, Status: ord.Status}, nil
	}
	return orders.View{}, apierr.New(apierr.NotFound, "order not found")
}

// TestFaultTakenOnlyOnTheShopsOwnRecord: a queued failure is the answer of
// the shop's next move on a return (or filing against an order) of its
// own; a request for an unknown id or another shop's answers 404 and
// leaves the queue as it was. The failure taken counts although the move
// fails.
func TestFaultTakenOnlyOnTheShopsOwnRecord(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		addSeller(t, d, "sel_a")
		addSeller(t, d, "sel_b")
		st := returns.NewEntStore(d)
		for _, r := range []*returns.Return{newReturn("ret_a", "sel_a", "ord_1", t0, false), newReturn("ret_b", "sel_b", "ord_2", t0, false)} {
			if err := st.Create(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		delivered := func(id, seller string) *orders.Order {
			return &orders.Order{ID: id, SellerID: seller, Status: orders.StatusDelivered, Currency: "PHP",
				Items: []orders.Item{{ID: id + "_i1", Quantity: 1, UnitPrice: 50000, TotalPrice: 50000}}}
		}
		ords := &shopOrders{stepOrders: stepOrders{refunded: map[string]int{}},
			byID: map[string]*orders.Order{"ord_a": delivered("ord_a", "sel_a"), "ord_b": delivered("ord_b", "sel_b")}}
		queue := faults.NewStore(d)
		svc, err := returns.New(returns.Config{Store: st, Ledger: returns.NewEntLedger(d), InTx: inTx(d),
			Business: clock.NewManual(t0.Add(time.Hour)), Cursors: pagination.RandomCursors(),
			Events: events.NewRecorder(events.NewEntStore(d), nil), Orders: ords, Faults: queue})
		if err != nil {
			t.Fatal(err)
		}
		asA := principal.WithSeller(ctx, "sel_a")
		pending := func() int {
			t.Helper()
			_, n, err := queue.Pending(ctx, "sel_a", returns.FaultTarget)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}

		if err := queue.Set(ctx, "sel_a", returns.FaultTarget, returns.FaultApproveFailed, 1); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"ret_none", "ret_b"} {
			if _, err := svc.Approve(asA, id, returns.Approval{}); apiCode(err) != apierr.NotFound {
				t.Fatalf("approving %s: %v, want NOT_FOUND", id, err)
			}
		}
		if n := pending(); n != 1 {
			t.Fatalf("after two requests for returns not the shop's: %d failures queued, want 1", n)
		}
		if _, err := svc.Approve(asA, "ret_a", returns.Approval{}); apierr.Name(apiCode(err)) != returns.FaultApproveFailed {
			t.Fatalf("approving the shop's own return: %v, want the queued APPROVE_FAILED", err)
		}
		if n := pending(); n != 0 {
			t.Fatalf("after the failed move: %d failures queued, want 0", n)
		}
		if r, err := st.Get(ctx, "sel_a", "ret_a"); err != nil || r.Status != returns.Requested {
			t.Fatalf("the return after the failed move: %+v %v", r, err)
		}
		if v, err := svc.Approve(asA, "ret_a", returns.Approval{}); err != nil || v.Status != returns.Approved {
			t.Fatalf("the next approval: %+v %v", v, err)
		}

		// Filing a test return: the order is looked up first the same way.
		if err := queue.Set(ctx, "sel_a", returns.FaultTarget, returns.FaultCreateFailed, 1); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"ord_none", "ord_b"} {
			if _, err := svc.CreateTest(asA, returns.TestReturn{OrderID: id, Reason: "x"}); apiCode(err) != apierr.NotFound {
				t.Fatalf("filing against %s: %v, want NOT_FOUND", id, err)
			}
		}
		if n := pending(); n != 1 {
			t.Fatalf("after two filings against orders not the shop's: %d failures queued, want 1", n)
		}
		if _, err := svc.CreateTest(asA, returns.TestReturn{OrderID: "ord_a", Reason: "x"}); apierr.Name(apiCode(err)) != returns.FaultCreateFailed {
			t.Fatalf("filing against the shop's own order: %v, want the queued CREATE_FAILED", err)
		}
		if n := pending(); n != 0 {
			t.Fatalf("after the failed filing: %d failures queued, want 0", n)
		}
		if v, err := svc.CreateTest(asA, returns.TestReturn{OrderID: "ord_a", Reason: "x"}); err != nil || v.Status != returns.Requested {
			t.Fatalf("the next filing: %+v %v", v, err)
		}
	})
}
