package carrier_test

import (
	"context"
	"errors"
	"testing"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
)

// A shop's next N calls meet its fault, then none; other shops are not
// touched; a new injection replaces the old; count 0 clears.
func TestMemoryFaults(t *testing.T) {
	f := carrier.NewMemoryFaults()
	if err := f.Set(context.Background(), "sel_a", carrier.FaultUpstreamError, 2); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := f.Take(context.Background(), "sel_b"); ok {
		t.Fatal("another shop met sel_a's fault")
	}
	for i := 0; i < 2; i++ {
		if k, ok, _ := f.Take(context.Background(), "sel_a"); !ok || k != carrier.FaultUpstreamError {
			t.Fatalf("call %d: %q, %v", i+1, k, ok)
		}
	}
	if k, ok, _ := f.Take(context.Background(), "sel_a"); ok {
		t.Fatalf("a third call met %q", k)
	}

	_ = f.Set(context.Background(), "sel_a", carrier.FaultShipFailed, 5)
	_ = f.Set(context.Background(), "sel_a", carrier.FaultUpstreamTimeout, 1)
	if k, n, _ := f.Pending(context.Background(), "sel_a"); k != carrier.FaultUpstreamTimeout || n != 1 {
		t.Fatalf("after replacing: %q x%d", k, n)
	}
	_ = f.Set(context.Background(), "sel_a", carrier.FaultUpstreamTimeout, 0)
	if _, n, _ := f.Pending(context.Background(), "sel_a"); n != 0 {
		t.Fatalf("count 0 left %d queued", n)
	}

	for _, bad := range []struct {
		kind  carrier.FaultKind
		count int
	}{{"REFUND_FAILED", 1}, {carrier.FaultShipFailed, -1}, {carrier.FaultShipFailed, carrier.MaxFaultCount + 1}} {
		if err := f.Set(context.Background(), "sel_a", bad.kind, bad.count); err == nil {
			t.Errorf("Set(%q, %d) accepted", bad.kind, bad.count)
		}
	}
}

// Each fault is the failure of its name, on the wire too.
func TestFaultKindErrors(t *testing.T) {
	for name, want := range map[string]string{
		"SHIP_FAILED": "SHIP_FAILED", "UPSTREAM_ERROR": "UPSTREAM_ERROR", "UPSTREAM_TIMEOUT": "UPSTREAM_TIMEOUT",
	} {
		k, ok := carrier.ParseFaultKind(name)
		if !ok {
			t.Fatalf("%s not parsed", name)
		}
		e, _ := apierr.As(carrier.APIError(k.Err()))
		if apierr.Name(e.Code) != want {
			t.Errorf("%s fails as %s", name, apierr.Name(e.Code))
		}
	}
	if _, ok := carrier.ParseFaultKind("ship_failed"); ok {
		t.Error("a lower-case fault name parsed")
	}
	if r, ok := carrier.AsRefusal(carrier.FaultShipFailed.Err()); !ok || r.Retryable || r.Reason != carrier.Rejected {
		t.Errorf("SHIP_FAILED fault = %+v", r)
	}
	if !errors.Is(carrier.FaultUpstreamTimeout.Err(), carrier.ErrTimeout) {
		t.Error("UPSTREAM_TIMEOUT fault is not ErrTimeout")
	}
}
