package core

import (
	"context"
	"time"

	"go.uber.org/zap"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// DefaultReadyInterval is how often core re-checks its dependencies for
// gRPC health.
const DefaultReadyInterval = 2 * time.Second

// readyTimeout bounds one readiness check: a frozen database reads as not
// ready, not as a probe that hangs.
const readyTimeout = 2 * time.Second

// watchReadiness keeps gRPC health in step with cfg.Ready until ctx ends:
// NOT_SERVING while the check fails (database down, schema not migrated),
// SERVING once it passes. Load balancers and gateways probe health, so a
// replica without its database leaves their rotation.
func (s *Server) watchReadiness(ctx context.Context) {
	t := time.NewTicker(s.readyInterval)
	defer t.Stop()
	serving := false
	for {
		cctx, cancel := context.WithTimeout(ctx, readyTimeout)
		err := s.ready(cctx)
		cancel()
		if ctx.Err() != nil {
			return
		}
		if ok := err == nil; ok != serving {
			serving = ok
			s.setServing(ok)
			if ok {
				s.log.Info("core is ready")
			} else {
				s.log.Warn("core is not ready", zap.Error(err))
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// setServing sets the health of the server as a whole and of every service.
func (s *Server) setServing(ok bool) {
	st := healthpb.HealthCheckResponse_NOT_SERVING
	if ok {
		st = healthpb.HealthCheckResponse_SERVING
	}
	s.Health.SetServingStatus("", st)
	for name := range s.GRPC.GetServiceInfo() {
		s.Health.SetServingStatus(name, st)
	}
}
