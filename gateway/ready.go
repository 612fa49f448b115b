package gateway

import (
	"context"
	"errors"
	"fmt"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// Ready reports whether this gateway can serve partners now: the admission
// store answers (Redis, when configured) and core answers SERVING, each
// within ReadyTimeout. It backs /readyz on the internal port.
func (g *Gateway) Ready(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, g.cfg.ReadyTimeout)
	defer cancel()
	store := make(chan error, 1)
	go func() {
		if err := g.cfg.Admission.Ping(ctx); err != nil {
			store <- fmt.Errorf("admission store: %w", err)
			return
		}
		store <- nil
	}()
	coreErr := g.coreServing(ctx)
	return errors.Join(<-store, coreErr)
}

// coreServing asks core's grpc.health.v1 twice at once. Calls are balanced
// round robin over core's replicas, so the two go to two of them when there
// are several, and one SERVING answer is enough: a single frozen replica
// (which the connection's keepalive soon drops) must not take every
// gateway out of rotation.
func (g *Gateway) coreServing(ctx context.Context) error {
	client := healthpb.NewHealthClient(g.cfg.Core)
	const checks = 2
	errc := make(chan error, checks)
	for range checks {
		go func() {
			resp, err := client.Check(ctx, &healthpb.HealthCheckRequest{})
			switch {
			case err != nil:
				errc <- fmt.Errorf("core health: %w", err)
			case resp.GetStatus() != healthpb.HealthCheckResponse_SERVING:
				errc <- fmt.Errorf("core health: %s", resp.GetStatus())
			default:
				errc <- nil
			}
		}()
	}
	var err error
	for range checks {
		e := <-errc
		if e == nil {
			return nil
		}
		err = e
	}
	return err
}
