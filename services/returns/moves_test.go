package returns_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/ent/event"
	"github.com/mallplatform/partnerapi/ent/returnrefund"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/deadline"
	"github.com/mallplatform/partnerapi/internal/pagination"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/returns"
	"github.com/mallplatform/partnerapi/services/sandbox/shopclock"
)

// stepOrders stands in for the orders service: it counts the refund
// steps the returns take.
type stepOrders struct {
	mu       sync.Mutex
	refunded map[string]int
}

func (o *stepOrders) GetOrder(context.Context, string) (orders.View, error) {
	return orders.View{}, apierr.New(apierr.NotFound, "order not found")
}

func (o *stepOrders) Refund(_ context.Context, _, orderID string) (bool, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.refunded[orderID]++
	return true, nil
}

func newMovesService(t *testing.T, d *db.DB, business clock.Business) (*returns.Service, *stepOrders) {
	t.Helper()
	o := &stepOrders{refunded: map[string]int{}}
	svc, err := returns.New(returns.Config{Store: returns.NewEntStore(d), Ledger: returns.NewEntLedger(d), InTx: inTx(d),
		Business: business, Cursors: pagination.RandomCursors(), Events: events.NewRecorder(events.NewEntStore(d), nil), Orders: o})
	if err != nil {
		t.Fatal(err)
	}
	return svc, o
}

func eventsOf(t *testing.T, d *db.DB, id string) map[string]int {
	t.Helper()
	es, err := d.Ent.Event.Query().Where(event.ResourceID(id)).All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, e := range es {
		out[e.Type]++
	}
	return out
}

// TestConcurrentApproveReject: the seller's approve and reject racing on
// one request, many times over: exactly one wins, the other is refused,
// and one event is recorded.
func TestConcurrentApproveReject(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		addSeller(t, d, "sel_a")
		svc, _ := newMovesService(t, d, clock.NewManual(t0.Add(time.Hour)))
		st := returns.NewEntStore(d)
		asA := principal.WithSeller(ctx, "sel_a")
		for i := range 10 {
			id := fmt.Sprintf("ret_race_%d", i)
			if err := st.Create(ctx, newReturn(id, "sel_a", "ord_1", t0, false)); err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			errs := make([]error, 2)
			wg.Go(func() { _, errs[0] = svc.Approve(asA, id, returns.Approval{}) })
			wg.Go(func() { _, errs[1] = svc.Reject(asA, id, returns.Rejection{Reason: "worn", Note: "tags off"}) })
			wg.Wait()
			if (errs[0] == nil) == (errs[1] == nil) {
				t.Fatalf("%s: approve %v, reject %v; exactly one must win", id, errs[0], errs[1])
			}
			for _, err := range errs {
				if c := apiCode(err); err != nil && c != apierr.InvalidTransition &&
					apierr.Name(c) != "RETURN_ALREADY_PROCESSED" && c != apierr.ConcurrentModification {
					t.Fatalf("%s: the loser's answer %v", id, err)
				}
			}
			got := eventsOf(t, d, id)
			if got["return.approved"]+got["return.rejected"] != 1 {
				t.Fatalf("%s: events %v", id, got)
			}
		}
	})
}

// TestAutomaticMoveRace: after a test shop's clock jumps past the
// deadlines, the deadline sweep and the seller's reads race on the same
// returns: each automatic move applies, refunds and records its event
// exactly once.
func TestAutomaticMoveRace(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if err := d.Ent.Seller.Create().SetID("sel_t").SetName("t").SetShopName("t shop").SetTestShop(true).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		wall := clock.NewManual(t0)
		sc, err := shopclock.New(shopclock.Config{Wall: wall, Store: shopclock.NewEntStore(d.Ent)})
		if err != nil {
			t.Fatal(err)
		}
		svc, steps := newMovesService(t, d, sc)
		job, err := deadline.NewJob[returns.DeadlineArgs](svc.Subject(), deadline.JobConfig{Business: sc, Shops: deadline.NewEntShops(d.Ent)})
		if err != nil {
			t.Fatal(err)
		}
		st := returns.NewEntStore(d)
		var ids []string
		for i := range 6 {
			id := fmt.Sprintf("ret_auto_%d", i)
			ids = append(ids, id)
			if err := st.Create(ctx, newReturn(id, "sel_t", "ord_"+id, t0, i%2 == 0)); err != nil {
				t.Fatal(err)
			}
		}
		// Four days on the shop's clock: every response deadline passed.
		if _, err := sc.Advance(ctx, "sel_t", 4*24*time.Hour); err != nil {
			t.Fatal(err)
		}
		asT := principal.WithSeller(ctx, "sel_t")
		var wg sync.WaitGroup
		errs := make(chan error, 2*len(ids)+1)
		wg.Go(func() {
			if _, err := job.Run(ctx); err != nil {
				errs <- err
			}
		})
		for _, id := range ids {
			wg.Go(func() {
				if _, err := svc.Get(asT, id); err != nil {
					errs <- err
				}
			})
		}
		wg.Go(func() {
			if _, _, _, err := svc.List(asT, returns.Filter{}, returns.Page{Limit: 10}); err != nil {
				errs <- err
			}
		})
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		for i, id := range ids {
			got := eventsOf(t, d, id)
			v, err := svc.Get(asT, id)
			if err != nil {
				t.Fatal(err)
			}
			refundOnly := i%2 == 0
			switch {
			case refundOnly && (v.Status != returns.Refunded || got["return.refunded"] != 1 || len(got) != 1 ||
				len(v.Refunds) != 1 || v.Refunds[0].Source != returns.RefundByDeadline || steps.refunded["ord_"+id] != 1):
				t.Errorf("%s (refund only): %s, events %v, refunds %+v, order steps %d", id, v.Status, got, v.Refunds, steps.refunded["ord_"+id])
			case !refundOnly && (v.Status != returns.Approved || got["return.approved"] != 1 || len(got) != 1):
				t.Errorf("%s: %s, events %v", id, v.Status, got)
			}
		}
	})
}

// TestRefundCommitsWithTheMove: a refund the ledger refuses leaves the
// return as it was, with no event: the two commit together or not at all.
func TestRefundCommitsWithTheMove(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		addSeller(t, d, "sel_a")
		svc, steps := newMovesService(t, d, clock.NewManual(t0.Add(time.Hour)))
		st := returns.NewEntStore(d)
		if err := st.Create(ctx, newReturn("ret_only", "sel_a", "ord_only", t0, true)); err != nil {
			t.Fatal(err)
		}
		// A ledger entry already holds the return's one refund.
		if err := returns.NewEntLedger(d).Refund(ctx, returns.RefundRecord{ID: "rfd_x", SellerID: "sel_a", ReturnID: "ret_only",
			OrderID: "ord_only", Amount: 1, Requested: 1, Currency: "PHP", Source: returns.RefundBySeller, CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
		asA := principal.WithSeller(ctx, "sel_a")
		if _, err := svc.Approve(asA, "ret_only", returns.Approval{}); err == nil {
			t.Fatal("a second refund of the return was accepted")
		}
		v, err := svc.Get(asA, "ret_only")
		if err != nil {
			t.Fatal(err)
		}
		if v.Status != returns.Requested || v.RefundedAmount != 0 || len(eventsOf(t, d, "ret_only")) != 0 || steps.refunded["ord_only"] != 0 {
			t.Errorf("after a refused refund: %s %d, events %v", v.Status, v.RefundedAmount, eventsOf(t, d, "ret_only"))
		}
		if n, _ := d.Ent.ReturnRefund.Query().Where(returnrefund.ReturnID("ret_only")).Count(ctx); n != 1 {
			t.Errorf("%d ledger entries", n)
		}
	})
}
