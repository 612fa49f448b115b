package catalog

import (
	"context"

	"google.golang.org/grpc"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	commonv1 "github.com/mallplatform/partnerapi/gen/mp/common/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
)

// InventoryServer is the gRPC face of the stock and price changes
// (InventoryService); like Server it only converts.
type InventoryServer struct {
	catalogv1.UnimplementedInventoryServiceServer
	svc *Service
}

// NewInventoryServer returns the InventoryService server for svc.
func NewInventoryServer(svc *Service) *InventoryServer { return &InventoryServer{svc: svc} }

// Register registers InventoryService; the method value is a core.Registrar.
func (s *InventoryServer) Register(r grpc.ServiceRegistrar) {
	catalogv1.RegisterInventoryServiceServer(r, s)
}

// BulkUpdateInventory implements catalogv1.InventoryServiceServer.
func (s *InventoryServer) BulkUpdateInventory(ctx context.Context, req *catalogv1.BulkUpdateInventoryRequest) (*catalogv1.BulkUpdateInventoryResponse, error) {
	items := make([]StockItem, len(req.GetItems()))
	for i, it := range req.GetItems() {
		items[i] = StockItem{VariantID: it.VariantId, SKU: it.Sku, Quantity: it.Quantity, Adjust: it.Adjust,
			Expected: it.ExpectedQuantity}
	}
	res, err := s.svc.BulkUpdateInventory(ctx, items)
	if err != nil {
		return nil, err
	}
	updated, errs, summary := bulkUpdateToProto(len(items), res)
	return &catalogv1.BulkUpdateInventoryResponse{Data: &catalogv1.BulkUpdateInventoryResult{
		Updated: updated, Errors: errs, Summary: summary}}, nil
}

// BulkUpdateVariants implements catalogv1.InventoryServiceServer.
func (s *InventoryServer) BulkUpdateVariants(ctx context.Context, req *catalogv1.BulkUpdateVariantsRequest) (*catalogv1.BulkUpdateVariantsResponse, error) {
	in := req.GetUpdate().GetVariants()
	items := make([]VariantItem, len(in))
	for i, it := range in {
		items[i] = VariantItem{VariantID: it.GetVariantId(), Price: it.Price, Stock: it.Stock}
	}
	res, err := s.svc.BulkUpdateVariants(ctx, req.GetId(), items)
	if err != nil {
		return nil, err
	}
	updated, errs, summary := bulkUpdateToProto(len(items), res)
	return &catalogv1.BulkUpdateVariantsResponse{Data: &catalogv1.BulkUpdateVariantsResult{
		Updated: updated, Errors: errs, Summary: summary}}, nil
}

func bulkUpdateToProto(total int, res BulkUpdate) ([]*catalogv1.StockLevel, []*catalogv1.BulkItemError, *commonv1.BulkSummary) {
	updated := make([]*catalogv1.StockLevel, len(res.Updated))
	for i, l := range res.Updated {
		updated[i] = &catalogv1.StockLevel{VariantId: l.VariantID, Sku: l.SKU, StockQuantity: l.Stock}
	}
	errs := make([]*catalogv1.BulkItemError, len(res.Errors))
	for i, e := range res.Errors {
		errs[i] = &catalogv1.BulkItemError{Index: int32(e.Index), Code: apierr.Name(e.Err.Code), Message: e.Err.Message}
	}
	return updated, errs, &commonv1.BulkSummary{Total: int64(total), Succeeded: int64(len(updated)), Failed: int64(len(errs))}
}
