package returns

import (
	"context"
	"errors"
	"fmt"
	"time"

	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/deadline"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/events"
)

// eventOf is the event a return's arrival in each status records.
var eventOf = map[Status]events.Type{
	Requested:    eventsv1.EventType_EVENT_TYPE_RETURN_REQUESTED,
	Approved:     eventsv1.EventType_EVENT_TYPE_RETURN_APPROVED,
	Rejected:     eventsv1.EventType_EVENT_TYPE_RETURN_REJECTED,
	BuyerShipped: eventsv1.EventType_EVENT_TYPE_RETURN_BUYER_SHIPPED,
	Received:     eventsv1.EventType_EVENT_TYPE_RETURN_RECEIVED,
	Refunded:     eventsv1.EventType_EVENT_TYPE_RETURN_REFUNDED,
	Disputed:     eventsv1.EventType_EVENT_TYPE_RETURN_DISPUTED,
	Closed:       eventsv1.EventType_EVENT_TYPE_RETURN_CLOSED,
	Cancelled:    eventsv1.EventType_EVENT_TYPE_RETURN_CANCELLED,
}

// Approval is the seller's approve: RefundAmount, when set, is a partial
// refund below the amount asked (only a move to REFUNDED reads it).
type Approval struct {
	RefundAmount *int64
	Expected     *Status
}

// Rejection is the seller's reject.
type Rejection struct {
	Reason, Note string
	Expected     *Status
}

// DisputeInput is the seller's dispute.
type DisputeInput struct {
	ReasonCode  string
	Description string
	Evidence    []string
	Expected    *Status
}

// Approve approves the calling seller's return id: a request becomes
// APPROVED (REFUNDED when refund-only), a received parcel REFUNDED.
func (s *Service) Approve(ctx context.Context, id string, in Approval) (*View, error) {
	return s.sellerMove(ctx, id, Approve, in.Expected, func(_ context.Context, r *Return, m *Move) error {
		if m.To.Status != Refunded {
			return nil
		}
		amount := r.RefundAmount
		if in.RefundAmount != nil {
			if *in.RefundAmount > r.RefundAmount {
				return apierr.Newf(apierr.ValidationError, "refundAmount: at most the %d centavos asked back", r.RefundAmount)
			}
			amount = *in.RefundAmount
		}
		m.RefundedAmount = &amount
		return nil
	})
}

// Reject rejects the calling seller's request id with a reason and note.
func (s *Service) Reject(ctx context.Context, id string, in Rejection) (*View, error) {
	return s.sellerMove(ctx, id, Reject, in.Expected, func(_ context.Context, _ *Return, m *Move) error {
		m.RejectReason, m.RejectNote = in.Reason, in.Note
		return nil
	})
}

// Dispute disputes the calling seller's return id, its parcel travelling or
// received, with one of the dispute reasons.
func (s *Service) Dispute(ctx context.Context, id string, in DisputeInput) (*View, error) {
	// An unknown reason is refused whatever the return's status.
	if _, ok := Reason(in.ReasonCode); !ok {
		return nil, CheckDisputeReason(State{}, in.ReasonCode)
	}
	return s.sellerMove(ctx, id, Dispute, in.Expected, func(_ context.Context, r *Return, m *Move) error {
		if err := CheckDisputeReason(r.State, in.ReasonCode); err != nil {
			return err
		}
		m.Dispute = &DisputeCase{ID: ids.NewAt("rtd", m.At), RaisedBy: "SELLER", ReasonCode: in.ReasonCode,
			Description: in.Description, Evidence: in.Evidence, CreatedAt: m.At}
		return nil
	})
}

// sellerMove is one seller action on a return: an injected failure first,
// once the return is found to be the seller's (consumed in a statement of
// its own, so it counts even though the move fails), then, in one
// transaction, the return settled, the expected
// status compared, the machine's move, shape's details, the conditional
// update, the refund and the event.
func (s *Service) sellerMove(ctx context.Context, id string, a Action, expected *Status,
	shape func(ctx context.Context, r *Return, m *Move) error,
) (*View, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return nil, err
	}
	if s.events == nil {
		return nil, errors.New("returns: a read-only service makes no moves")
	}
	if err := s.injectedOn(ctx, seller, id); err != nil {
		return nil, err
	}
	now := s.clock.Business(ctx)
	var out *View
	err = s.subject.InTx(ctx, func(ctx context.Context) error {
		r, _, err := s.subject.Settle(ctx, deadline.Ref{SellerID: seller, ID: id}, now)
		if err != nil {
			return err
		}
		if expected != nil && r.Status != *expected {
			return apierr.Newf(apierr.ConcurrentModification, "the return is %s, not %s as expected", r.Status, *expected)
		}
		next, err := Next(r.State, a, now)
		if err != nil {
			return err
		}
		m := Move{From: r.Status, To: next, At: now}
		if err := shape(ctx, r, &m); err != nil {
			return err
		}
		out, err = s.apply(ctx, r, m, RefundBySeller, func(cur *Return) error { return Check(cur.State, a, now) })
		return err
	})
	return out, err
}

// apply stores m on r (a conditional update from m.From), then what comes
// with the move in the same transaction: the dispute, the refund (the
// ledger, and the order's refund step when it is the whole amount) and the
// event. lost explains a move another one beat.
func (s *Service) apply(ctx context.Context, r *Return, m Move, source RefundSource, lost func(cur *Return) error) (*View, error) {
	ok, err := s.store.Move(ctx, r.SellerID, r.ID, m)
	if err != nil {
		return nil, err
	}
	if !ok {
		cur, err := s.store.Get(ctx, r.SellerID, r.ID)
		if err != nil {
			return nil, err
		}
		if err := lost(cur); err != nil {
			return nil, err
		}
		return nil, apierr.Newf(apierr.ConcurrentModification, "the return moved to %s meanwhile", cur.Status)
	}
	if m.Dispute != nil {
		if err := s.store.AddDispute(ctx, r.SellerID, r.ID, *m.Dispute); err != nil {
			return nil, err
		}
	}
	if m.DisputeOutcome != "" {
		if err := s.store.DecideDispute(ctx, r.SellerID, r.ID, string(m.DisputeOutcome), m.At); err != nil {
			return nil, err
		}
	}
	if m.To.Status == Refunded {
		amount := r.RefundAmount
		if m.RefundedAmount != nil {
			amount = *m.RefundedAmount
		}
		if err := s.refund(ctx, r, amount, source, m.At); err != nil {
			return nil, err
		}
	}
	after, err := s.store.Get(ctx, r.SellerID, r.ID)
	if err != nil {
		return nil, err
	}
	v, err := s.view(ctx, after, m.At)
	if err != nil {
		return nil, err
	}
	return v, s.record(ctx, v, m.At)
}

// refund writes the refund to the ledger and, when it is the whole amount
// asked back, moves the order to RETURN_REFUND through the orders' refund
// step, in the transaction ctx carries. A partial refund leaves the order
// as it is.
func (s *Service) refund(ctx context.Context, r *Return, amount int64, source RefundSource, at time.Time) error {
	if s.ledger == nil || s.orders == nil {
		return errors.New("returns: refunds need a ledger and the orders' refund step")
	}
	rec := RefundRecord{ID: ids.NewAt("rfd", at), SellerID: r.SellerID, ReturnID: r.ID, OrderID: r.OrderID,
		Amount: amount, Requested: r.RefundAmount, Currency: r.Currency, Source: source, CreatedAt: at}
	if err := s.ledger.Refund(ctx, rec); err != nil {
		return err
	}
	if !rec.Full() {
		return nil
	}
	if _, err := s.orders.Refund(ctx, r.SellerID, r.OrderID); err != nil {
		return fmt.Errorf("returns: the order's refund step: %w", err)
	}
	return nil
}

// record writes the event of v's arrival in its status.
func (s *Service) record(ctx context.Context, v *View, at time.Time) error {
	_, err := s.events.Record(ctx, events.Change{SellerID: v.SellerID, Type: eventOf[v.Status], ResourceID: v.ID,
		At: at, View: ReturnToProto(v)})
	return err
}

// afterAuto is what comes with an automatic move (the deadline
// mechanism's Recorder), in the move's transaction: the refund of a move to
// REFUNDED (the whole amount asked), then the event.
func (s *Service) afterAuto(ctx context.Context, r *Return, m deadline.Move) error {
	if Status(m.To) == Refunded {
		if err := s.refund(ctx, r, r.RefundAmount, RefundByDeadline, m.At); err != nil {
			return err
		}
	}
	v, err := s.view(ctx, r, m.At)
	if err != nil {
		return err
	}
	return s.record(ctx, v, m.At)
}
