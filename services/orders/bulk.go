package orders

import (
	"context"

	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
)

// BulkCancelOrders is declared with its contract so that its route exists
// and wins over /orders/{id}. It answers NOT_IMPLEMENTED until order
// cancellation is built.
func (s *Server) BulkCancelOrders(context.Context, *ordersv1.BulkCancelOrdersRequest) (*ordersv1.BulkCancelOrdersResponse, error) {
	return nil, apierr.New(apierr.NotImplemented, "order cancellation is not available yet")
}
