package returns

import (
	"context"
	"fmt"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// FaultTarget is the returns' queue in the sandbox's fault injection
// (POST /open/v1/sandbox/faults, target "returns").
const FaultTarget = "returns"

// The failures a test shop may queue for its returns: each of its next N
// moves (approve, reject, dispute, and filing a test return) fails with
// the code queued, whichever move it is, and leaves the return unchanged.
const (
	FaultApproveFailed = "APPROVE_FAILED"
	FaultRejectFailed  = "REJECT_FAILED"
	FaultDisputeFailed = "DISPUTE_FAILED"
	FaultCreateFailed  = "CREATE_FAILED"
	FaultUpstreamError = "UPSTREAM_ERROR"
)

// FaultKinds are the failures of target "returns".
var FaultKinds = []string{FaultApproveFailed, FaultRejectFailed, FaultDisputeFailed, FaultCreateFailed, FaultUpstreamError}

// faultErrors are the answers of the queued failures (the spec's
// catalogue: 400 for a refused action, 502 for a refused creation or an
// unreachable upstream).
var faultErrors = map[string]func() *apierr.Error{
	FaultApproveFailed: func() *apierr.Error {
		return apierr.New(codeApproveFailed, "the approval was refused upstream").WithReason("REJECTED").WithRetryable(false)
	},
	FaultRejectFailed: func() *apierr.Error {
		return apierr.New(codeRejectFailed, "the rejection was refused upstream").WithReason("REJECTED").WithRetryable(false)
	},
	FaultDisputeFailed: func() *apierr.Error {
		return apierr.New(codeDisputeFailed, "the dispute was refused upstream").WithReason("REJECTED").WithRetryable(false)
	},
	FaultCreateFailed: func() *apierr.Error {
		return apierr.New(codeCreateFailed, "the return's creation was refused upstream").WithReason("REJECTED").WithRetryable(false)
	},
	FaultUpstreamError: func() *apierr.Error {
		return apierr.New(apierr.UpstreamError, "the after-sales service is unreachable").WithReason("UNREACHABLE").WithRetryable(true)
	},
}

// CheckFault refuses a failure kind target "returns" does not know.
func CheckFault(kind string) error {
	if _, ok := faultErrors[kind]; !ok {
		return apierr.Newf(apierr.ValidationError, "error: target %s takes one of %v", FaultTarget, FaultKinds)
	}
	return nil
}

// injected consumes one of the shop's queued failures, if any, and answers
// it; the consumption commits on its own (ctx carries no transaction here),
// so the failed move still counts against the queue. Callers take it only
// once they have found the record the request acts on among the shop's own
// (an unknown id, or another shop's, answers 404 and leaves the queue as it
// was): see injectedOn.
func (s *Service) injected(ctx context.Context, seller string) error {
	if s.faults == nil {
		return nil
	}
	kind, ok, err := s.faults.Take(ctx, seller, FaultTarget)
	if err != nil {
		return fmt.Errorf("returns: fault queue: %w", err)
	}
	if !ok {
		return nil
	}
	if e, known := faultErrors[kind]; known {
		return e()
	}
	return faultErrors[FaultUpstreamError]()
}

// injectedOn is injected for a seller's move on return id: the return is
// looked up first, and its 404 is the answer when it is not the shop's.
// Without a fault queue (production) nothing is read here: the move's own
// transaction finds the return.
func (s *Service) injectedOn(ctx context.Context, seller, id string) error {
	if s.faults == nil {
		return nil
	}
	if _, err := s.store.Get(ctx, seller, id); err != nil {
		return err
	}
	return s.injected(ctx, seller)
}
