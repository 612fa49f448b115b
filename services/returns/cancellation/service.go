package cancellation

import (
	"context"
	"errors"
	"time"

	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/deadline"
	resourceids "github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/pagination"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/orders"
)

// Orders is the orders service's steps a request needs: reading the
// order, and cancelling it through the one cancel path (stock back,
// booking voided, order.cancelled), in the transaction ctx carries.
// orders.Service implements it.
type Orders interface {
	GetOrder(ctx context.Context, id string) (orders.View, error)
	Cancel(ctx context.Context, id string, expected *orders.Status) (orders.View, error)
	CancellationRequested(ctx context.Context, sellerID, orderID string, at time.Time) error
}

// Service holds the requests' use cases.
type Service struct {
	store   Store
	orders  Orders
	events  *events.Recorder
	clock   clock.Business
	cursors *pagination.Cursors
	inTx    deadline.TxRunner
	subject *deadline.Subject[*Request]
}

// Config is what a Service is built from; every part is required.
type Config struct {
	Store  Store
	Orders Orders
	Events *events.Recorder
	// Business is each shop's business time, which the 48 hours run on.
	Business clock.Business
	Cursors  *pagination.Cursors
	// InTx runs a function in a transaction, joining the one ctx carries.
	InTx deadline.TxRunner
}

// NewService returns a Service.
func NewService(cfg Config) (*Service, error) {
	if cfg.Store == nil || cfg.Orders == nil || cfg.Events == nil || cfg.Business == nil || cfg.Cursors == nil || cfg.InTx == nil {
		return nil, errors.New("cancellation: a service needs a store, the orders, events, a business clock, cursors and transactions")
	}
	s := &Service{store: cfg.Store, orders: cfg.Orders, events: cfg.Events, clock: cfg.Business, cursors: cfg.Cursors, inTx: cfg.InTx}
	s.subject = NewSubject(cfg.Store, s.recordAuto, cfg.InTx)
	return s, nil
}

// Subject is the requests' part in the deadline mechanism (its job).
func (s *Service) Subject() *deadline.Subject[*Request] { return s.subject }

// shippedReason is the rejection's reason of a request whose order left the
// seller before the request's deadline.
const shippedReason = "the order shipped before the request was answered"

// recordAuto is the automatic approval's part in its transaction: the
// order is cancelled through the orders service and
// cancellation.auto_approved recorded. An order that has shipped meanwhile
// cannot be cancelled any more: the request is closed as REJECTED instead
// (with cancellation.rejected), so it neither stays due forever nor claims
// a cancellation that did not happen.
func (s *Service) recordAuto(ctx context.Context, r *Request, m deadline.Move) error {
	_, err := s.orders.Cancel(principal.WithSeller(ctx, r.SellerID), r.OrderID, nil)
	if e, ok := apierr.As(err); ok && e.Code == apierr.OrderNotCancellable {
		moved, err := s.store.Overturn(ctx, r.SellerID, r.ID, AutoApproved, Rejected, shippedReason, m.At)
		if err != nil {
			return err
		}
		if !moved {
			return errors.New("cancellation: the automatic approval moved under its own transaction")
		}
		if r, err = s.store.Get(ctx, r.SellerID, r.ID); err != nil {
			return err
		}
		return s.record(ctx, eventsv1.EventType_EVENT_TYPE_CANCELLATION_REJECTED, r, m.At)
	}
	if err != nil {
		return err
	}
	return s.record(ctx, eventsv1.EventType_EVENT_TYPE_CANCELLATION_AUTO_APPROVED, r, m.At)
}

func (s *Service) record(ctx context.Context, t eventsv1.EventType, r *Request, at time.Time) error {
	_, err := s.events.Record(ctx, events.Change{SellerID: r.SellerID, Type: t, ResourceID: r.ID, At: at, View: ToProto(r)})
	return err
}

// settled is the order's latest request, settled at now in a transaction
// of its own: an automatic approval due commits even when the action that
// read it is then refused. No request is NOT_FOUND.
func (s *Service) settled(ctx context.Context, seller, orderID string, now time.Time) (*Request, error) {
	if !resourceids.Plausible("ord", orderID) {
		return nil, notFound()
	}
	r, err := s.store.ForOrder(ctx, seller, orderID)
	if err != nil {
		return nil, err
	}
	if _, due := Auto(r.Status, r.RespondBy, now); !due {
		return r, nil
	}
	return s.settle(ctx, seller, r.ID, now)
}

// settle applies the automatic approval due on the seller's request and
// reads it as it then stands (its recorder may have closed it as rejected
// after the move the mechanism saw).
func (s *Service) settle(ctx context.Context, seller, id string, now time.Time) (*Request, error) {
	if _, _, err := s.subject.Settle(ctx, deadline.Ref{SellerID: seller, ID: id}, now); err != nil {
		return nil, err
	}
	return s.store.Get(ctx, seller, id)
}

// Approve approves the order's pending request: in one transaction the
// request becomes APPROVED (a conditional update, so of an approval and a
// rejection racing one wins), the order is cancelled through the orders
// service (stock back, booking voided, order.cancelled) and
// cancellation.approved recorded. An order that shipped meanwhile is 422
// ORDER_NOT_CANCELLABLE and leaves the request pending.
func (s *Service) Approve(ctx context.Context, orderID string) (*Request, error) {
	return s.decide(ctx, orderID, Approve, "")
}

// Reject rejects the order's pending request with the seller's reason; the
// order goes on (cancellation.rejected).
func (s *Service) Reject(ctx context.Context, orderID, reason string) (*Request, error) {
	return s.decide(ctx, orderID, Reject, reason)
}

func (s *Service) decide(ctx context.Context, orderID string, a Action, reason string) (*Request, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return nil, err
	}
	now := s.clock.Business(ctx)
	r, err := s.settled(ctx, seller, orderID, now)
	if err != nil {
		return nil, err
	}
	if err := Check(r.Status, r.RespondBy, now, a); err != nil {
		return nil, err
	}
	var out *Request
	err = s.inTx(ctx, func(ctx context.Context) error {
		won, err := s.store.Decide(ctx, seller, r.ID, To(a), reason, now)
		if err != nil {
			return err
		}
		if !won {
			// Another answer (or the deadline) came first: refused on
			// the request as it now stands.
			cur, err := s.store.Get(ctx, seller, r.ID)
			if err != nil {
				return err
			}
			if err := Check(cur.Status, cur.RespondBy, now, a); err != nil {
				return err
			}
			return apierr.New(errorsv1.ErrorCode_ERROR_CODE_CONCURRENT_MODIFICATION, "the cancellation request changed while it was answered")
		}
		t := eventsv1.EventType_EVENT_TYPE_CANCELLATION_REJECTED
		if a == Approve {
			t = eventsv1.EventType_EVENT_TYPE_CANCELLATION_APPROVED
			// The row is ours until commit: the orders' cancel voids the
			// booking and moves the order under it, and a refusal rolls
			// the approval back.
			if _, err := s.orders.Cancel(ctx, orderID, nil); err != nil {
				return err
			}
		}
		if out, err = s.store.Get(ctx, seller, r.ID); err != nil {
			return err
		}
		return s.record(ctx, t, out, now)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Request records a buyer's request to cancel one of the calling test
// shop's orders (the sandbox's buyer): PENDING, due 48 business hours
// later, with cancellation.requested. Only an order that has not shipped
// may be asked about (422 ORDER_NOT_CANCELLABLE); an order with a pending
// request already is 409 CONFLICT.
func (s *Service) Request(ctx context.Context, orderID, reason string) (*Request, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return nil, err
	}
	o, err := s.orders.GetOrder(ctx, orderID)
	if err != nil {
		return nil, err
	}
	if !o.Order.Status.PreShipment() {
		return nil, apierr.Newf(apierr.OrderNotCancellable, "the order is %s: a buyer may ask to cancel only an order not yet shipped",
			o.Order.Status.PartnerStatus())
	}
	now := s.clock.Business(ctx)
	r := &Request{ID: resourceids.New("ccr"), SellerID: seller, OrderID: o.Order.ID, Status: Pending, Reason: reason,
		RequestedAt: now, RespondBy: RespondBy(now), CreatedAt: now, UpdatedAt: now}
	err = s.inTx(ctx, func(ctx context.Context) error {
		if err := s.store.Create(ctx, r); err != nil {
			return err
		}
		if err := s.orders.CancellationRequested(ctx, seller, r.OrderID, now); err != nil {
			return err
		}
		return s.record(ctx, eventsv1.EventType_EVENT_TYPE_CANCELLATION_REQUESTED, r, now)
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// List is a page of the seller's requests (status "" for all), newest
// first, settled first so that none shows PENDING past its deadline.
func (s *Service) List(ctx context.Context, status Status, req pagination.Request) (pagination.Page[*Request], error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return pagination.Page[*Request]{}, err
	}
	w, err := pagination.Resolve[pagination.TimeKey](s.cursors, req, pagination.Fingerprint("cancellation-requests", seller, string(status)))
	if err != nil {
		return pagination.Page[*Request]{}, err
	}
	if _, err := s.subject.SettleDue(ctx, seller, s.clock.Business(ctx)); err != nil {
		return pagination.Page[*Request]{}, err
	}
	p := Page{Limit: w.Limit, Offset: w.Offset}
	if w.After != nil {
		p.After = &Key{CreatedAt: w.After.At, ID: w.After.ID}
	}
	var rows []*Request
	var more bool
	total, err := pagination.PageAndCount(
		func() (int64, error) { return s.store.Count(ctx, seller, status) },
		func() (err error) { rows, more, err = s.store.List(ctx, seller, status, p); return err })
	if err != nil {
		return pagination.Page[*Request]{}, err
	}
	return pagination.NewPage(w, rows, more, total, func(r *Request) pagination.TimeKey {
		return pagination.TimeKey{At: r.CreatedAt, ID: r.ID}
	}), nil
}
