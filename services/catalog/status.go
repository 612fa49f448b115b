package catalog

import (
	"context"
	"slices"
	"time"

	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// partnerStatuses are the statuses a partner may set, and move between.
var partnerStatuses = []ProductStatus{StatusLive, StatusUnlisted, StatusDelisted}

// ProductMove is a status change made with one conditional statement.
type ProductMove struct {
	// From are the statuses the product moves from; in any other it stays.
	From []ProductStatus
	To   ProductStatus
	// At becomes the product's updated_at.
	At time.Time
	// SetNote replaces the review note with Note (nil clears it); without
	// it the note is left as it is.
	SetNote bool
	Note    *string
}

// GetProduct returns one of the seller's products, whatever its status:
// an archived product is still the seller's and is listed under
// status=archived, so reading it by id answers it too.
func (s *Service) GetProduct(ctx context.Context, id string) (*Product, error) {
	sellerID, err := principal.RequireSeller(ctx)
	if err != nil {
		return nil, err
	}
	if !ids.Valid("prd", id) {
		return nil, notFoundProduct(id)
	}
	p, err := s.store.GetProduct(ctx, sellerID, id)
	if err != nil {
		return nil, s.productErr(err, id)
	}
	return p, nil
}

// SetStatus moves one of the seller's products to live, unlisted or
// delisted. From any of those three it moves (the same status again
// changes nothing and records no event); a product in review is
// PRODUCT_UNDER_REVIEW, an archived one INVALID_TRANSITION. expected, when
// set, is a compare-and-swap guard: the change applies only while the
// product is in that status, CONCURRENT_MODIFICATION otherwise. The guard
// and the change are one conditional UPDATE, so two partners racing cannot
// both win from the same status.
func (s *Service) SetStatus(ctx context.Context, id string, to ProductStatus, expected *ProductStatus) (*Product, error) {
	sellerID, err := principal.RequireSeller(ctx)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(partnerStatuses, to) {
		return nil, apierr.New(apierr.ValidationError, "status: must be one of live, unlisted, delisted")
	}
	if !ids.Valid("prd", id) {
		return nil, notFoundProduct(id)
	}
	var from []ProductStatus
	for _, st := range partnerStatuses {
		if st != to && (expected == nil || *expected == st) {
			from = append(from, st)
		}
	}
	// The conditional UPDATE decides; the product it reads back when it
	// did not move explains why. That read can meet a change committed
	// after the statement (PostgreSQL's read committed): a status the move
	// would start from then means "try again", a bounded number of times.
	for attempt := 0; ; attempt++ {
		now := s.clock.Business(ctx).UTC()
		p, moved, err := s.move(ctx, sellerID, id, ProductMove{From: from, To: to, At: now})
		if err != nil {
			return nil, s.productErr(err, id)
		}
		if moved {
			return p, nil
		}
		switch {
		case expected != nil && p.Status != *expected:
			return nil, apierr.Newf(apierr.ConcurrentModification,
				"expectedStatus is %s but the product is %s; read it again and retry", *expected, p.Status)
		case p.Status == to:
			return p, nil
		case p.Status == StatusProposed || p.Status == StatusUnderReview:
			return nil, apierr.Newf(apierr.ProductUnderReview,
				"the product is %s: its status can be set once the platform's review has ended", p.Status)
		case p.Status == StatusArchived:
			return nil, apierr.New(apierr.InvalidTransition, "the product is archived (deleted): its status can no longer change")
		}
		if attempt == 2 {
			return nil, apierr.New(apierr.ConcurrentModification, "the product kept changing while its status was being set; read it again and retry")
		}
	}
}

// move applies m and, when the product moved, records
// product.status_changed in the same transaction.
func (s *Service) move(ctx context.Context, sellerID, id string, m ProductMove) (*Product, bool, error) {
	var p *Product
	var moved bool
	err := s.store.InTx(ctx, func(ctx context.Context) error {
		var err error
		p, moved, err = s.store.MoveProduct(ctx, sellerID, id, m)
		if err != nil || !moved {
			return err
		}
		return s.record(ctx, eventsv1.EventType_EVENT_TYPE_PRODUCT_STATUS_CHANGED, p, m.At)
	})
	if err != nil {
		return nil, false, err
	}
	return p, moved, nil
}
