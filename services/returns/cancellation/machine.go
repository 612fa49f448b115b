// Package cancellation is a buyer's request to cancel an order before it
// ships: PENDING until the seller approves or rejects it, or AUTO_APPROVED
// by the deadline mechanism (internal/deadline) once respondBy passes. The
// order itself is cancelled through the orders service's cancel step; this
// package keeps the request.
package cancellation

import (
	"fmt"
	"time"

	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/deadline"
)

// Status is a request's status.
type Status string

// The statuses of a request.
const (
	Pending      Status = "PENDING"
	Approved     Status = "APPROVED"
	Rejected     Status = "REJECTED"
	AutoApproved Status = "AUTO_APPROVED"
)

// Statuses lists every status.
var Statuses = []Status{Pending, Approved, Rejected, AutoApproved}

// Valid reports whether s is a status.
func (s Status) Valid() bool {
	for _, v := range Statuses {
		if s == v {
			return true
		}
	}
	return false
}

// ResponseWindow is how long the seller has to answer: 48 hours on the
// shop's business clock, running through nights, weekends and holidays (the
// buyer's wait and the order's ship-by date do not stop for them either).
const ResponseWindow = 48 * time.Hour

// RespondBy is the deadline of a request made at t: the last moment the
// seller's answer is on time.
func RespondBy(t time.Time) time.Time { return t.Add(ResponseWindow).Add(-time.Millisecond) }

// Action is the seller's answer.
type Action string

// The seller's answers.
const (
	Approve Action = "approve"
	Reject  Action = "reject"
)

// Check is the refusal of the seller's answer on a request in status s
// with deadline respondBy at now (settled first), nil when it may be
// given. Each refusal names the current status.
func Check(s Status, respondBy, now time.Time, a Action) error {
	switch {
	case s == Pending && now.After(respondBy), s == AutoApproved:
		return apierr.New(errorsv1.ErrorCode_ERROR_CODE_CANCELLATION_DEADLINE_EXCEEDED,
			fmt.Sprintf("the deadline to %s passed; the cancellation request is %s", a, s))
	case s != Pending:
		return apierr.New(errorsv1.ErrorCode_ERROR_CODE_CANCELLATION_ALREADY_PROCESSED,
			fmt.Sprintf("the cancellation request is already %s", s))
	}
	return nil
}

// To is the status the seller's answer leads to.
func To(a Action) Status {
	if a == Approve {
		return Approved
	}
	return Rejected
}

// Auto is the automatic move due on a request at now: a PENDING one past
// its deadline is AUTO_APPROVED, taking effect at the deadline.
func Auto(s Status, respondBy, now time.Time) (deadline.Move, bool) {
	if s != Pending || !now.After(respondBy) {
		return deadline.Move{}, false
	}
	return deadline.Move{From: string(Pending), To: string(AutoApproved), At: respondBy}, true
}
