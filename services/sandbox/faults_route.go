package sandbox

import (
	"context"

	sandboxv1 "github.com/mallplatform/partnerapi/gen/mp/sandbox/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/sandbox/faults"
)

// SetFaults queues the calling test shop's injected failures for a target.
func (s *Server) SetFaults(ctx context.Context, req *sandboxv1.SetFaultsRequest) (*sandboxv1.FaultsResponse, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return nil, err
	}
	if s.cfg.Faults == nil {
		return nil, apierr.New(apierr.ServiceUnavailable, "fault injection is not available")
	}
	in := req.GetFaults()
	if in.GetCount() > 0 {
		if err := faults.Check(in.GetTarget(), in.GetError()); err != nil {
			return nil, err
		}
	}
	if err := s.cfg.Faults.Set(ctx, seller, in.GetTarget(), in.GetError(), int(in.GetCount())); err != nil {
		return nil, err
	}
	kind, n, err := s.cfg.Faults.Pending(ctx, seller, in.GetTarget())
	if err != nil {
		return nil, err
	}
	out := &sandboxv1.Faults{Target: in.GetTarget(), Count: int32(n)} //nolint:gosec // n <= carrier.MaxFaultCount (100)
	if n > 0 {
		out.Error = &kind
	}
	return &sandboxv1.FaultsResponse{Data: out}, nil
}
