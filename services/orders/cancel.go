package orders

import (
	"context"
	"errors"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// Restocker puts quantities back on a seller's variants. Variants that no
// longer exist, or belong to another seller, are skipped; a variant whose
// stock is unknown stays unknown.
type Restocker interface {
	Restock(ctx context.Context, sellerID string, quantities map[string]int64) error
}

// MaxBulkCancel is the largest bulk cancel: the spec's schema allows 1,000
// (its title says 50, the recommended batch).
const MaxBulkCancel = 1000

// preShipment is the stored states a cancellation may start from.
var preShipment = []Status{StatusPending, StatusPaid, StatusReadyToShip}

// Cancel cancels one of the calling seller's orders; expected, when set, is
// the compare-and-swap guard (the pre-shipment states are equivalent). The
// status change, the restock and the order.cancelled event commit together.
func (s *Service) Cancel(ctx context.Context, id string, expected *Status) (View, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return View{}, err
	}
	var out View
	err = s.store.InTx(ctx, func(ctx context.Context) error {
		v, err := s.cancel(ctx, seller, id, expected)
		out = v
		return err
	})
	return out, err
}

// BulkResult is the outcome of a bulk cancel, per order in request order.
type BulkResult struct {
	Cancelled []string
	Errors    []BulkError
}

// BulkError is an order a bulk cancel could not cancel.
type BulkError struct {
	OrderID string
	Err     *apierr.Error
}

// BulkItem is one order of a bulk cancel.
type BulkItem struct {
	OrderID  string
	Expected *Status
}

// BulkCancel cancels each order as Cancel does; one order's failure does not
// stop the others, and an order named twice is an error the second time.
// The cancellations commit together (with the request's idempotency key,
// when it has one); a failure of the platform itself cancels none.
func (s *Service) BulkCancel(ctx context.Context, items []BulkItem) (BulkResult, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return BulkResult{}, err
	}
	if len(items) > MaxBulkCancel {
		return BulkResult{}, apierr.Newf(apierr.ValidationError, "orders: at most %d orders per request", MaxBulkCancel)
	}
	var res BulkResult
	err = s.store.InTx(ctx, func(ctx context.Context) error {
		res = BulkResult{}
		seen := make(map[string]bool, len(items))
		for _, it := range items {
			if seen[it.OrderID] {
				res.Errors = append(res.Errors, BulkError{OrderID: it.OrderID,
					Err: apierr.New(apierr.ValidationError, "the order appears more than once in this request")})
				continue
			}
			seen[it.OrderID] = true
			_, err := s.cancel(ctx, seller, it.OrderID, it.Expected)
			var e *apierr.Error
			switch {
			case err == nil:
				res.Cancelled = append(res.Cancelled, it.OrderID)
			case errors.As(err, &e) && e.Code != apierr.Internal:
				res.Errors = append(res.Errors, BulkError{OrderID: it.OrderID, Err: e})
			default:
				return err
			}
		}
		return nil
	})
	return res, err
}

// cancel runs inside a transaction: one conditional UPDATE moves the order
// (never read-then-write), then its quantities go back to stock and its
// event is recorded.
func (s *Service) cancel(ctx context.Context, seller, id string, expected *Status) (View, error) {
	if s.stock == nil {
		return View{}, errors.New("orders: cancellation needs a stock store")
	}
	from := preShipment
	if expected != nil && !expected.PreShipment() {
		// The guard names a state no cancellation starts from: the
		// update matches nothing, and the order's state says why.
		from = nil
	}
	o, now, err := s.move(ctx, seller, id, Move{From: from, To: StatusCancelled, FulfillmentStatus: "cancelled",
		ClearBooking: true, ShipmentsFrom: FulfillmentPending, ShipmentsTo: FulfillmentCancelled},
		func(current Status) error { return refusal(current, expected) })
	if err != nil {
		return View{}, err
	}
	restock := map[string]int64{}
	for _, it := range o.Items {
		if it.VariantID != nil && it.Quantity > 0 {
			restock[*it.VariantID] += it.Quantity
		}
	}
	if len(restock) > 0 {
		if err := s.stock.Restock(ctx, seller, restock); err != nil {
			return View{}, err
		}
	}
	return s.view(ctx, o, now), nil
}

// refusal says why an order in status current was not cancelled.
func refusal(current Status, expected *Status) error {
	if !current.PreShipment() {
		return apierr.Newf(apierr.OrderNotCancellable, "the order is %s: only an order not yet shipped can be cancelled", current.PartnerStatus())
	}
	// Pre-shipment, so the guard named another state.
	return apierr.Newf(apierr.ConcurrentModification, "the order is %s, not %s: read it again before deciding", current.PartnerStatus(), *expected)
}
