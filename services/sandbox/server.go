// Package sandbox serves the tools only the sandbox environment offers.
package sandbox

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/timestamppb"

	sandboxv1 "github.com/mallplatform/partnerapi/gen/mp/sandbox/v1"
	"github.com/mallplatform/partnerapi/internal/clock"
)

// Server implements SandboxService.
type Server struct {
	sandboxv1.UnimplementedSandboxServiceServer
	clock clock.Business
}

// NewServer returns the sandbox server reading time from c.
func NewServer(c clock.Business) *Server { return &Server{clock: c} }

// Register registers the service.
func (s *Server) Register(r grpc.ServiceRegistrar) { sandboxv1.RegisterSandboxServiceServer(r, s) }

// GetClock reports the clock deadlines are judged by.
func (s *Server) GetClock(ctx context.Context, _ *sandboxv1.GetClockRequest) (*sandboxv1.ClockResponse, error) {
	return &sandboxv1.ClockResponse{Data: &sandboxv1.Clock{
		Now:      timestamppb.New(s.clock.Business(ctx)),
		Timezone: clock.Manila.String(),
	}}, nil
}
