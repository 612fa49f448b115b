package orders

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	resourceids "github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/events"
)

// Stock moves ordered quantities (by variant id) off and back onto a
// seller's variants, in the caller's transaction, through the catalog's
// inventory path (so every move records its inventory.updated event).
// Variants that no longer exist, belong to another seller or whose product
// is archived are skipped; a variant whose stock is unknown stays unknown.
// The platform wires the catalog's implementation (internal/serviceset);
// orders never reaches into the catalog's storage.
type Stock interface {
	// TakeStock takes a new order's quantities off; a variant ordered
	// beyond its stock refuses the whole order (VALIDATION_ERROR).
	TakeStock(ctx context.Context, sellerID string, quantities map[string]int64) error
	// ReturnStock puts a cancelled order's quantities back.
	ReturnStock(ctx context.Context, sellerID string, quantities map[string]int64) error
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
	// The carrier's void comes first, before the transaction writes
	// anything (Bookings). A guard naming a state no cancellation starts
	// from cancels nothing, so it voids nothing.
	if expected == nil || expected.PreShipment() {
		failed, err := s.voidBookings(ctx, seller, []string{id})
		if err != nil {
			return View{}, err
		}
		if e := failed[id]; e != nil {
			return View{}, e
		}
	}
	var out View
	err = s.store.InTx(ctx, func(ctx context.Context) error {
		v, err := s.cancel(ctx, seller, id, expected)
		if err != nil {
			return err
		}
		out = v
		return s.bookingsVoided(ctx, seller, []string{id}, s.clock.Business(ctx))
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
// The batch moves with statements for the whole batch (one conditional
// UPDATE, one read back, one restock per variant, one insert of events) and
// commits together (with the request's idempotency key, when it has one); a
// failure of the platform itself cancels none.
func (s *Service) BulkCancel(ctx context.Context, items []BulkItem) (BulkResult, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return BulkResult{}, err
	}
	if len(items) > MaxBulkCancel {
		return BulkResult{}, apierr.Newf(apierr.ValidationError, "orders: at most %d orders per request", MaxBulkCancel)
	}
	if s.stock == nil {
		return BulkResult{}, errors.New("orders: cancellation needs a stock store")
	}
	// The orders a cancellation may move: named once, plausibly an id, and
	// without a guard naming a state no cancellation starts from.
	seen := make(map[string]bool, len(items))
	var candidates, named []string
	for _, it := range items {
		if seen[it.OrderID] || !resourceids.Plausible("ord", it.OrderID) {
			continue
		}
		seen[it.OrderID] = true
		named = append(named, it.OrderID)
		if it.Expected == nil || it.Expected.PreShipment() {
			candidates = append(candidates, it.OrderID)
		}
	}
	// The carriers' voids come first, before the transaction writes
	// anything (Bookings); an order whose void failed stays as it was and
	// is reported with the carrier's error.
	voidFailed, err := s.voidBookings(ctx, seller, candidates)
	if err != nil {
		return BulkResult{}, err
	}
	if len(voidFailed) > 0 {
		candidates = slices.DeleteFunc(candidates, func(id string) bool { return voidFailed[id] != nil })
	}
	var res BulkResult
	err = s.store.InTx(ctx, func(ctx context.Context) error {
		res = BulkResult{}
		now := s.clock.Business(ctx)
		movedIDs, err := s.store.MoveOrders(ctx, seller, candidates, cancelMove(preShipment, now))
		if err != nil {
			return err
		}
		if err := s.bookingsVoided(ctx, seller, movedIDs, now); err != nil {
			return err
		}
		found, err := s.store.GetOrders(ctx, seller, named)
		if err != nil {
			return err
		}
		byID := make(map[string]*Order, len(found))
		for _, o := range found {
			byID[o.ID] = o
		}
		moved := make(map[string]bool, len(movedIDs))
		restock := map[string]int64{}
		cancelled := make([]*Order, 0, len(movedIDs))
		for _, id := range movedIDs {
			moved[id] = true
			o := byID[id]
			for _, it := range o.Items {
				if it.VariantID != nil && it.Quantity > 0 {
					restock[*it.VariantID] += it.Quantity
				}
			}
			cancelled = append(cancelled, o)
		}
		views, err := s.eventViews(ctx, seller, cancelled, now)
		if err != nil {
			return err
		}
		changes := make([]events.Change, len(views))
		for i, v := range views {
			changes[i] = events.Change{SellerID: seller, Type: eventOf[StatusCancelled], ResourceID: v.Order.ID, At: now,
				View: OrderToProto(v)}
		}
		reported := make(map[string]bool, len(items))
		for _, it := range items {
			o, exists := byID[it.OrderID]
			switch {
			case reported[it.OrderID]:
				res.Errors = append(res.Errors, BulkError{OrderID: it.OrderID,
					Err: apierr.New(apierr.ValidationError, "the order appears more than once in this request")})
				continue
			case !exists:
				res.Errors = append(res.Errors, BulkError{OrderID: it.OrderID, Err: apierr.New(apierr.NotFound, "order not found")})
			case moved[it.OrderID]:
				res.Cancelled = append(res.Cancelled, it.OrderID)
			case voidFailed[it.OrderID] != nil:
				res.Errors = append(res.Errors, BulkError{OrderID: it.OrderID, Err: voidFailed[it.OrderID]})
			default:
				var e *apierr.Error
				errors.As(refusal(o.Status, it.Expected), &e)
				res.Errors = append(res.Errors, BulkError{OrderID: it.OrderID, Err: e})
			}
			reported[it.OrderID] = true
		}
		if len(restock) > 0 {
			if err := s.stock.ReturnStock(ctx, seller, restock); err != nil {
				return err
			}
		}
		return s.events.RecordMany(ctx, changes)
	})
	return res, err
}

// cancelMove is a cancellation from the given states.
func cancelMove(from []Status, at time.Time) Move {
	return Move{From: from, To: StatusCancelled, At: at, FulfillmentStatus: "cancelled", ClearBooking: true,
		ShipmentsFrom: FulfillmentPending, ShipmentsTo: FulfillmentCancelled}
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
	o, now, err := s.move(ctx, seller, id, cancelMove(from, time.Time{}),
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
		if err := s.stock.ReturnStock(ctx, seller, restock); err != nil {
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
	// Pre-shipment, so the guard named another state (or the order moved
	// while this request ran).
	if expected == nil {
		return apierr.New(apierr.ConcurrentModification, "the order changed while it was being cancelled: read it again before deciding")
	}
	return apierr.Newf(apierr.ConcurrentModification, "the order is %s, not %s: read it again before deciding", current.PartnerStatus(), *expected)
}
