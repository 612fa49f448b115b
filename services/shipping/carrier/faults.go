package carrier

import (
	"context"
	"fmt"
	"sync"
)

// FaultKind is the failure a sandbox shop asked its next courier calls to
// meet (POST /open/v1/sandbox/faults, target "carrier"): the three codes a
// partner must handle.
type FaultKind string

const (
	// FaultShipFailed: the courier refuses (400 SHIP_FAILED, reason
	// REJECTED, not retryable).
	FaultShipFailed FaultKind = "SHIP_FAILED"
	// FaultUpstreamError: the courier cannot be reached (502).
	FaultUpstreamError FaultKind = "UPSTREAM_ERROR"
	// FaultUpstreamTimeout: the courier does not answer in time (504).
	FaultUpstreamTimeout FaultKind = "UPSTREAM_TIMEOUT"
)

// MaxFaultCount bounds one injection: enough to walk a partner's retry
// schedule, few enough that a forgotten fault clears itself.
const MaxFaultCount = 100

// ParseFaultKind reads a fault's `error` field.
func ParseFaultKind(s string) (FaultKind, bool) {
	switch k := FaultKind(s); k {
	case FaultShipFailed, FaultUpstreamError, FaultUpstreamTimeout:
		return k, true
	}
	return "", false
}

// Err is the error a call meets under the fault.
func (k FaultKind) Err() error {
	switch k {
	case FaultShipFailed:
		return &Refusal{Reason: Rejected, Message: "sandbox fault: the carrier refused the call"}
	case FaultUpstreamTimeout:
		return fmt.Errorf("sandbox fault: %w", ErrTimeout)
	default:
		return fmt.Errorf("sandbox fault: %w", ErrUnreachable)
	}
}

// Faults is the per-seller queue of injected courier failures the
// simulated courier consults before every call.
type Faults interface {
	// Set makes seller's next count calls fail with kind, replacing what
	// was queued; count 0 clears the queue.
	Set(ctx context.Context, sellerID string, kind FaultKind, count int) error
	// Take consumes one queued failure of seller, if any.
	Take(ctx context.Context, sellerID string) (FaultKind, bool, error)
	// Pending is what is queued for seller.
	Pending(ctx context.Context, sellerID string) (FaultKind, int, error)
}

// CheckFault is Set's argument check, shared by every Faults.
func CheckFault(kind FaultKind, count int) error {
	if _, ok := ParseFaultKind(string(kind)); !ok {
		return fmt.Errorf("carrier: unknown fault %q", kind)
	}
	if count < 0 || count > MaxFaultCount {
		return fmt.Errorf("carrier: fault count %d outside 0..%d", count, MaxFaultCount)
	}
	return nil
}

// MemoryFaults is Faults in the process's memory, for unit tests of a
// courier; the platform keeps the queue in its database (services/sandbox/
// faults), shared by core's replicas.
type MemoryFaults struct {
	mu     sync.Mutex
	queued map[string]queuedFault
}

type queuedFault struct {
	kind  FaultKind
	count int
}

// NewMemoryFaults returns an empty queue.
func NewMemoryFaults() *MemoryFaults { return &MemoryFaults{queued: map[string]queuedFault{}} }

var _ Faults = (*MemoryFaults)(nil)

// Set implements Faults.
func (m *MemoryFaults) Set(_ context.Context, sellerID string, kind FaultKind, count int) error {
	if err := CheckFault(kind, count); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if count == 0 {
		delete(m.queued, sellerID)
		return nil
	}
	m.queued[sellerID] = queuedFault{kind: kind, count: count}
	return nil
}

// Take implements Faults.
func (m *MemoryFaults) Take(_ context.Context, sellerID string) (FaultKind, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	q, ok := m.queued[sellerID]
	if !ok {
		return "", false, nil
	}
	if q.count <= 1 {
		delete(m.queued, sellerID)
	} else {
		m.queued[sellerID] = queuedFault{kind: q.kind, count: q.count - 1}
	}
	return q.kind, true, nil
}

// Pending implements Faults.
func (m *MemoryFaults) Pending(_ context.Context, sellerID string) (FaultKind, int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	q := m.queued[sellerID]
	return q.kind, q.count, nil
}
