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
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/services/returns"
)

func addSeller(t testing.TB, d *db.DB, id string) {
	t.Helper()
	if err := d.Ent.Seller.Create().SetID(id).SetName(id).SetShopName(id + " shop").Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// newReturn is a request of two items created at created.
func newReturn(id, seller, order string, created time.Time, refundOnly bool) *returns.Return {
	return &returns.Return{
		ID: id, SellerID: seller, OrderID: order, State: returns.NewRequest(refundOnly, created),
		Reason: "size does not fit", BuyerNote: "too small", Evidence: []string{"https://cdn.example.ph/e/1.jpg"},
		Items:        []returns.Item{{ItemID: "oit_1", Quantity: 1, RefundAmount: 50000}, {ItemID: "oit_2", Quantity: 2, RefundAmount: 30000}},
		RefundAmount: 80000, Currency: "PHP", CreatedAt: created, UpdatedAt: created,
	}
}

func inTx(d *db.DB) deadline.TxRunner {
	return func(ctx context.Context, fn func(ctx context.Context) error) error { return db.InTx(ctx, d.Ent, fn) }
}

func TestStoreCreateGetList(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		addSeller(t, d, "sel_a")
		addSeller(t, d, "sel_b")
		st := returns.NewEntStore(d)
		for i := range 7 {
			order := "ord_1"
			if i%2 == 1 {
				order = "ord_2"
			}
			if err := st.Create(ctx, newReturn(fmt.Sprintf("ret_%d", i), "sel_a", order, t0.Add(time.Duration(i)*time.Hour), false)); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.Create(ctx, newReturn("ret_b", "sel_b", "ord_9", t0, false)); err != nil {
			t.Fatal(err)
		}
		got, err := st.Get(ctx, "sel_a", "ret_3")
		if err != nil {
			t.Fatal(err)
		}
		want := newReturn("ret_3", "sel_a", "ord_2", t0.Add(3*time.Hour), false)
		if fmt.Sprint(got.Items) != fmt.Sprint(want.Items) || got.Status != returns.Requested || got.RefundAmount != 80000 ||
			!got.Deadlines.SellerResponseBy.Equal(*want.Deadlines.SellerResponseBy) || !got.CreatedAt.Equal(want.CreatedAt) ||
			got.Evidence[0] != want.Evidence[0] || got.Dispute != nil {
			t.Fatalf("read back %+v, want %+v", got, want)
		}
		// Another seller's return is not found, never shown.
		if _, err := st.Get(ctx, "sel_b", "ret_3"); apiCode(err) != apierr.NotFound {
			t.Fatalf("another seller's return: %v", err)
		}

		// Newest first, page by page on the keyset.
		var ids []string
		p := returns.Page{Limit: 3}
		for {
			page, more, err := st.List(ctx, "sel_a", returns.Filter{}, p)
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
			p.After = &returns.Key{CreatedAt: last.CreatedAt, ID: last.ID}
		}
		if fmt.Sprint(ids) != "[ret_6 ret_5 ret_4 ret_3 ret_2 ret_1 ret_0]" {
			t.Fatalf("listing %v", ids)
		}
		after, before := t0.Add(time.Hour), t0.Add(5*time.Hour)
		for _, c := range []struct {
			f    returns.Filter
			want string
		}{
			{returns.Filter{OrderID: "ord_2"}, "[ret_5 ret_3 ret_1]"},
			{returns.Filter{CreatedAfter: &after, CreatedBefore: &before}, "[ret_4 ret_3 ret_2 ret_1]"},
			{returns.Filter{Status: returns.Approved}, "[]"},
			{returns.Filter{Status: returns.Requested, OrderID: "ord_9"}, "[]"},
		} {
			page, _, err := st.List(ctx, "sel_a", c.f, returns.Page{Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range page {
				got = append(got, r.ID)
			}
			if fmt.Sprint(got) != c.want && !(c.want == "[]" && len(got) == 0) {
				t.Errorf("filter %+v: %v, want %s", c.f, got, c.want)
			}
			if n, err := st.Count(ctx, "sel_a", c.f); err != nil || int(n) != len(got) {
				t.Errorf("count %+v: %d %v, want %d", c.f, n, err, len(got))
			}
		}
		if page, _, _ := st.List(ctx, "", returns.Filter{}, returns.Page{Limit: 100}); len(page) != 0 {
			t.Errorf("a listing without a seller read %d returns", len(page))
		}
	})
}

func apiCode(err error) apierr.Code {
	if e, ok := apierr.As(err); ok {
		return e.Code
	}
	return 0
}

// TestStoreConcurrentMoves: an approve and a reject racing on one request,
// many times over: exactly one wins each time.
func TestStoreConcurrentMoves(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		addSeller(t, d, "sel_a")
		st := returns.NewEntStore(d)
		now := t0.Add(time.Hour)
		for i := range 10 {
			id := fmt.Sprintf("ret_%d", i)
			r := newReturn(id, "sel_a", "ord_1", t0, false)
			if err := st.Create(ctx, r); err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			won := make([]bool, 2)
			errs := make([]error, 2)
			for k, a := range []returns.Action{returns.Approve, returns.Reject} {
				wg.Go(func() {
					errs[k] = db.InTx(ctx, d.Ent, func(ctx context.Context) error {
						cur, err := st.Get(ctx, "sel_a", id)
						if err != nil {
							return err
						}
						next, err := returns.Next(cur.State, a, now)
						if err != nil {
							return err
						}
						m := returns.Move{From: cur.Status, To: next, At: now}
						if a == returns.Reject {
							m.RejectReason = "worn"
						}
						won[k], err = st.Move(ctx, "sel_a", id, m)
						return err
					})
				})
			}
			wg.Wait()
			for _, err := range errs {
				// The loser either saw the winner's move and was refused,
				// or read before it and its conditional update matched
				// nothing.
				if _, refused := apierr.As(err); err != nil && !refused {
					t.Fatal(err)
				}
			}
			if won[0] == won[1] {
				t.Fatalf("%s: approve won %v, reject won %v; exactly one must", id, won[0], won[1])
			}
			got, _ := st.Get(ctx, "sel_a", id)
			if want := map[bool]returns.Status{true: returns.Approved, false: returns.Rejected}[won[0]]; got.Status != want {
				t.Fatalf("%s: %s, want %s", id, got.Status, want)
			}
			if got.Status == returns.Approved && (got.Deadlines.BuyerShipBy == nil || got.RejectReason != "") {
				t.Fatalf("%s approved: %+v", id, got)
			}
		}
	})
}

// TestStoreDeadlines: the returns' subject in the deadline mechanism, on
// both drivers: due listing, automatic moves at their deadlines, chained,
// one event each, and a dispute recorded.
func TestStoreDeadlines(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		addSeller(t, d, "sel_a")
		st := returns.NewEntStore(d)
		var mu sync.Mutex
		var events []string
		subject := returns.NewSubject(st, func(_ context.Context, r *returns.Return, m deadline.Move) error {
			mu.Lock()
			defer mu.Unlock()
			events = append(events, fmt.Sprintf("%s %s>%s %s", r.ID, m.From, m.To, m.At.Format(time.RFC3339Nano)))
			return nil
		}, inTx(d))
		if err := st.Create(ctx, newReturn("ret_plain", "sel_a", "ord_1", t0, false)); err != nil {
			t.Fatal(err)
		}
		if err := st.Create(ctx, newReturn("ret_refund_only", "sel_a", "ord_2", t0, true)); err != nil {
			t.Fatal(err)
		}
		by := returns.EndOfDay(t0, returns.ResponseDays)
		if refs, err := st.Due(ctx, "", by, 10); err != nil || len(refs) != 0 {
			t.Fatalf("due at the deadline: %v %v", refs, err)
		}
		refs, err := st.Due(ctx, "sel_a", by.Add(time.Millisecond), 10)
		if err != nil || len(refs) != 2 {
			t.Fatalf("due after the deadline: %v %v", refs, err)
		}
		// Long after: the plain return is approved then cancelled (never
		// shipped); the refund-only one refunded in full.
		late := by.Add(30 * 24 * time.Hour)
		r, moves, err := subject.Settle(ctx, deadline.Ref{SellerID: "sel_a", ID: "ret_plain"}, late)
		if err != nil || r.Status != returns.Cancelled || len(moves) != 2 || r.AutoFrom != returns.Approved {
			t.Fatalf("plain return settled: %+v %v %v", r, moves, err)
		}
		shipBy := returns.EndOfDay(by, returns.ShipDays)
		if !r.UpdatedAt.Equal(shipBy) || !r.Deadlines.BuyerShipBy.Equal(shipBy) {
			t.Errorf("cancelled at %s with buyerShipBy %v, want both %s", r.UpdatedAt, r.Deadlines.BuyerShipBy, shipBy)
		}
		r, _, err = subject.Settle(ctx, deadline.Ref{SellerID: "sel_a", ID: "ret_refund_only"}, late)
		if err != nil || r.Status != returns.Refunded || r.RefundedAmount != r.RefundAmount {
			t.Fatalf("refund-only return settled: %+v %v", r, err)
		}
		want := fmt.Sprint([]string{
			"ret_plain REQUESTED>APPROVED " + by.Format(time.RFC3339Nano),
			"ret_plain APPROVED>CANCELLED " + shipBy.Format(time.RFC3339Nano),
			"ret_refund_only REQUESTED>REFUNDED " + by.Format(time.RFC3339Nano),
		})
		if fmt.Sprint(events) != want {
			t.Errorf("events %v, want %v", events, want)
		}
		if refs, err := st.Due(ctx, "", late, 10); err != nil || len(refs) != 0 {
			t.Fatalf("due once settled: %v %v", refs, err)
		}
		if _, _, err := subject.Settle(ctx, deadline.Ref{SellerID: "sel_b", ID: "ret_plain"}, late); apiCode(err) != apierr.NotFound {
			t.Errorf("settling another seller's return: %v", err)
		}

		// A dispute is read back with its return.
		if err := st.Create(ctx, newReturn("ret_disputed", "sel_a", "ord_3", t0, false)); err != nil {
			t.Fatal(err)
		}
		dc := returns.DisputeCase{ID: "rdp_1", RaisedBy: "SELLER", ReasonCode: "received_used_product", Description: "worn",
			Evidence: []string{"https://cdn.example.ph/e/2.jpg"}, CreatedAt: t0}
		if err := st.AddDispute(ctx, "sel_b", "ret_disputed", dc); apiCode(err) != apierr.NotFound {
			t.Fatalf("another seller's dispute: %v", err)
		}
		if err := st.AddDispute(ctx, "sel_a", "ret_disputed", dc); err != nil {
			t.Fatal(err)
		}
		got, err := st.Get(ctx, "sel_a", "ret_disputed")
		if err != nil || got.Dispute == nil || got.Dispute.ReasonCode != dc.ReasonCode || got.Dispute.Evidence[0] != dc.Evidence[0] {
			t.Fatalf("dispute read back: %+v %v", got.Dispute, err)
		}
	})
}

func TestRegisterDeadlines(t *testing.T) {
	d := dbtest.SQLite(t)
	st := returns.NewEntStore(d)
	jobs := worker.NewJobs()
	cfg := deadline.JobConfig{Business: clock.NewManual(t0), Shops: deadline.NewEntShops(d.Ent)}
	if err := returns.RegisterDeadlines(jobs, returns.NewSubject(st, (&recorded{}).record, inTx(d)), cfg); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(jobs.Kinds(), jobs.Schedules()) != "[returns.deadlines] [returns.deadlines]" {
		t.Errorf("kinds %v, schedules %v", jobs.Kinds(), jobs.Schedules())
	}
	if err := returns.RegisterDeadlines(jobs, returns.NewSubject(st, nil, inTx(d)), cfg); err == nil {
		t.Error("a subject without a recorder was registered")
	}
}
