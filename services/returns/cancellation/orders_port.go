package cancellation

import (
	"context"
	"time"

	"github.com/mallplatform/partnerapi/services/orders"
)

// OrderRequests is the cancellation side of orders.CancellationRequests:
// how the order reads show each order's latest request.
type OrderRequests struct{ s *Service }

var _ orders.CancellationRequests = OrderRequests{}

// OrderRequests returns the requests the order reads show.
func (s *Service) OrderRequests() OrderRequests { return OrderRequests{s: s} }

// ForOrders implements orders.CancellationRequests: one query for the
// orders' latest requests; only a request found PENDING past its deadline
// costs more (its settlement, which cancels its order).
func (o OrderRequests) ForOrders(ctx context.Context, sellerID string, orderIDs []string, now time.Time) (map[string]orders.CancellationRequest, []string, error) {
	latest, err := o.s.store.LatestForOrders(ctx, sellerID, orderIDs)
	if err != nil || len(latest) == 0 {
		return nil, nil, err
	}
	var moved []string
	out := make(map[string]orders.CancellationRequest, len(latest))
	for orderID, r := range latest {
		if _, due := Auto(r.Status, r.RespondBy, now); due {
			settled, err := o.s.settle(ctx, sellerID, r.ID, now)
			if err != nil {
				return nil, nil, err
			}
			r = settled
			moved = append(moved, orderID)
		}
		out[orderID] = orderRequest(r)
	}
	return out, moved, nil
}

// Latest implements orders.CancellationRequests: the same query, nothing
// settled.
func (o OrderRequests) Latest(ctx context.Context, sellerID string, orderIDs []string) (map[string]orders.CancellationRequest, error) {
	latest, err := o.s.store.LatestForOrders(ctx, sellerID, orderIDs)
	if err != nil || len(latest) == 0 {
		return nil, err
	}
	out := make(map[string]orders.CancellationRequest, len(latest))
	for orderID, r := range latest {
		out[orderID] = orderRequest(r)
	}
	return out, nil
}

// orderRequest is r as the order carries it.
func orderRequest(r *Request) orders.CancellationRequest {
	return orders.CancellationRequest{Status: statusToProto[r.Status], Reason: r.Reason,
		RequestedAt: r.RequestedAt, RespondBy: r.RespondBy}
}
