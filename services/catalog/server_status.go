package catalog

import (
	"context"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
)

// GetProduct implements catalogv1.CatalogServiceServer.
func (s *Server) GetProduct(ctx context.Context, req *catalogv1.GetProductRequest) (*catalogv1.ProductResponse, error) {
	p, err := s.svc.GetProduct(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	return &catalogv1.ProductResponse{Data: productToProto(p)}, nil
}

// SetProductStatus implements catalogv1.CatalogServiceServer.
func (s *Server) SetProductStatus(ctx context.Context, req *catalogv1.SetProductStatusRequest) (*catalogv1.ProductResponse, error) {
	change := req.GetChange()
	var expected *ProductStatus
	if change.ExpectedStatus != nil {
		st := statusFromProto[change.GetExpectedStatus()]
		expected = &st
	}
	p, err := s.svc.SetStatus(ctx, req.GetId(), statusFromProto[change.GetStatus()], expected)
	if err != nil {
		return nil, err
	}
	return &catalogv1.ProductResponse{Data: productToProto(p)}, nil
}

// DeleteProduct implements catalogv1.CatalogServiceServer.
func (s *Server) DeleteProduct(ctx context.Context, req *catalogv1.DeleteProductRequest) (*catalogv1.ProductResponse, error) {
	p, err := s.svc.DeleteProduct(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	return &catalogv1.ProductResponse{Data: productToProto(p)}, nil
}

// ProductToProto is the partner view of p, for services that answer with a
// product (the sandbox's review tool).
func ProductToProto(p *Product) *catalogv1.Product { return productToProto(p) }
