package cancellation

import (
	"context"

	"google.golang.org/grpc"

	cancellationsv1 "github.com/mallplatform/partnerapi/gen/mp/cancellations/v1"
	"github.com/mallplatform/partnerapi/internal/pagination"
)

// Server is CancellationService over the service.
type Server struct {
	cancellationsv1.UnimplementedCancellationServiceServer
	svc *Service
}

// NewServer returns the requests' gRPC server over svc.
func NewServer(svc *Service) *Server { return &Server{svc: svc} }

// Register registers the service; the method value is a core.Registrar.
func (s *Server) Register(r grpc.ServiceRegistrar) {
	cancellationsv1.RegisterCancellationServiceServer(r, s)
}

// ListCancellationRequests implements cancellationsv1.CancellationServiceServer.
func (s *Server) ListCancellationRequests(ctx context.Context, req *cancellationsv1.ListCancellationRequestsRequest) (*cancellationsv1.ListCancellationRequestsResponse, error) {
	var status Status
	if req.Status != nil {
		// The request's rules admit the four statuses only.
		status = StatusFromProto(req.GetStatus())
	}
	page, err := s.svc.List(ctx, status, pagination.Request{Page: req.GetPage(), Limit: req.GetLimit(), Cursor: req.GetCursor()})
	if err != nil {
		return nil, err
	}
	out := &cancellationsv1.ListCancellationRequestsResponse{Data: make([]*cancellationsv1.CancellationRequest, len(page.Items)), Meta: page.Meta()}
	for i, r := range page.Items {
		out.Data[i] = ToProto(r)
	}
	return out, nil
}

// ApproveCancellationRequest implements cancellationsv1.CancellationServiceServer.
func (s *Server) ApproveCancellationRequest(ctx context.Context, req *cancellationsv1.ApproveCancellationRequestRequest) (*cancellationsv1.CancellationRequestResponse, error) {
	return response(s.svc.Approve(ctx, req.GetId()))
}

// RejectCancellationRequest implements cancellationsv1.CancellationServiceServer.
func (s *Server) RejectCancellationRequest(ctx context.Context, req *cancellationsv1.RejectCancellationRequestRequest) (*cancellationsv1.CancellationRequestResponse, error) {
	return response(s.svc.Reject(ctx, req.GetId(), req.GetRejection().GetReason()))
}

// SandboxServer is CancellationSandboxService over the service: the
// buyer's side, for test shops.
type SandboxServer struct {
	cancellationsv1.UnimplementedCancellationSandboxServiceServer
	svc *Service
}

// NewSandboxServer returns the sandbox's gRPC server over svc.
func NewSandboxServer(svc *Service) *SandboxServer { return &SandboxServer{svc: svc} }

// Register registers the service; the method value is a core.Registrar.
func (s *SandboxServer) Register(r grpc.ServiceRegistrar) {
	cancellationsv1.RegisterCancellationSandboxServiceServer(r, s)
}

// CreateTestCancellationRequest implements cancellationsv1.CancellationSandboxServiceServer.
func (s *SandboxServer) CreateTestCancellationRequest(ctx context.Context, req *cancellationsv1.CreateTestCancellationRequestRequest) (*cancellationsv1.CancellationRequestResponse, error) {
	return response(s.svc.Request(ctx, req.GetId(), req.GetRequest().GetReason()))
}

func response(r *Request, err error) (*cancellationsv1.CancellationRequestResponse, error) {
	if err != nil {
		return nil, err
	}
	return &cancellationsv1.CancellationRequestResponse{Data: ToProto(r)}, nil
}
