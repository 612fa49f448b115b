package sandbox

import (
	"context"
	"errors"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	sandboxv1 "github.com/mallplatform/partnerapi/gen/mp/sandbox/v1"
	"github.com/mallplatform/partnerapi/services/catalog"
)

// ReviewTestProduct ends the review of one of the test shop's products
// through the catalog's named review steps, as the platform's review
// would.
func (s *Server) ReviewTestProduct(ctx context.Context, req *sandboxv1.ReviewTestProductRequest) (*catalogv1.ProductResponse, error) {
	if s.cfg.Products == nil {
		return nil, errors.New("sandbox: the review tool needs the catalog service")
	}
	r := req.GetReview()
	p, err := s.cfg.Products.ReviewOwn(ctx, req.GetId(), r.GetOutcome() == sandboxv1.ReviewOutcome_REVIEW_OUTCOME_APPROVE, r.Note)
	if err != nil {
		return nil, err
	}
	return &catalogv1.ProductResponse{Data: catalog.ProductToProto(p)}, nil
}
