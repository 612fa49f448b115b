package catalog

import (
	"context"

	"google.golang.org/grpc"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
)

// ReviewServer is the trust and safety team's ProductReviewService: each
// method is one named review step (ReviewStep) on a product of any seller.
type ReviewServer struct {
	catalogv1.UnimplementedProductReviewServiceServer
	svc *Service
}

// NewReviewServer returns the review service's gRPC server over svc.
func NewReviewServer(svc *Service) *ReviewServer { return &ReviewServer{svc: svc} }

// Register registers the review service; the method value is a
// core.Registrar.
func (s *ReviewServer) Register(r grpc.ServiceRegistrar) {
	catalogv1.RegisterProductReviewServiceServer(r, s)
}

// StartReview implements catalogv1.ProductReviewServiceServer.
func (s *ReviewServer) StartReview(ctx context.Context, req *catalogv1.StartReviewRequest) (*catalogv1.ProductResponse, error) {
	return s.step(ctx, req.GetId(), StepStartReview, nil)
}

// ApproveProduct implements catalogv1.ProductReviewServiceServer.
func (s *ReviewServer) ApproveProduct(ctx context.Context, req *catalogv1.ApproveProductRequest) (*catalogv1.ProductResponse, error) {
	return s.step(ctx, req.GetId(), StepApprove, req.Note)
}

// RejectProduct implements catalogv1.ProductReviewServiceServer.
func (s *ReviewServer) RejectProduct(ctx context.Context, req *catalogv1.RejectProductRequest) (*catalogv1.ProductResponse, error) {
	note := req.GetNote()
	return s.step(ctx, req.GetId(), StepReject, &note)
}

func (s *ReviewServer) step(ctx context.Context, id string, st ReviewStep, note *string) (*catalogv1.ProductResponse, error) {
	p, err := s.svc.Review(ctx, id, st, note)
	if err != nil {
		return nil, err
	}
	return &catalogv1.ProductResponse{Data: productToProto(p)}, nil
}
