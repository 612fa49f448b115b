// Package returns is the after-sales domain: a buyer's return of a
// delivered order, its moves and deadlines, and the seller's dispute of it.
// This file is the state machine as pure Go: which move is legal from which
// status, the deadline of each, the automatic moves when one passes, and the
// refusal a partner gets otherwise. Storage and routes build on it.
package returns

import (
	"fmt"
	"time"

	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/deadline"
)

// The after-sales codes the machine answers (the catalogue's; apierr names
// only the codes most of the platform uses).
const (
	codeAlreadyProcessed = errorsv1.ErrorCode_ERROR_CODE_RETURN_ALREADY_PROCESSED
	codeDeadlineExceeded = errorsv1.ErrorCode_ERROR_CODE_RETURN_DEADLINE_EXCEEDED
	codeApproveFailed    = errorsv1.ErrorCode_ERROR_CODE_APPROVE_FAILED
	codeRejectFailed     = errorsv1.ErrorCode_ERROR_CODE_REJECT_FAILED
	codeDisputeFailed    = errorsv1.ErrorCode_ERROR_CODE_DISPUTE_FAILED
	codeCreateFailed     = errorsv1.ErrorCode_ERROR_CODE_CREATE_FAILED
)

// Status is a return's status.
type Status string

// The statuses of a return.
const (
	Requested    Status = "REQUESTED"
	Approved     Status = "APPROVED"
	Rejected     Status = "REJECTED"
	BuyerShipped Status = "BUYER_SHIPPED"
	Received     Status = "RECEIVED"
	Refunded     Status = "REFUNDED"
	Disputed     Status = "DISPUTED"
	Closed       Status = "CLOSED"
	Cancelled    Status = "CANCELLED"
)

// Statuses lists every status, in the order of a return's life.
var Statuses = []Status{Requested, Approved, Rejected, BuyerShipped, Received, Disputed, Refunded, Closed, Cancelled}

// Valid reports whether s is a status.
func (s Status) Valid() bool {
	for _, v := range Statuses {
		if s == v {
			return true
		}
	}
	return false
}

// Processed reports whether the return's seller-facing life is over: no
// seller move applies any more (RETURN_ALREADY_PROCESSED). A REJECTED
// return may still be escalated by the buyer, which is not the seller's move.
func (s Status) Processed() bool {
	return s == Refunded || s == Rejected || s == Closed || s == Cancelled
}

// Action is a move someone takes on a return.
type Action string

// The actions: the seller's (partner routes), the buyer's and the
// platform's (sandbox routes and internal gRPC).
const (
	Approve  Action = "approve"
	Reject   Action = "reject"
	Dispute  Action = "dispute"
	Ship     Action = "buyer_ship"
	Receive  Action = "receive"
	Escalate Action = "escalate"
	Refund   Action = "platform_refund"
	Close    Action = "platform_close"
)

// SellerActions are the actions a partner takes for the seller; the others
// are the buyer's and the platform's.
var SellerActions = []Action{Approve, Reject, Dispute}

// The deadlines' figures. Each ends at the close of a day in Manila
// (23:59:59.999 +08:00) on the shop's business clock: the figure is how
// many calendar days after the move that starts it.
const (
	// ResponseDays: the seller answers a request (approve or reject)
	// within this many days, or it is approved.
	ResponseDays = 3
	// ShipDays: the buyer hands the parcel to the carrier within this many
	// days of the approval, or the return is cancelled.
	ShipDays = 7
	// InspectDays: the seller inspects the parcel within this many days of
	// its arrival (approve or dispute), or it is refunded.
	InspectDays = 3
	// TransitDisputeDays: while the parcel travels, the seller may dispute
	// (the parcel never arrived) up to this many days after the buyer
	// shipped it.
	TransitDisputeDays = 14
)

// EndOfDay is the last moment (to the millisecond, the platform's stored
// precision) of the Manila calendar day days after t's.
func EndOfDay(t time.Time, days int) time.Time {
	m := t.In(clock.Manila)
	y, mo, d := m.Date()
	next := time.Date(y, mo, d+days+1, 0, 0, 0, 0, clock.Manila)
	return next.Add(-time.Millisecond).UTC()
}

// Deadlines of a return: each set when the move that starts it happens,
// and kept afterwards as a record.
type Deadlines struct {
	SellerResponseBy *time.Time
	BuyerShipBy      *time.Time
	InspectBy        *time.Time
	DisputeBy        *time.Time
}

// State is what the machine reads of a return.
type State struct {
	Status     Status
	RefundOnly bool
	Deadlines  Deadlines
	// AutoFrom is the status the return's last move left when that move
	// was automatic (a deadline passed), empty otherwise: an action that
	// was legal there is refused as late (RETURN_DEADLINE_EXCEEDED) rather
	// than as illegal.
	AutoFrom Status
}

// legal is the table of moves: from a status, an action leads to a status.
// Approving a refund-only request refunds at once (see Next).
var legal = map[Status]map[Action]Status{
	Requested:    {Approve: Approved, Reject: Rejected},
	Approved:     {Ship: BuyerShipped},
	BuyerShipped: {Receive: Received, Dispute: Disputed},
	Received:     {Approve: Refunded, Dispute: Disputed},
	Rejected:     {Escalate: Disputed},
	Disputed:     {Refund: Refunded, Close: Closed},
}

// due is the deadline by which a (legal) action must be taken from a
// status; nil when it has none.
func due(s State, a Action) *time.Time {
	switch {
	case s.Status == Requested && (a == Approve || a == Reject):
		return s.Deadlines.SellerResponseBy
	case s.Status == Approved && a == Ship:
		return s.Deadlines.BuyerShipBy
	case s.Status == Received && a == Approve:
		return s.Deadlines.InspectBy
	case (s.Status == BuyerShipped || s.Status == Received) && a == Dispute:
		return s.Deadlines.DisputeBy
	}
	return nil
}

// Next is where action a takes s at now: the new status with the deadlines
// the move starts, or the refusal. It applies no automatic move: callers
// settle the return first (Auto), then ask.
func Next(s State, a Action, now time.Time) (State, error) {
	if err := Check(s, a, now); err != nil {
		return s, err
	}
	return enter(s, legal[s.Status][a], now), nil
}

// Check is the refusal of action a on s at now, nil when it is legal. Each
// refusal names the current status.
func Check(s State, a Action, now time.Time) error {
	if _, ok := legal[s.Status][a]; ok {
		if by := due(s, a); by != nil && now.After(*by) {
			return apierr.New(codeDeadlineExceeded,
				fmt.Sprintf("the deadline to %s passed at %s; the return is %s", a, render(*by), s.Status))
		}
		return nil
	}
	if s.AutoFrom != "" {
		if _, ok := legal[s.AutoFrom][a]; ok {
			return apierr.New(codeDeadlineExceeded,
				fmt.Sprintf("the deadline to %s passed; the return moved from %s and is %s", a, s.AutoFrom, s.Status))
		}
	}
	if s.Status.Processed() && isSeller(a) {
		return apierr.New(codeAlreadyProcessed, fmt.Sprintf("the return is already %s", s.Status))
	}
	return apierr.New(apierr.InvalidTransition, fmt.Sprintf("cannot %s a return that is %s", a, s.Status))
}

func isSeller(a Action) bool {
	for _, s := range SellerActions {
		if a == s {
			return true
		}
	}
	return false
}

// enter moves s to status to at at, starting that status's deadlines.
// Approving a refund-only request goes straight to REFUNDED: there is no
// parcel to wait for.
func enter(s State, to Status, at time.Time) State {
	if s.Status == Requested && to == Approved && s.RefundOnly {
		to = Refunded
	}
	s.Status, s.AutoFrom = to, ""
	d := &s.Deadlines
	switch to {
	case Approved:
		by := EndOfDay(at, ShipDays)
		d.BuyerShipBy = &by
	case BuyerShipped:
		by := EndOfDay(at, TransitDisputeDays)
		d.DisputeBy = &by
	case Received:
		by := EndOfDay(at, InspectDays)
		d.InspectBy = &by
		// Once the parcel is in, the seller disputes while inspecting.
		d.DisputeBy = &by
	}
	return s
}

// NewRequest is a new request's state at now, with its response deadline.
func NewRequest(refundOnly bool, now time.Time) State {
	by := EndOfDay(now, ResponseDays)
	return State{Status: Requested, RefundOnly: refundOnly, Deadlines: Deadlines{SellerResponseBy: &by}}
}

// Auto is the automatic move due on s at now, if any: a request not
// answered is approved (refunded when refund-only), an approved return not
// shipped is cancelled, a received parcel not inspected is refunded. The
// move takes effect at the deadline that passed.
func Auto(s State, now time.Time) (deadline.Move, bool) {
	var by *time.Time
	var to Status
	switch s.Status {
	case Requested:
		by, to = s.Deadlines.SellerResponseBy, Approved
		if s.RefundOnly {
			to = Refunded
		}
	case Approved:
		by, to = s.Deadlines.BuyerShipBy, Cancelled
	case Received:
		by, to = s.Deadlines.InspectBy, Refunded
	default:
		return deadline.Move{}, false
	}
	if by == nil || !now.After(*by) {
		return deadline.Move{}, false
	}
	return deadline.Move{From: string(s.Status), To: string(to), At: *by}, true
}

// ApplyAuto is s after the automatic move m: the status m names, the
// deadlines it starts from m's time, and AutoFrom set.
func ApplyAuto(s State, m deadline.Move) State {
	from := s.Status
	s = enter(s, Status(m.To), m.At)
	// enter turns a refund-only approval into a refund already; m.To says
	// the same (Auto chose it), so the two agree.
	s.AutoFrom = from
	return s
}

// NextAction is an action the seller can take now, and until when.
type NextAction struct {
	Action   Action
	Deadline *time.Time
}

// NextActions lists the seller's legal actions on s (settled at now), each
// with its deadline; empty when the seller has nothing to do.
func NextActions(s State, now time.Time) []NextAction {
	out := []NextAction{}
	for _, a := range SellerActions {
		if Check(s, a, now) == nil {
			out = append(out, NextAction{Action: a, Deadline: due(s, a)})
		}
	}
	return out
}

// render is a deadline as the wire shows it: ISO 8601 in +08:00.
func render(t time.Time) string {
	return t.In(clock.Manila).Format("2006-01-02T15:04:05.000-07:00")
}

// AutoDue is the deadline of the automatic move s waits for, nil when its
// status has none: the store keeps it beside the status so the deadline
// sweep finds what is due with one indexed comparison.
func AutoDue(s State) *time.Time {
	switch s.Status {
	case Requested:
		return s.Deadlines.SellerResponseBy
	case Approved:
		return s.Deadlines.BuyerShipBy
	case Received:
		return s.Deadlines.InspectBy
	}
	return nil
}
