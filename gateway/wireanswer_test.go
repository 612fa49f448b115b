package gateway_test

import (
	"testing"

	"google.golang.org/grpc"

	"github.com/mallplatform/partnerapi/gateway"
	authv1 "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
)

// Answers the gateway only renders cross as their encoding and are
// rendered from the wire; an answer a header is taken from is decoded, so
// that its writers can read it. (The route tests and the golden answers
// hold the bytes of both paths.)
func TestWhichAnswersAreRenderedFromTheWire(t *testing.T) {
	conn, _ := serveCore(t, func(*grpc.Server) {})
	gw := newGateway(t, gateway.Config{Core: conn})
	for method, want := range map[string]bool{
		ordersv1.OrdersService_GetOrder_FullMethodName:              true,
		ordersv1.OrdersService_ListOrders_FullMethodName:            true,
		catalogv1.CatalogService_BulkCreateProducts_FullMethodName:  true,
		shippingv1.ShippingService_ListEligibleDates_FullMethodName: true,
		authv1.AuthService_RotateClientSecret_FullMethodName:        false, // afterCore drops the cached secret
		authv1.AuthorizationService_Authorize_FullMethodName:        false, // the Location header
		shippingv1.ShippingService_GetCalendar_FullMethodName:       false, // the ETag header
		shippingv1.LabelService_GetLabel_FullMethodName:             false, // a raw document
	} {
		if got := gateway.RendersFromWire(gw, method); got != want {
			t.Errorf("%s: rendered from the wire %v, want %v", method, got, want)
		}
	}
}
