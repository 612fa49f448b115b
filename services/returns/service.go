package returns

import (
	"context"
	"errors"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/deadline"
	"github.com/mallplatform/partnerapi/internal/pagination"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/orders"
)

// View is a return as a partner reads it: settled at the business time of
// the read, with the seller's next actions at that time and its refunds.
type View struct {
	*Return
	NextActions []NextAction
	Refunds     []RefundRecord
}

// Orders is what returns need of the orders domain, its named steps only:
// reading the seller's order a return is filed against, and the refund
// step (services/orders Refund), which moves the order to RETURN_REFUND in
// the caller's transaction. *orders.Service implements it.
type Orders interface {
	GetOrder(ctx context.Context, id string) (orders.View, error)
	Refund(ctx context.Context, sellerID, orderID string) (bool, error)
}

// Faults is the sandbox's queue of injected failures: Take consumes one of
// the shop's queued failures of target, committed on its own.
type Faults interface {
	Take(ctx context.Context, sellerID, target string) (string, bool, error)
}

// Service is the returns' use cases. Every read and every move settles the
// returns it touches first (the deadline mechanism), on the calling
// seller's business clock, so no partner sees or acts on a return in a
// state whose deadline has passed.
type Service struct {
	store   Store
	subject *deadline.Subject[*Return]
	clock   clock.Business
	cursors *pagination.Cursors

	// The moves' parts; nil in a read-only service (NewService).
	events *events.Recorder
	orders Orders
	ledger Ledger
	faults Faults
}

// NewService returns a read-only service over store; subject is the
// returns' part in the deadline mechanism (NewSubject over the same store),
// business the shops' clocks (shopclock.Clock).
func NewService(store Store, subject *deadline.Subject[*Return], business clock.Business) (*Service, error) {
	if store == nil || business == nil {
		return nil, errors.New("returns: a store and a business clock are required")
	}
	if err := subject.Validate(); err != nil {
		return nil, err
	}
	return &Service{store: store, subject: subject, clock: business, cursors: pagination.RandomCursors()}, nil
}

// Config is what the full service is built from.
type Config struct {
	Store    Store
	Ledger   Ledger
	InTx     deadline.TxRunner
	Business clock.Business
	Cursors  *pagination.Cursors
	Events   *events.Recorder
	Orders   Orders
	// Faults is the sandbox's fault queue (nil: no injected failures).
	Faults Faults
}

// New returns the service with its moves: each move, its refund and its
// event commit together, and the automatic moves of the deadline mechanism
// (Subject) refund and record their events the same way.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil || cfg.Ledger == nil || cfg.InTx == nil || cfg.Business == nil || cfg.Cursors == nil ||
		cfg.Events == nil || cfg.Orders == nil {
		return nil, errors.New("returns: a store, a ledger, a transaction runner, a business clock, cursors, events and orders are required")
	}
	s := &Service{store: cfg.Store, clock: cfg.Business, cursors: cfg.Cursors, events: cfg.Events,
		orders: cfg.Orders, ledger: cfg.Ledger, faults: cfg.Faults}
	s.subject = NewSubject(cfg.Store, s.afterAuto, cfg.InTx)
	return s, nil
}

// Subject is the returns' part in the deadline mechanism, for the deadline
// sweep (RegisterDeadlines).
func (s *Service) Subject() *deadline.Subject[*Return] { return s.subject }

// Get reads the calling seller's return id, settled now.
func (s *Service) Get(ctx context.Context, id string) (*View, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return nil, err
	}
	now := s.clock.Business(ctx)
	var out *View
	err = s.subject.InTx(ctx, func(ctx context.Context) error {
		r, _, err := s.subject.Settle(ctx, deadline.Ref{SellerID: seller, ID: id}, now)
		if err != nil {
			return err
		}
		out, err = s.view(ctx, r, now)
		return err
	})
	return out, err
}

// List reads a page of the calling seller's returns that f selects, newest
// first, with whether more follow and how many f selects in all; the
// seller's returns with a move due are settled first, in the same
// transaction.
func (s *Service) List(ctx context.Context, f Filter, p Page) ([]*View, bool, int64, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return nil, false, 0, err
	}
	now := s.clock.Business(ctx)
	var (
		out   []*View
		more  bool
		total int64
	)
	err = s.subject.InTx(ctx, func(ctx context.Context) error {
		if _, err := s.subject.SettleDue(ctx, seller, now); err != nil {
			return err
		}
		rs, m, err := s.store.List(ctx, seller, f, p)
		if err != nil {
			return err
		}
		if total, err = s.store.Count(ctx, seller, f); err != nil {
			return err
		}
		more = m
		out, err = s.views(ctx, seller, rs, now)
		return err
	})
	if err != nil {
		return nil, false, 0, err
	}
	return out, more, total, nil
}

// ListRequest is a listing as the route asks for it: filters, and a page
// number or a cursor.
type ListRequest struct {
	Filter
	Page, Limit int32
	Cursor      string
}

// ListPage is List on the platform's keyset cursors (internal/pagination):
// a cursor continues the listing it was issued for.
func (s *Service) ListPage(ctx context.Context, req ListRequest) (pagination.Page[*View], error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return pagination.Page[*View]{}, err
	}
	w, err := pagination.Resolve[pagination.TimeKey](s.cursors,
		pagination.Request{Page: req.Page, Limit: req.Limit, Cursor: req.Cursor}, fingerprint(seller, req.Filter))
	if err != nil {
		return pagination.Page[*View]{}, err
	}
	p := Page{Limit: w.Limit, Offset: w.Offset}
	if w.After != nil {
		p.After = &Key{CreatedAt: w.After.At, ID: w.After.ID}
	}
	views, more, total, err := s.List(ctx, req.Filter, p)
	if err != nil {
		return pagination.Page[*View]{}, err
	}
	return pagination.NewPage(w, views, more, total, func(v *View) pagination.TimeKey {
		return pagination.TimeKey{At: v.CreatedAt, ID: v.ID}
	}), nil
}

// fingerprint ties a cursor to the seller and filters it was issued for.
func fingerprint(seller string, f Filter) string {
	after, before := "", ""
	if f.CreatedAfter != nil {
		after = f.CreatedAfter.UTC().Format(time.RFC3339Nano)
	}
	if f.CreatedBefore != nil {
		before = f.CreatedBefore.UTC().Format(time.RFC3339Nano)
	}
	return pagination.Fingerprint("returns", seller, string(f.Status), f.OrderID, after, before)
}

// Reasons is the dispute reasons (GET /open/v1/returns/dispute-reasons).
func (s *Service) Reasons() []DisputeReason { return DisputeReasons }

// view is r as partners read it at now, with its refunds.
func (s *Service) view(ctx context.Context, r *Return, now time.Time) (*View, error) {
	vs, err := s.views(ctx, r.SellerID, []*Return{r}, now)
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

func (s *Service) views(ctx context.Context, seller string, rs []*Return, now time.Time) ([]*View, error) {
	refunds := map[string][]RefundRecord{}
	if s.ledger != nil && len(rs) > 0 {
		ids := make([]string, len(rs))
		for i, r := range rs {
			ids[i] = r.ID
		}
		var err error
		if refunds, err = s.ledger.Refunds(ctx, seller, ids); err != nil {
			return nil, err
		}
	}
	out := make([]*View, len(rs))
	for i, r := range rs {
		out[i] = &View{Return: r, NextActions: NextActions(r.State, now), Refunds: nonNilRefunds(refunds[r.ID])}
	}
	return out, nil
}

func nonNilRefunds(rs []RefundRecord) []RefundRecord {
	if rs == nil {
		return []RefundRecord{}
	}
	return rs
}
