package cancellation_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/deadline"
	"github.com/mallplatform/partnerapi/services/returns/cancellation"
)

var t0 = time.Date(2026, 11, 24, 2, 0, 0, 0, time.UTC)

func code(err error) string {
	if e, ok := apierr.As(err); ok {
		return strings.TrimPrefix(e.Code.String(), "ERROR_CODE_")
	}
	if err != nil {
		return "not an apierr: " + err.Error()
	}
	return ""
}

func TestCheck(t *testing.T) {
	by := cancellation.RespondBy(t0)
	if want := t0.Add(48*time.Hour - time.Millisecond); !by.Equal(want) {
		t.Fatalf("respondBy %s, want %s", by, want)
	}
	for _, c := range []struct {
		s    cancellation.Status
		now  time.Time
		want string
	}{
		{cancellation.Pending, by, ""},
		{cancellation.Pending, by.Add(time.Millisecond), "CANCELLATION_DEADLINE_EXCEEDED"},
		{cancellation.AutoApproved, by.Add(time.Hour), "CANCELLATION_DEADLINE_EXCEEDED"},
		{cancellation.Approved, t0, "CANCELLATION_ALREADY_PROCESSED"},
		{cancellation.Rejected, t0, "CANCELLATION_ALREADY_PROCESSED"},
	} {
		for _, a := range []cancellation.Action{cancellation.Approve, cancellation.Reject} {
			err := cancellation.Check(c.s, by, c.now, a)
			if code(err) != c.want {
				t.Errorf("%s on %s at %s: %v, want %s", a, c.s, c.now, err, c.want)
			}
			if err != nil && !strings.Contains(err.Error(), string(c.s)) {
				t.Errorf("%s on %s: %q does not name the status", a, c.s, err)
			}
		}
	}
	if _, ok := cancellation.Auto(cancellation.Pending, by, by); ok {
		t.Error("auto-approved at the deadline itself")
	}
	m, ok := cancellation.Auto(cancellation.Pending, by, by.Add(time.Hour))
	if !ok || m.To != "AUTO_APPROVED" || !m.At.Equal(by) {
		t.Errorf("past the deadline: %+v %v", m, ok)
	}
	if _, ok := cancellation.Auto(cancellation.Rejected, by, by.Add(time.Hour)); ok {
		t.Error("a decided request moved")
	}
}

func request(id, seller, order string, at time.Time) *cancellation.Request {
	return &cancellation.Request{ID: id, SellerID: seller, OrderID: order, Status: cancellation.Pending,
		Reason: "changed my mind", RequestedAt: at, RespondBy: cancellation.RespondBy(at), CreatedAt: at, UpdatedAt: at}
}

func TestStore(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		for _, s := range []string{"sel_a", "sel_b"} {
			if err := d.Ent.Seller.Create().SetID(s).SetName(s).SetShopName(s).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		st := cancellation.NewEntStore(d)
		for i := range 5 {
			if err := st.Create(ctx, request(fmt.Sprintf("ccr_%d", i), "sel_a", fmt.Sprintf("ord_%d", i), t0.Add(time.Duration(i)*time.Hour))); err != nil {
				t.Fatal(err)
			}
		}
		// One pending request per order.
		if err := st.Create(ctx, request("ccr_dup", "sel_a", "ord_0", t0)); code(err) != "CONFLICT" {
			t.Fatalf("second pending request on an order: %v", err)
		}
		if _, err := st.Get(ctx, "sel_b", "ccr_0"); code(err) != "NOT_FOUND" {
			t.Fatalf("another seller's request: %v", err)
		}
		got, err := st.ForOrder(ctx, "sel_a", "ord_2")
		if err != nil || got.ID != "ccr_2" || !got.RespondBy.Equal(cancellation.RespondBy(t0.Add(2*time.Hour))) {
			t.Fatalf("for order: %+v %v", got, err)
		}

		// Approve and reject racing: one wins.
		var wg sync.WaitGroup
		won := make([]bool, 2)
		for k, to := range []cancellation.Status{cancellation.Approved, cancellation.Rejected} {
			wg.Go(func() {
				var err error
				won[k], err = st.Decide(ctx, "sel_a", "ccr_0", to, "", t0.Add(time.Hour))
				if err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if won[0] == won[1] {
			t.Fatalf("approve won %v, reject won %v", won[0], won[1])
		}
		// A decided request's order may be asked again.
		if err := st.Create(ctx, request("ccr_again", "sel_a", "ord_0", t0.Add(10*time.Hour))); err != nil {
			t.Fatal(err)
		}

		// The deadline mechanism auto-approves the rest at their deadlines.
		var events []string
		subject := cancellation.NewSubject(st, func(_ context.Context, r *cancellation.Request, m deadline.Move) error {
			events = append(events, r.ID+" "+m.To)
			return nil
		}, func(ctx context.Context, fn func(ctx context.Context) error) error { return db.InTx(ctx, d.Ent, fn) })
		now := cancellation.RespondBy(t0.Add(3 * time.Hour)).Add(time.Millisecond)
		refs, err := st.Due(ctx, "", now, 10)
		if err != nil || fmt.Sprint(refs) != "[{sel_a ccr_1} {sel_a ccr_2} {sel_a ccr_3}]" {
			t.Fatalf("due: %v %v", refs, err)
		}
		for _, ref := range refs {
			r, _, err := subject.Settle(ctx, ref, now)
			if err != nil || r.Status != cancellation.AutoApproved || r.DecidedAt == nil || !r.DecidedAt.Equal(r.RespondBy) {
				t.Fatalf("settled %s: %+v %v", ref.ID, r, err)
			}
		}
		if fmt.Sprint(events) != "[ccr_1 AUTO_APPROVED ccr_2 AUTO_APPROVED ccr_3 AUTO_APPROVED]" {
			t.Errorf("events %v", events)
		}

		// Listing: newest first, by status, on the keyset.
		var ids []string
		p := cancellation.Page{Limit: 2}
		for {
			page, more, err := st.List(ctx, "sel_a", "", p)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range page {
				ids = append(ids, r.ID)
			}
			if !more {
				break
			}
			last := page[len(page)-1]
			p.After = &cancellation.Key{CreatedAt: last.CreatedAt, ID: last.ID}
		}
		if fmt.Sprint(ids) != "[ccr_again ccr_4 ccr_3 ccr_2 ccr_1 ccr_0]" {
			t.Errorf("listing %v", ids)
		}
		page, _, err := st.List(ctx, "sel_a", cancellation.AutoApproved, cancellation.Page{Limit: 10})
		if n, _ := st.Count(ctx, "sel_a", cancellation.AutoApproved); err != nil || len(page) != 3 || n != 3 {
			t.Errorf("auto-approved: %d listed, %d counted, %v", len(page), n, err)
		}
		if n, _ := st.Count(ctx, "sel_b", ""); n != 0 {
			t.Errorf("another seller counts %d", n)
		}
	})
}
