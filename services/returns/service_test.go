package returns_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/deadline"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/returns"
)

type recorded struct {
	mu     sync.Mutex
	events []string
}

func (r *recorded) record(_ context.Context, ret *returns.Return, m deadline.Move) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ret.ID+" "+m.To)
	return nil
}

func (r *recorded) list() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return fmt.Sprint(r.events)
}

// TestServiceReadsSettle: reads show every return as of the seller's
// business time, the automatic moves applied (once) before answering.
func TestServiceReadsSettle(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		addSeller(t, d, "sel_a")
		addSeller(t, d, "sel_b")
		st := returns.NewEntStore(d)
		rec := &recorded{}
		clk := clock.NewManual(t0)
		svc, err := returns.NewService(st, returns.NewSubject(st, rec.record, inTx(d)), clk)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			if err := st.Create(ctx, newReturn(fmt.Sprintf("ret_%d", i), "sel_a", "ord_1", t0.Add(time.Duration(i)*24*time.Hour), false)); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.Create(ctx, newReturn("ret_b", "sel_b", "ord_2", t0, false)); err != nil {
			t.Fatal(err)
		}
		asA := principal.WithSeller(ctx, "sel_a")
		if _, err := svc.Get(ctx, "ret_0"); apiCode(err) != apierr.SellerTokenRequired {
			t.Fatalf("a read without a seller: %v", err)
		}
		v, err := svc.Get(asA, "ret_0")
		if err != nil || v.Status != returns.Requested || len(v.NextActions) != 2 {
			t.Fatalf("a fresh request: %+v %v", v, err)
		}
		if _, err := svc.Get(asA, "ret_b"); apiCode(err) != apierr.NotFound {
			t.Fatalf("another seller's return: %v", err)
		}

		// Past the first two response deadlines: the read of one settles
		// it, the listing settles the rest before reading.
		clk.Set(returns.EndOfDay(t0.Add(24*time.Hour), returns.ResponseDays).Add(time.Millisecond))
		v, err = svc.Get(asA, "ret_0")
		if err != nil || v.Status != returns.Approved || len(v.NextActions) != 0 || v.Deadlines.BuyerShipBy == nil {
			t.Fatalf("read past its deadline: %+v %v", v, err)
		}
		list, more, total, err := svc.List(asA, returns.Filter{}, returns.Page{Limit: 10})
		if err != nil || more || total != 3 {
			t.Fatalf("list: %d %v %d %v", len(list), more, total, err)
		}
		var got []string
		for _, v := range list {
			got = append(got, v.ID+" "+string(v.Status))
		}
		if fmt.Sprint(got) != "[ret_2 REQUESTED ret_1 APPROVED ret_0 APPROVED]" {
			t.Errorf("listing %v", got)
		}
		// Filtering by status sees the settled statuses.
		if _, _, n, _ := svc.List(asA, returns.Filter{Status: returns.Requested}, returns.Page{Limit: 10}); n != 1 {
			t.Errorf("%d REQUESTED after settling, want 1", n)
		}
		if got := rec.list(); got != "[ret_0 APPROVED ret_1 APPROVED]" {
			t.Errorf("events %s", got)
		}
		// The other seller's return, past its deadline too, waits for its
		// own read or the job.
		if refs, _ := st.Due(ctx, "sel_b", clk.Now(), 10); len(refs) != 1 {
			t.Errorf("sel_b's return was settled by sel_a's listing")
		}
		if n := len(svc.Reasons()); n != 6 {
			t.Errorf("%d dispute reasons", n)
		}
	})
}
