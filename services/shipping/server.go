package shipping

import (
	"google.golang.org/grpc"

	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
)

// Server is ShippingService over the service. Its methods live beside
// their logic, one file per group (server_calendar.go).
type Server struct {
	shippingv1.UnimplementedShippingServiceServer
	svc *Service
}

// NewServer returns the shipping service's gRPC server over svc.
func NewServer(svc *Service) *Server { return &Server{svc: svc} }

// Register registers the service; the method value is a core.Registrar.
func (s *Server) Register(r grpc.ServiceRegistrar) { shippingv1.RegisterShippingServiceServer(r, s) }
