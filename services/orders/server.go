package orders

import (
	"context"

	"google.golang.org/grpc"

	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	"github.com/mallplatform/partnerapi/internal/wirejson"
)

// Server exposes Service as mp.orders.v1.OrdersService. Core's interceptors
// have already authenticated the caller, verified the seller token, checked
// the scope and validated the request when a method here runs.
type Server struct {
	ordersv1.UnimplementedOrdersServiceServer
	svc *Service
}

// NewServer wraps svc.
func NewServer(svc *Service) *Server { return &Server{svc: svc} }

// Register registers the service; its signature fits core.Registrar.
func (s *Server) Register(r grpc.ServiceRegistrar) { ordersv1.RegisterOrdersServiceServer(r, s) }

// ListOrders lists the seller's orders.
func (s *Server) ListOrders(ctx context.Context, req *ordersv1.ListOrdersRequest) (*ordersv1.ListOrdersResponse, error) {
	p := ListParams{
		Page:      req.GetPage(),
		Limit:     req.GetLimit(),
		Cursor:    req.GetCursor(),
		Ascending: req.GetSort() == ordersv1.OrderSort_ORDER_SORT_CREATED_AT_ASC,
	}
	if req.Status != nil {
		// The request's rules (core validates every caller's) admit the
		// five partner statuses only.
		st := statusFromProto[req.GetStatus()]
		p.Status = &st
	}
	var err error
	if p.CreatedAfter, err = wirejson.Instant("created_after", req.GetCreatedAfter()); err != nil {
		return nil, err
	}
	if p.CreatedBefore, err = wirejson.Instant("created_before", req.GetCreatedBefore()); err != nil {
		return nil, err
	}
	res, err := s.svc.ListOrders(ctx, p)
	if err != nil {
		return nil, err
	}
	out := &ordersv1.ListOrdersResponse{
		Data: make([]*ordersv1.Order, len(res.Items)),
		Meta: res.Meta(),
	}
	for i, v := range res.Items {
		out.Data[i] = OrderToProto(v)
	}
	return out, nil
}

// GetOrder reads one of the seller's orders.
func (s *Server) GetOrder(ctx context.Context, req *ordersv1.GetOrderRequest) (*ordersv1.OrderResponse, error) {
	v, err := s.svc.GetOrder(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	return &ordersv1.OrderResponse{Data: OrderToProto(v)}, nil
}
