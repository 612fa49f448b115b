package returns

import (
	"context"
	"errors"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/deadline"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// View is a return as a partner reads it: settled at the business time of
// the read, with the seller's next actions at that time.
type View struct {
	*Return
	NextActions []NextAction
}

// Service is the returns' use cases. Every read settles the returns it
// shows first (the deadline mechanism), on the calling seller's business
// clock, so no partner sees a return in a state whose deadline has passed.
type Service struct {
	store   Store
	subject *deadline.Subject[*Return]
	clock   clock.Business
}

// NewService returns the service over store; subject is the returns' part
// in the deadline mechanism (NewSubject over the same store), business the
// shops' clocks (shopclock.Clock).
func NewService(store Store, subject *deadline.Subject[*Return], business clock.Business) (*Service, error) {
	if store == nil || business == nil {
		return nil, errors.New("returns: a store and a business clock are required")
	}
	if err := subject.Validate(); err != nil {
		return nil, err
	}
	return &Service{store: store, subject: subject, clock: business}, nil
}

// Get reads the calling seller's return id, settled now.
func (s *Service) Get(ctx context.Context, id string) (*View, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return nil, err
	}
	now := s.clock.Business(ctx)
	r, _, err := s.subject.Settle(ctx, deadline.Ref{SellerID: seller, ID: id}, now)
	if err != nil {
		return nil, err
	}
	return view(r, now), nil
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
		out, more = make([]*View, len(rs)), m
		for i, r := range rs {
			out[i] = view(r, now)
		}
		return nil
	})
	if err != nil {
		return nil, false, 0, err
	}
	return out, more, total, nil
}

// Reasons is the dispute reasons (GET /open/v1/returns/dispute-reasons).
func (s *Service) Reasons() []DisputeReason { return DisputeReasons }

func view(r *Return, now time.Time) *View {
	return &View{Return: r, NextActions: NextActions(r.State, now)}
}
