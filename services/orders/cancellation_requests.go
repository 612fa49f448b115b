package orders

import (
	"context"
	"errors"
	"time"

	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
)

// CancellationRequest is a buyer's latest request to cancel an order, as
// the order carries it (cancellationRequest).
type CancellationRequest struct {
	Status      ordersv1.CancellationRequestStatus
	Reason      string
	RequestedAt time.Time
	RespondBy   time.Time
}

// CancellationRequests is buyers' cancellation requests as the
// cancellations domain keeps them: the order reads show each order's latest
// one through it, so the orders package never imports that domain (the
// cancellations domain implements it; the platform wires it with
// UseCancellationRequests).
type CancellationRequests interface {
	// ForOrders reads the latest request of each of seller's orders named
	// (one indexed query for them all), keyed by order id, settled at now:
	// a request past its deadline is auto-approved first, which cancels its
	// order through Cancel. moved names the orders whose request moved, so
	// the caller reads them again.
	ForOrders(ctx context.Context, sellerID string, orderIDs []string, now time.Time) (requests map[string]CancellationRequest, moved []string, err error)
	// Latest reads the latest request of each of seller's orders named, as
	// the transaction ctx carries it, settling nothing: what the order
	// events carry. They are rendered inside the change's transaction,
	// where a settlement (which cancels its order) would move the very
	// order the event records.
	Latest(ctx context.Context, sellerID string, orderIDs []string) (map[string]CancellationRequest, error)
}

// CancellationRequested is the orders' step for a buyer's request to cancel
// sellerID's order, made at at: it stamps the order, in the caller's
// transaction (the request's), so the order reads know to show the request.
// The order's status does not change; ErrNotFound reads as 404.
func (s *Service) CancellationRequested(ctx context.Context, sellerID, orderID string, at time.Time) error {
	if err := s.store.MarkCancellationRequested(ctx, sellerID, orderID, at); err != nil {
		if errors.Is(err, ErrNotFound) {
			return apierr.New(apierr.NotFound, "order not found")
		}
		return err
	}
	return nil
}

// UseCancellationRequests makes the order reads carry buyers' cancellation
// requests. Set once, while the platform is wired, before the service
// serves.
func (s *Service) UseCancellationRequests(c CancellationRequests) { s.cancellations = c }

// withCancellationRequests fills views' cancellationRequest, reading again
// the orders whose request the settlement moved (an automatic approval
// cancelled them). views are the seller's, rendered at now.
func (s *Service) withCancellationRequests(ctx context.Context, seller string, views []View, now time.Time) error {
	ids := s.requestedOrders(views)
	if len(ids) == 0 {
		return nil
	}
	requests, moved, err := s.cancellations.ForOrders(ctx, seller, ids, now)
	if err != nil {
		return err
	}
	if len(moved) > 0 {
		fresh, err := s.store.GetOrders(ctx, seller, moved)
		if err != nil {
			return err
		}
		byID := make(map[string]*Order, len(fresh))
		for _, o := range fresh {
			byID[o.ID] = o
		}
		for i, v := range views {
			if o := byID[v.Order.ID]; o != nil {
				views[i] = s.view(ctx, o, now)
			}
		}
	}
	carryRequests(views, requests)
	return nil
}

// eventViews are what the order events of os (the seller's, just changed
// in the transaction ctx carries) show at now: the partner view, with each
// order's cancellationRequest as the reads show it, read without settling
// (CancellationRequests.Latest).
func (s *Service) eventViews(ctx context.Context, seller string, os []*Order, now time.Time) ([]View, error) {
	views := make([]View, len(os))
	for i, o := range os {
		views[i] = partnerView(o, now)
	}
	if err := s.withLatestRequests(ctx, seller, views); err != nil {
		return nil, err
	}
	return views, nil
}

// withLatestRequests sets the cancellationRequest of views of orders just
// changed in the transaction ctx carries, read without settling
// (CancellationRequests.Latest): settling may cancel the order in the
// middle of the change being recorded.
func (s *Service) withLatestRequests(ctx context.Context, seller string, views []View) error {
	ids := s.requestedOrders(views)
	if len(ids) == 0 {
		return nil
	}
	requests, err := s.cancellations.Latest(ctx, seller, ids)
	if err != nil {
		return err
	}
	carryRequests(views, requests)
	return nil
}

// eventView is eventViews of one order.
func (s *Service) eventView(ctx context.Context, o *Order, now time.Time) (View, error) {
	vs, err := s.eventViews(ctx, o.SellerID, []*Order{o}, now)
	if err != nil {
		return View{}, err
	}
	return vs[0], nil
}

// requestedOrders names the orders of views the cancellations domain is
// asked about: only orders a buyer asked about have a request (the stamp
// CancellationRequested leaves), so the others cost no query; none when
// the platform wired no cancellations.
func (s *Service) requestedOrders(views []View) []string {
	if s.cancellations == nil {
		return nil
	}
	var ids []string
	for _, v := range views {
		if v.Order.CancellationRequestedAt != nil {
			ids = append(ids, v.Order.ID)
		}
	}
	return ids
}

// carryRequests sets each view's cancellationRequest from requests, keyed
// by order id.
func carryRequests(views []View, requests map[string]CancellationRequest) {
	for i, v := range views {
		if r, ok := requests[v.Order.ID]; ok {
			views[i].CancellationRequest = &r
		}
	}
}
