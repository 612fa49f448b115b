package returns

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/deadline"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/orders"
)

// TestReturn is a buyer's return filed through the sandbox.
type TestReturn struct {
	OrderID string
	// Items are the lines returned (order item id and quantity); none
	// means every line of the order, whole.
	Items      []Item
	Reason     string
	RefundOnly bool
}

// CreateTest files a buyer's return of one of the calling test shop's
// DELIVERED orders: REQUESTED, with the seller's response deadline, and
// return.requested. Each line's refund is its unit price times the
// quantity returned.
func (s *Service) CreateTest(ctx context.Context, in TestReturn) (*View, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return nil, err
	}
	if s.events == nil {
		return nil, errors.New("returns: a read-only service makes no moves")
	}
	ov, err := s.orders.GetOrder(ctx, in.OrderID)
	if err != nil {
		return nil, err
	}
	// The order is the shop's: now the queued failure, if any, is this
	// request's (an unknown order, or another shop's, left it queued).
	if err := s.injected(ctx, seller); err != nil {
		return nil, err
	}
	o := ov.Order
	if o.Status != orders.StatusDelivered {
		return nil, apierr.Newf(apierr.InvalidTransition, "a return is filed against a DELIVERED order; the order is %s", o.Status)
	}
	items, total, err := returnedItems(o, in.Items)
	if err != nil {
		return nil, err
	}
	now := s.clock.Business(ctx)
	r := &Return{ID: ids.NewAt("ret", now), OrderID: o.ID, SellerID: seller, State: NewRequest(in.RefundOnly, now),
		Reason: in.Reason, Evidence: []string{}, Items: items, RefundAmount: total, Currency: o.Currency,
		CreatedAt: now, UpdatedAt: now}
	var out *View
	err = s.subject.InTx(ctx, func(ctx context.Context) error {
		if err := s.store.Create(ctx, r); err != nil {
			return err
		}
		stored, err := s.store.Get(ctx, seller, r.ID)
		if err != nil {
			return err
		}
		if out, err = s.view(ctx, stored, now); err != nil {
			return err
		}
		return s.record(ctx, out, now)
	})
	return out, err
}

// returnedItems are the lines of o a return takes back, with their refund
// amounts and total; asked names lines by order item id.
func returnedItems(o *orders.Order, asked []Item) ([]Item, int64, error) {
	var out []Item
	var total int64
	if len(asked) == 0 {
		for _, it := range o.Items {
			out = append(out, Item{ItemID: it.ID, Quantity: it.Quantity, RefundAmount: it.TotalPrice})
			total += it.TotalPrice
		}
		return out, total, nil
	}
	seen := map[string]bool{}
	for i, a := range asked {
		var line *orders.Item
		for j := range o.Items {
			if o.Items[j].ID == a.ItemID {
				line = &o.Items[j]
			}
		}
		switch {
		case line == nil:
			return nil, 0, apierr.Newf(apierr.ValidationError, "items[%d].itemId: not a line of order %s", i, o.ID)
		case seen[a.ItemID]:
			return nil, 0, apierr.Newf(apierr.ValidationError, "items[%d].itemId: %s is named twice", i, a.ItemID)
		case a.Quantity > line.Quantity:
			return nil, 0, apierr.Newf(apierr.ValidationError, "items[%d].quantity: at most the %d ordered", i, line.Quantity)
		}
		seen[a.ItemID] = true
		amount := line.UnitPrice * a.Quantity
		out = append(out, Item{ItemID: a.ItemID, Quantity: a.Quantity, RefundAmount: amount})
		total += amount
	}
	return out, total, nil
}

// transitionAction is the buyer's or platform's action that reaches each
// status a sandbox transition may ask for.
var transitionAction = map[Status]Action{
	BuyerShipped: Ship,
	Received:     Receive,
	Disputed:     Escalate,
	Refunded:     Refund,
	Closed:       Close,
}

// TransitionTest makes the buyer's or the platform's move on one of the
// calling test shop's returns: the buyer ships (BUYER_SHIPPED, with a
// tracking number), the parcel arrives (RECEIVED), the buyer escalates a
// rejection (DISPUTED), the platform decides a dispute (REFUNDED, in full,
// or CLOSED). A move the machine does not allow is INVALID_TRANSITION.
func (s *Service) TransitionTest(ctx context.Context, id string, to Status) (*View, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return nil, err
	}
	return s.platformMove(ctx, seller, id, to)
}

// DecideDispute is the platform's decision of seller's DISPUTED return id:
// REFUNDED (in full) or CLOSED.
func (s *Service) DecideDispute(ctx context.Context, seller, id string, outcome Status) (*View, error) {
	if outcome != Refunded && outcome != Closed {
		return nil, apierr.Newf(apierr.ValidationError, "outcome: REFUNDED or CLOSED, not %s", outcome)
	}
	return s.platformMove(ctx, seller, id, outcome)
}

// platformMove is a move that is not the seller's, in one transaction like
// the seller's: settled first, the machine's move, then what comes with
// it.
func (s *Service) platformMove(ctx context.Context, seller, id string, to Status) (*View, error) {
	a, ok := transitionAction[to]
	if !ok {
		return nil, apierr.Newf(apierr.ValidationError, "to: %s is not a move the buyer or the platform makes", to)
	}
	if s.events == nil {
		return nil, errors.New("returns: a read-only service makes no moves")
	}
	// The shop's business clock stamps the move, as for the seller's.
	ctx = principal.WithSeller(ctx, seller)
	now := s.clock.Business(ctx)
	var out *View
	err := s.subject.InTx(ctx, func(ctx context.Context) error {
		r, _, err := s.subject.Settle(ctx, deadline.Ref{SellerID: seller, ID: id}, now)
		if err != nil {
			return err
		}
		next, err := Next(r.State, a, now)
		if err != nil {
			return asTransitionRefusal(err, r.Status, to)
		}
		m := Move{From: r.Status, To: next, At: now}
		switch a {
		case Ship:
			// The random tail of an id: the buyer's parcel's number.
			tn := "RTN" + strings.ToUpper(ids.NewAt("x", now)[12:])
			m.TrackingNumber = &tn
		case Escalate:
			m.Dispute = &DisputeCase{ID: ids.NewAt("rtd", now), RaisedBy: "BUYER",
				Description: "The buyer escalated the seller's rejection.", Evidence: []string{}, CreatedAt: now}
		case Refund:
			full := r.RefundAmount
			m.RefundedAmount, m.DisputeOutcome = &full, Refunded
		case Close:
			m.DisputeOutcome = Closed
		}
		out, err = s.apply(ctx, r, m, RefundByPlatform, func(cur *Return) error {
			return asTransitionRefusal(Check(cur.State, a, now), cur.Status, to)
		})
		return err
	})
	return out, err
}

// asTransitionRefusal is a refusal of a buyer's or platform's move as the
// sandbox answers it: the machine's INVALID_TRANSITION and deadline
// refusals as they are, RETURN_ALREADY_PROCESSED (a seller's refusal)
// never arises for these moves.
func asTransitionRefusal(err error, current, to Status) error {
	if err == nil {
		return nil
	}
	if e, ok := apierr.As(err); ok && e.Code == apierr.InvalidTransition {
		return apierr.New(apierr.InvalidTransition, fmt.Sprintf("a return that is %s cannot move to %s", current, to))
	}
	return err
}
