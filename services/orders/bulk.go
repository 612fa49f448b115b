package orders

import (
	"context"

	commonv1 "github.com/mallplatform/partnerapi/gen/mp/common/v1"
	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
)

// CancelOrder cancels one order.
func (s *Server) CancelOrder(ctx context.Context, req *ordersv1.CancelOrderRequest) (*ordersv1.OrderResponse, error) {
	in := req.GetCancel() // nil when the body was empty
	v, err := s.svc.Cancel(ctx, req.GetId(), expectedStatus(in.GetExpectedStatus(), in != nil && in.ExpectedStatus != nil))
	if err != nil {
		return nil, err
	}
	return &ordersv1.OrderResponse{Data: OrderToProto(v)}, nil
}

// BulkCancelOrders cancels many orders; the answer lists each outcome.
func (s *Server) BulkCancelOrders(ctx context.Context, req *ordersv1.BulkCancelOrdersRequest) (*ordersv1.BulkCancelOrdersResponse, error) {
	items := make([]BulkItem, len(req.GetOrders()))
	for i, it := range req.GetOrders() {
		items[i] = BulkItem{OrderID: it.GetOrderId(), Expected: expectedStatus(it.GetExpectedStatus(), it.ExpectedStatus != nil)}
	}
	res, err := s.svc.BulkCancel(ctx, items)
	if err != nil {
		return nil, err
	}
	out := &ordersv1.BulkCancelOrdersResult{
		Cancelled: make([]*ordersv1.BulkCancelled, len(res.Cancelled)),
		Errors:    make([]*ordersv1.BulkCancelError, len(res.Errors)),
		Summary: &commonv1.BulkSummary{Total: int64(len(items)), Succeeded: int64(len(res.Cancelled)),
			Failed: int64(len(res.Errors))},
	}
	for i, id := range res.Cancelled {
		// The spec's bulk result spells the new status in lower case.
		out.Cancelled[i] = &ordersv1.BulkCancelled{OrderId: id, Status: "cancelled"}
	}
	for i, e := range res.Errors {
		code := apierr.Name(e.Err.Code)
		out.Errors[i] = &ordersv1.BulkCancelError{OrderId: e.OrderID, Error: e.Err.Message, Code: &code}
	}
	return &ordersv1.BulkCancelOrdersResponse{Data: out}, nil
}

func expectedStatus(st ordersv1.OrderStatus, set bool) *Status {
	if !set {
		return nil
	}
	s := statusFromProto[st]
	return &s
}
