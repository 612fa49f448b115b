package returns_test

import (
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/deadline"
	"github.com/mallplatform/partnerapi/services/returns"
)

// t0 is 10:00 in Manila on Tuesday 24 November 2026.
var t0 = time.Date(2026, 11, 24, 2, 0, 0, 0, time.UTC)

func manila(y int, m time.Month, d, h, mi, s, ms int) time.Time {
	return time.Date(y, m, d, h, mi, s, ms*int(time.Millisecond), clock.Manila).UTC()
}

func TestEndOfDay(t *testing.T) {
	for _, c := range []struct {
		at   time.Time
		days int
		want time.Time
	}{
		{t0, 0, manila(2026, 11, 24, 23, 59, 59, 999)},
		{t0, 3, manila(2026, 11, 27, 23, 59, 59, 999)},
		// 20:00 UTC is already the next day in Manila.
		{time.Date(2026, 11, 24, 20, 0, 0, 0, time.UTC), 0, manila(2026, 11, 25, 23, 59, 59, 999)},
		// Across the year's end.
		{manila(2026, 12, 30, 9, 0, 0, 0), 7, manila(2027, 1, 6, 23, 59, 59, 999)},
	} {
		if got := returns.EndOfDay(c.at, c.days); !got.Equal(c.want) {
			t.Errorf("EndOfDay(%s, %d) = %s, want %s", c.at, c.days, got, c.want)
		}
	}
}

func code(err error) string {
	if err == nil {
		return ""
	}
	e, ok := apierr.As(err)
	if !ok {
		return "not an apierr: " + err.Error()
	}
	return strings.TrimPrefix(e.Code.String(), "ERROR_CODE_")
}

func at(s returns.Status, mod func(*returns.State)) returns.State {
	st := returns.NewRequest(false, t0)
	st.Status = s
	if mod != nil {
		mod(&st)
	}
	return st
}

func ptr(t time.Time) *time.Time { return &t }

// TestMoves is the table of docs/decisions.md: every action from every
// status, on time.
func TestMoves(t *testing.T) {
	actions := []returns.Action{returns.Approve, returns.Reject, returns.Dispute, returns.Ship, returns.Receive,
		returns.Escalate, returns.Refund, returns.Close}
	type key struct {
		from returns.Status
		a    returns.Action
	}
	// want: the status reached, or the refusal's code.
	want := map[key]string{
		{returns.Requested, returns.Approve}:    "APPROVED",
		{returns.Requested, returns.Reject}:     "REJECTED",
		{returns.Approved, returns.Ship}:        "BUYER_SHIPPED",
		{returns.BuyerShipped, returns.Receive}: "RECEIVED",
		{returns.BuyerShipped, returns.Dispute}: "DISPUTED",
		{returns.Received, returns.Approve}:     "REFUNDED",
		{returns.Received, returns.Dispute}:     "DISPUTED",
		{returns.Rejected, returns.Escalate}:    "DISPUTED",
		{returns.Disputed, returns.Refund}:      "REFUNDED",
		{returns.Disputed, returns.Close}:       "CLOSED",
	}
	seller := map[returns.Action]bool{returns.Approve: true, returns.Reject: true, returns.Dispute: true}
	for _, from := range returns.Statuses {
		for _, a := range actions {
			s := at(from, func(s *returns.State) {
				s.Deadlines.BuyerShipBy = ptr(t0.Add(time.Hour))
				s.Deadlines.InspectBy = ptr(t0.Add(time.Hour))
				s.Deadlines.DisputeBy = ptr(t0.Add(time.Hour))
			})
			next, err := returns.Next(s, a, t0)
			w, ok := want[key{from, a}]
			switch {
			case !ok && from.Processed() && seller[a]:
				w = "RETURN_ALREADY_PROCESSED"
			case !ok:
				w = "INVALID_TRANSITION"
			}
			got := string(next.Status)
			if err != nil {
				got = code(err)
				if !strings.Contains(err.Error(), string(from)) {
					t.Errorf("%s from %s: message %q does not name the status", a, from, err)
				}
			}
			if got != w {
				t.Errorf("%s from %s: %s, want %s", a, from, got, w)
			}
		}
	}
}

func TestRefundOnlyApproval(t *testing.T) {
	s := returns.NewRequest(true, t0)
	next, err := returns.Next(s, returns.Approve, t0)
	if err != nil || next.Status != returns.Refunded {
		t.Fatalf("approving a refund-only request: %s %v, want REFUNDED", next.Status, err)
	}
	m, ok := returns.Auto(s, s.Deadlines.SellerResponseBy.Add(time.Millisecond))
	if !ok || m.To != string(returns.Refunded) {
		t.Fatalf("a refund-only request past its response deadline: %+v %v, want REFUNDED", m, ok)
	}
}

// TestDeadlines: each move's deadline is set when the move that starts it
// happens, and an action at its deadline is on time, a millisecond later
// it is late.
func TestDeadlines(t *testing.T) {
	s := returns.NewRequest(false, t0)
	if want := manila(2026, 11, 27, 23, 59, 59, 999); !s.Deadlines.SellerResponseBy.Equal(want) {
		t.Fatalf("sellerResponseBy %s, want %s", s.Deadlines.SellerResponseBy, want)
	}
	by := *s.Deadlines.SellerResponseBy
	if _, err := returns.Next(s, returns.Reject, by); err != nil {
		t.Fatalf("reject at the deadline: %v", err)
	}
	if _, err := returns.Next(s, returns.Reject, by.Add(time.Millisecond)); code(err) != "RETURN_DEADLINE_EXCEEDED" {
		t.Fatalf("reject after the deadline: %v", err)
	}

	approvedAt := manila(2026, 11, 25, 15, 0, 0, 0)
	s, _ = returns.Next(s, returns.Approve, approvedAt)
	if want := manila(2026, 12, 2, 23, 59, 59, 999); s.Deadlines.BuyerShipBy == nil || !s.Deadlines.BuyerShipBy.Equal(want) {
		t.Fatalf("buyerShipBy %v, want %s", s.Deadlines.BuyerShipBy, want)
	}
	shippedAt := manila(2026, 11, 26, 9, 0, 0, 0)
	s, _ = returns.Next(s, returns.Ship, shippedAt)
	if want := manila(2026, 12, 10, 23, 59, 59, 999); !s.Deadlines.DisputeBy.Equal(want) {
		t.Fatalf("disputeBy in transit %s, want %s", s.Deadlines.DisputeBy, want)
	}
	if _, err := returns.Next(s, returns.Dispute, s.Deadlines.DisputeBy.Add(time.Millisecond)); code(err) != "RETURN_DEADLINE_EXCEEDED" {
		t.Fatalf("dispute in transit after disputeBy: %v", err)
	}
	receivedAt := manila(2026, 11, 28, 11, 0, 0, 0)
	s, _ = returns.Next(s, returns.Receive, receivedAt)
	want := manila(2026, 12, 1, 23, 59, 59, 999)
	if !s.Deadlines.InspectBy.Equal(want) || !s.Deadlines.DisputeBy.Equal(want) {
		t.Fatalf("inspectBy %s, disputeBy %s, want both %s", s.Deadlines.InspectBy, s.Deadlines.DisputeBy, want)
	}
	if !s.Deadlines.SellerResponseBy.Equal(by) {
		t.Errorf("sellerResponseBy changed to %s: deadlines are kept as a record", s.Deadlines.SellerResponseBy)
	}
}

// TestAutomaticMoves: each deadline's automatic move, at the deadline it
// passed, and the refusal of an action the move overtook.
func TestAutomaticMoves(t *testing.T) {
	s := returns.NewRequest(false, t0)
	by := *s.Deadlines.SellerResponseBy
	if _, ok := returns.Auto(s, by); ok {
		t.Fatal("a move due at the deadline itself; it is still on time")
	}
	late := by.Add(10 * 24 * time.Hour)
	m, ok := returns.Auto(s, late)
	if !ok || m.From != "REQUESTED" || m.To != "APPROVED" || !m.At.Equal(by) {
		t.Fatalf("unanswered request: %+v %v", m, ok)
	}
	s = returns.ApplyAuto(s, m)
	if s.Deadlines.BuyerShipBy == nil || !s.Deadlines.BuyerShipBy.Equal(returns.EndOfDay(by, returns.ShipDays)) {
		t.Fatalf("buyerShipBy after the automatic approval: %v, want from the response deadline", s.Deadlines.BuyerShipBy)
	}
	// The seller's reject came too late: the refusal says so, naming the
	// status the return is in now.
	err := returns.Check(s, returns.Reject, late)
	if code(err) != "RETURN_DEADLINE_EXCEEDED" || !strings.Contains(err.Error(), "APPROVED") {
		t.Fatalf("reject after the automatic approval: %v", err)
	}
	// Chained: ten days on, the buyer never shipped either.
	m, ok = returns.Auto(s, late)
	if !ok || m.To != "CANCELLED" || !m.At.Equal(*s.Deadlines.BuyerShipBy) {
		t.Fatalf("unshipped approval: %+v %v", m, ok)
	}
	s = returns.ApplyAuto(s, m)
	if _, ok := returns.Auto(s, late); ok {
		t.Fatal("a move due on a cancelled return")
	}
	if err := returns.Check(s, returns.Approve, late); code(err) != "RETURN_ALREADY_PROCESSED" || !strings.Contains(err.Error(), "CANCELLED") {
		t.Fatalf("approve on the cancelled return: %v", err)
	}

	// A parcel received and not inspected is refunded; the dispute that
	// came too late is refused as late.
	r := at(returns.Received, func(s *returns.State) { s.Deadlines.InspectBy = ptr(t0); s.Deadlines.DisputeBy = ptr(t0) })
	m, ok = returns.Auto(r, t0.Add(time.Millisecond))
	if !ok || m.To != "REFUNDED" {
		t.Fatalf("uninspected parcel: %+v %v", m, ok)
	}
	r = returns.ApplyAuto(r, m)
	if err := returns.Check(r, returns.Dispute, t0.Add(time.Hour)); code(err) != "RETURN_DEADLINE_EXCEEDED" {
		t.Fatalf("dispute after the automatic refund: %v", err)
	}
	// A later manual move forgets the automatic one.
	a := returns.ApplyAuto(returns.NewRequest(false, t0), deadline.Move{From: string(returns.Requested), To: string(returns.Approved), At: by})
	a, err = returns.Next(a, returns.Ship, by.Add(time.Hour))
	if err != nil || a.AutoFrom != "" {
		t.Fatalf("ship after the automatic approval: %+v %v", a, err)
	}
	if err := returns.Check(a, returns.Reject, by.Add(time.Hour)); code(err) != "INVALID_TRANSITION" {
		t.Fatalf("reject once shipped: %v", err)
	}

	for _, st := range []returns.Status{returns.BuyerShipped, returns.Rejected, returns.Disputed, returns.Refunded, returns.Closed, returns.Cancelled} {
		if m, ok := returns.Auto(at(st, nil), late.Add(1000*time.Hour)); ok {
			t.Errorf("%s: automatic move %+v; it has none", st, m)
		}
	}
}

func TestNextActions(t *testing.T) {
	s := returns.NewRequest(false, t0)
	by := s.Deadlines.SellerResponseBy
	got := returns.NextActions(s, t0)
	if len(got) != 2 || got[0].Action != returns.Approve || got[1].Action != returns.Reject || !got[0].Deadline.Equal(*by) || !got[1].Deadline.Equal(*by) {
		t.Fatalf("next actions of a request: %+v", got)
	}
	if got := returns.NextActions(s, by.Add(time.Millisecond)); len(got) != 0 {
		t.Errorf("next actions past the deadline: %+v", got)
	}
	r := at(returns.Received, func(s *returns.State) {
		s.Deadlines.InspectBy = ptr(t0.Add(time.Hour))
		s.Deadlines.DisputeBy = ptr(t0.Add(time.Hour))
	})
	if got := returns.NextActions(r, t0); len(got) != 2 || got[0].Action != returns.Approve || got[1].Action != returns.Dispute {
		t.Errorf("next actions of a received return: %+v", got)
	}
	for _, st := range []returns.Status{returns.Approved, returns.Rejected, returns.Disputed, returns.Refunded, returns.Closed, returns.Cancelled} {
		if got := returns.NextActions(at(st, nil), t0); got == nil || len(got) != 0 {
			t.Errorf("%s: next actions %+v, want an empty list", st, got)
		}
	}
}

func TestDisputeReasons(t *testing.T) {
	wantCodes := []string{"did_not_receive_return_parcel", "received_physical_damage", "received_incomplete",
		"received_wrong_product", "received_used_product", "buyer_claim_incorrect"}
	ids := map[string]bool{}
	if len(returns.DisputeReasons) != len(wantCodes) {
		t.Fatalf("%d reasons, want the spec's six", len(returns.DisputeReasons))
	}
	for i, r := range returns.DisputeReasons {
		if r.Code != wantCodes[i] {
			t.Errorf("reason %d is %s, want %s", i, r.Code, wantCodes[i])
		}
		if r.CodeID == "" || ids[r.CodeID] || r.Label == "" || r.Description == "" || r.Evidence == "" {
			t.Errorf("reason %s: empty or repeated fields: %+v", r.Code, r)
		}
		ids[r.CodeID] = true
	}
	// The stable ids are part of the contract: this list changes only by
	// adding.
	if got := returns.DisputeReasons[0].CodeID + returns.DisputeReasons[5].CodeID; got != "DR001DR006" {
		t.Errorf("code ids moved: %s", got)
	}
	shipped, received := at(returns.BuyerShipped, nil), at(returns.Received, nil)
	for _, c := range []struct {
		s    returns.State
		code string
		want string
	}{
		{shipped, "did_not_receive_return_parcel", ""},
		{received, "did_not_receive_return_parcel", "INVALID_TRANSITION"},
		{received, "received_wrong_product", ""},
		{shipped, "buyer_claim_incorrect", ""},
		{received, "not_a_reason", "VALIDATION_ERROR"},
		{at(returns.Requested, nil), "not_a_reason", "VALIDATION_ERROR"},
		// Not a dispute's status: the move's own check answers.
		{at(returns.Requested, nil), "did_not_receive_return_parcel", ""},
	} {
		err := returns.CheckDisputeReason(c.s, c.code)
		if code(err) != c.want {
			t.Errorf("%s from %s: %v, want %s", c.code, c.s.Status, err, c.want)
		}
		if c.want == "INVALID_TRANSITION" && !strings.Contains(err.Error(), string(c.s.Status)) {
			t.Errorf("%s from %s: %q does not name the status", c.code, c.s.Status, err)
		}
	}
}
