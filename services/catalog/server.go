package catalog

import (
	"context"

	"google.golang.org/grpc"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
)

// Server is the gRPC face of the catalog service. It only converts: proto in,
// domain call, proto out. Authentication, scopes, seller tokens and the
// protovalidate rules run in core's interceptors before it is reached.
type Server struct {
	catalogv1.UnimplementedCatalogServiceServer
	svc *Service
}

// NewServer returns the gRPC server for svc.
func NewServer(svc *Service) *Server { return &Server{svc: svc} }

// Register registers the catalog on a gRPC server; the method value
// (*Server).Register is a core.Registrar.
func (s *Server) Register(r grpc.ServiceRegistrar) {
	catalogv1.RegisterCatalogServiceServer(r, s)
}

// ListCategories implements catalogv1.CatalogServiceServer.
func (s *Server) ListCategories(ctx context.Context, req *catalogv1.ListCategoriesRequest) (*catalogv1.ListCategoriesResponse, error) {
	page, err := s.svc.ListCategories(ctx, pageRequest(req.Page, req.Limit, req.Cursor))
	if err != nil {
		return nil, err
	}
	out := &catalogv1.ListCategoriesResponse{
		Data: make([]*catalogv1.Category, len(page.Items)),
		Meta: page.Meta(),
	}
	for i, c := range page.Items {
		out.Data[i] = categoryToProto(c)
	}
	return out, nil
}

// ListCategoryAttributes implements catalogv1.CatalogServiceServer.
func (s *Server) ListCategoryAttributes(ctx context.Context, req *catalogv1.ListCategoryAttributesRequest) (*catalogv1.ListCategoryAttributesResponse, error) {
	attrs, err := s.svc.ListCategoryAttributes(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	out := &catalogv1.ListCategoryAttributesResponse{Data: make([]*catalogv1.CategoryAttribute, len(attrs))}
	for i, a := range attrs {
		out.Data[i] = attributeToProto(a)
	}
	return out, nil
}

// CreateProduct implements catalogv1.CatalogServiceServer.
func (s *Server) CreateProduct(ctx context.Context, req *catalogv1.CreateProductRequest) (*catalogv1.ProductResponse, error) {
	in, err := createInputFromProto(req.GetProduct())
	if err != nil {
		return nil, err
	}
	p, err := s.svc.CreateProduct(ctx, in)
	if err != nil {
		return nil, err
	}
	return &catalogv1.ProductResponse{Data: productToProto(p)}, nil
}

// UpdateProduct implements catalogv1.CatalogServiceServer.
func (s *Server) UpdateProduct(ctx context.Context, req *catalogv1.UpdateProductRequest) (*catalogv1.ProductResponse, error) {
	p, err := s.svc.UpdateProduct(ctx, req.GetId(), updateFromProto(req.GetProduct()))
	if err != nil {
		return nil, err
	}
	return &catalogv1.ProductResponse{Data: productToProto(p)}, nil
}

// ListProducts implements catalogv1.CatalogServiceServer.
func (s *Server) ListProducts(ctx context.Context, req *catalogv1.ListProductsRequest) (*catalogv1.ListProductsResponse, error) {
	var f ProductFilter
	if req.Status != nil {
		status, ok := statusFromProto[req.GetStatus()]
		if !ok {
			return nil, apierr.New(apierr.ValidationError, "status: must be one of live, unlisted, delisted, proposed, under_review, archived")
		}
		f.Status = status
	}
	page, err := s.svc.ListProducts(ctx, f, pageRequest(req.Page, req.Limit, req.Cursor))
	if err != nil {
		return nil, err
	}
	out := &catalogv1.ListProductsResponse{
		Data: make([]*catalogv1.Product, len(page.Items)),
		Meta: page.Meta(),
	}
	for i, p := range page.Items {
		out.Data[i] = productToProto(p)
	}
	return out, nil
}
