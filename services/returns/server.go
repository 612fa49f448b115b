package returns

import (
	"context"

	"google.golang.org/grpc"

	returnsv1 "github.com/mallplatform/partnerapi/gen/mp/returns/v1"
	"github.com/mallplatform/partnerapi/internal/wirejson"
)

// Server exposes Service as mp.returns.v1.ReturnsService. Core's
// interceptors have authenticated the caller, verified the seller token,
// checked the scope and validated the request when a method here runs.
type Server struct {
	returnsv1.UnimplementedReturnsServiceServer
	svc *Service
}

// NewServer wraps svc.
func NewServer(svc *Service) *Server { return &Server{svc: svc} }

// Register registers the service; its signature fits core.Registrar.
func (s *Server) Register(r grpc.ServiceRegistrar) { returnsv1.RegisterReturnsServiceServer(r, s) }

// ListReturns lists the seller's returns.
func (s *Server) ListReturns(ctx context.Context, req *returnsv1.ListReturnsRequest) (*returnsv1.ListReturnsResponse, error) {
	lr := ListRequest{Page: req.GetPage(), Limit: req.GetLimit(), Cursor: req.GetCursor()}
	lr.Status, _ = StatusFromProto(req.GetStatus())
	lr.OrderID = req.GetOrderId()
	var err error
	if lr.CreatedAfter, err = wirejson.Instant("created_after", req.GetCreatedAfter()); err != nil {
		return nil, err
	}
	if lr.CreatedBefore, err = wirejson.Instant("created_before", req.GetCreatedBefore()); err != nil {
		return nil, err
	}
	page, err := s.svc.ListPage(ctx, lr)
	if err != nil {
		return nil, err
	}
	out := &returnsv1.ListReturnsResponse{Data: make([]*returnsv1.Return, len(page.Items)), Meta: page.Meta()}
	for i, v := range page.Items {
		out.Data[i] = ReturnToProto(v)
	}
	return out, nil
}

// GetReturn reads one of the seller's returns.
func (s *Server) GetReturn(ctx context.Context, req *returnsv1.GetReturnRequest) (*returnsv1.ReturnResponse, error) {
	return answer(s.svc.Get(ctx, req.GetId()))
}

// ListDisputeReasons lists the dispute reasons.
func (s *Server) ListDisputeReasons(context.Context, *returnsv1.ListDisputeReasonsRequest) (*returnsv1.ListDisputeReasonsResponse, error) {
	rs := s.svc.Reasons()
	out := &returnsv1.ListDisputeReasonsResponse{Data: make([]*returnsv1.DisputeReasonCode, len(rs))}
	for i, r := range rs {
		out.Data[i] = DisputeReasonToProto(r)
	}
	return out, nil
}

// ApproveReturn approves or refunds one of the seller's returns.
func (s *Server) ApproveReturn(ctx context.Context, req *returnsv1.ApproveReturnRequest) (*returnsv1.ReturnResponse, error) {
	var a Approval
	// The body may be empty: a full approval without a guard.
	if in := req.GetApprove(); in != nil {
		a.Expected = expected(in.ExpectedStatus)
		if in.RefundAmount != nil {
			amount := in.GetRefundAmount()
			a.RefundAmount = &amount
		}
	}
	return answer(s.svc.Approve(ctx, req.GetId(), a))
}

// RejectReturn rejects one of the seller's requests.
func (s *Server) RejectReturn(ctx context.Context, req *returnsv1.RejectReturnRequest) (*returnsv1.ReturnResponse, error) {
	in := req.GetReject()
	return answer(s.svc.Reject(ctx, req.GetId(), Rejection{Reason: in.GetReason(), Note: in.GetNote(),
		Expected: expected(in.ExpectedStatus)}))
}

// DisputeReturn disputes one of the seller's returns.
func (s *Server) DisputeReturn(ctx context.Context, req *returnsv1.DisputeReturnRequest) (*returnsv1.ReturnResponse, error) {
	in := req.GetDispute()
	return answer(s.svc.Dispute(ctx, req.GetId(), DisputeInput{ReasonCode: in.GetReasonCode(),
		Description: in.GetDescription(), Evidence: in.GetEvidence(), Expected: expected(in.ExpectedStatus)}))
}

// SandboxServer exposes the sandbox's buyer and platform moves as
// mp.returns.v1.ReturnsSandboxService.
type SandboxServer struct {
	returnsv1.UnimplementedReturnsSandboxServiceServer
	svc *Service
}

// NewSandboxServer wraps svc.
func NewSandboxServer(svc *Service) *SandboxServer { return &SandboxServer{svc: svc} }

// Register registers the service; its signature fits core.Registrar.
func (s *SandboxServer) Register(r grpc.ServiceRegistrar) {
	returnsv1.RegisterReturnsSandboxServiceServer(r, s)
}

// CreateTestReturn files a buyer's return of a test order.
func (s *SandboxServer) CreateTestReturn(ctx context.Context, req *returnsv1.CreateTestReturnRequest) (*returnsv1.ReturnResponse, error) {
	in := req.GetReturn()
	t := TestReturn{OrderID: in.GetOrderId(), Reason: in.GetReason(), RefundOnly: in.GetRefundOnly()}
	for _, it := range in.GetItems() {
		t.Items = append(t.Items, Item{ItemID: it.GetItemId(), Quantity: it.GetQuantity()})
	}
	return answer(s.svc.CreateTest(ctx, t))
}

// TransitionTestReturn makes the buyer's or the platform's move.
func (s *SandboxServer) TransitionTestReturn(ctx context.Context, req *returnsv1.TransitionTestReturnRequest) (*returnsv1.ReturnResponse, error) {
	to, _ := StatusFromProto(req.GetTransition().GetTo())
	return answer(s.svc.TransitionTest(ctx, req.GetId(), to))
}

// DecisionServer exposes the platform's dispute decision as
// mp.returns.v1.ReturnDecisionService (internal callers only).
type DecisionServer struct {
	returnsv1.UnimplementedReturnDecisionServiceServer
	svc *Service
}

// NewDecisionServer wraps svc.
func NewDecisionServer(svc *Service) *DecisionServer { return &DecisionServer{svc: svc} }

// Register registers the service; its signature fits core.Registrar.
func (s *DecisionServer) Register(r grpc.ServiceRegistrar) {
	returnsv1.RegisterReturnDecisionServiceServer(r, s)
}

// DecideDispute ends a disputed return.
func (s *DecisionServer) DecideDispute(ctx context.Context, req *returnsv1.DecideDisputeRequest) (*returnsv1.ReturnResponse, error) {
	outcome, _ := StatusFromProto(req.GetOutcome())
	return answer(s.svc.DecideDispute(ctx, req.GetSellerId(), req.GetReturnId(), outcome))
}

func answer(v *View, err error) (*returnsv1.ReturnResponse, error) {
	if err != nil {
		return nil, err
	}
	return &returnsv1.ReturnResponse{Data: ReturnToProto(v)}, nil
}

func expected(p *returnsv1.ReturnStatus) *Status {
	if p == nil {
		return nil
	}
	st, ok := StatusFromProto(*p)
	if !ok {
		return nil
	}
	return &st
}
