// Package payouts reserves the payouts interface for a later version.
package payouts

import (
	"context"

	"google.golang.org/grpc"

	payoutsv1 "github.com/mallplatform/partnerapi/gen/mp/payouts/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
)

// Server answers every payouts call NOT_IMPLEMENTED.
type Server struct {
	payoutsv1.UnimplementedPayoutsServiceServer
}

// Register registers the service.
func (s *Server) Register(r grpc.ServiceRegistrar) { payoutsv1.RegisterPayoutsServiceServer(r, s) }

// ListPayouts is reserved.
func (s *Server) ListPayouts(context.Context, *payoutsv1.ListPayoutsRequest) (*payoutsv1.ListPayoutsResponse, error) {
	return nil, apierr.New(apierr.NotImplemented, "payouts are reserved for a future version of the interface")
}
