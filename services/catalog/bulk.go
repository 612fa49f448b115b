package catalog

import (
	"context"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
)

// BulkCreateProducts is declared with its contract so that its route exists
// and wins over /products/{id}. It answers NOT_IMPLEMENTED until bulk
// creation, whose items are validated and fail one by one, is built.
func (s *Server) BulkCreateProducts(context.Context, *catalogv1.BulkCreateProductsRequest) (*catalogv1.BulkCreateProductsResponse, error) {
	return nil, apierr.New(apierr.NotImplemented, "bulk product create is not available yet; create products one at a time with POST /open/v1/products")
}
