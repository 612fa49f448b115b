package catalog

import (
	"context"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// ReviewStep is one named step of the platform's review of a new product.
// The trust and safety team's internal methods, the sandbox's review tool
// and the sandbox's automatic approval all move products through these
// steps and nothing else.
type ReviewStep struct {
	// Name names the step in messages.
	Name     string
	From, To ProductStatus
	// Notes: the step sets the product's review note (or clears it).
	Notes bool
}

// The review's steps: proposed → under_review → live or delisted.
var (
	StepStartReview = ReviewStep{Name: "start review", From: StatusProposed, To: StatusUnderReview}
	StepApprove     = ReviewStep{Name: "approve", From: StatusUnderReview, To: StatusLive, Notes: true}
	StepReject      = ReviewStep{Name: "reject", From: StatusUnderReview, To: StatusDelisted, Notes: true}
)

// Review takes one step on a product of any seller: the platform's review
// names products alone. The step's time is the product's seller's
// business time (a test shop's moved clock). A product not in the step's
// source status is INVALID_TRANSITION.
func (s *Service) Review(ctx context.Context, id string, step ReviewStep, note *string) (*Product, error) {
	if !ids.Valid("prd", id) {
		return nil, notFoundProduct(id)
	}
	sellerID, err := s.store.ProductSeller(ctx, id)
	if err != nil {
		return nil, s.productErr(err, id)
	}
	return s.step(principal.WithSeller(ctx, sellerID), sellerID, id, step, note)
}

// ReviewOwn ends the review of one of the calling seller's products, as
// the sandbox offers it: a proposed product is taken into review first;
// then it is approved or rejected with the note. Both steps commit
// together. A product outside review is INVALID_TRANSITION.
func (s *Service) ReviewOwn(ctx context.Context, id string, approve bool, note *string) (*Product, error) {
	sellerID, err := principal.RequireSeller(ctx)
	if err != nil {
		return nil, err
	}
	if !ids.Valid("prd", id) {
		return nil, notFoundProduct(id)
	}
	return s.endReview(ctx, sellerID, id, approve, note)
}

// endReview takes a proposed or under_review product of the seller to the
// end of its review in one transaction.
func (s *Service) endReview(ctx context.Context, sellerID, id string, approve bool, note *string) (*Product, error) {
	last := StepReject
	if approve {
		last = StepApprove
	}
	var out *Product
	err := s.store.InTx(ctx, func(ctx context.Context) error {
		p, err := s.store.GetProduct(ctx, sellerID, id)
		if err != nil {
			return s.productErr(err, id)
		}
		if p.Status != StatusProposed && p.Status != StatusUnderReview {
			return apierr.Newf(apierr.InvalidTransition,
				"the product is %s: only a proposed or under_review product is in review", p.Status)
		}
		if p.Status == StatusProposed {
			if _, err := s.step(ctx, sellerID, id, StepStartReview, nil); err != nil {
				return err
			}
		}
		out, err = s.step(ctx, sellerID, id, last, note)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// step moves the seller's product through one review step.
func (s *Service) step(ctx context.Context, sellerID, id string, st ReviewStep, note *string) (*Product, error) {
	m := ProductMove{From: []ProductStatus{st.From}, To: st.To, At: s.clock.Business(ctx).UTC(), SetNote: st.Notes, Note: note}
	p, moved, err := s.move(ctx, sellerID, id, m)
	if err != nil {
		return nil, s.productErr(err, id)
	}
	if !moved {
		return nil, apierr.Newf(apierr.InvalidTransition,
			"review step %q applies to a %s product; this one is %s", st.Name, st.From, p.Status)
	}
	return p, nil
}

// AutoApprove approves a proposed product of the seller as the sandbox's
// automatic review does, through the same steps as ReviewOwn.
func (s *Service) AutoApprove(ctx context.Context, sellerID, id string) (*Product, error) {
	return s.endReview(principal.WithSeller(ctx, sellerID), sellerID, id, true, nil)
}
