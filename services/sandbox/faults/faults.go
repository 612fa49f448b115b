// Package faults keeps sandbox shops' queues of injected failures of the
// platform's outside parties (POST /open/v1/sandbox/faults): a shop's next
// N calls to a target fail the way it asked, so a partner can test its
// error handling. The queue is a table (sandbox_faults) shared by core's
// replicas.
package faults

import (
	"context"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/services/returns"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
)

// The queues: the carrier's, and the returns' (the after-sales moves).
const (
	TargetCarrier = "carrier"
	TargetReturns = returns.FaultTarget
)

// Check refuses a failure its target does not know (SHIP_FAILED is the
// carrier's, APPROVE_FAILED the returns'; UPSTREAM_ERROR is both's).
func Check(target, kind string) error {
	switch target {
	case TargetCarrier:
		if _, ok := carrier.ParseFaultKind(kind); !ok {
			return apierr.Newf(apierr.ValidationError, "error: %s is not a failure of target carrier", kind)
		}
		return nil
	case TargetReturns:
		return returns.CheckFault(kind)
	}
	return apierr.Newf(apierr.ValidationError, "target: %s is not a fault target", target)
}

// Carrier is the store as the simulated courier's carrier.Faults.
func (s *Store) Carrier() carrier.Faults { return carrierFaults{s} }

type carrierFaults struct{ s *Store }

func (c carrierFaults) Set(ctx context.Context, sellerID string, kind carrier.FaultKind, count int) error {
	if err := carrier.CheckFault(kind, count); err != nil {
		return err
	}
	return c.s.Set(ctx, sellerID, TargetCarrier, string(kind), count)
}

func (c carrierFaults) Take(ctx context.Context, sellerID string) (carrier.FaultKind, bool, error) {
	k, ok, err := c.s.Take(ctx, sellerID, TargetCarrier)
	return carrier.FaultKind(k), ok, err
}

func (c carrierFaults) Pending(ctx context.Context, sellerID string) (carrier.FaultKind, int, error) {
	k, n, err := c.s.Pending(ctx, sellerID, TargetCarrier)
	return carrier.FaultKind(k), n, err
}
