package gateway

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/timestamppb"

	maintenancev1 "github.com/mallplatform/partnerapi/gen/mp/maintenance/v1"
)

// stubMaintenance answers GetMaintenance with its next answer, and
// remembers whether each call had a deadline.
type stubMaintenance struct {
	resp        *maintenancev1.Maintenance
	err         error
	env         string
	hadDeadline bool
}

func (s *stubMaintenance) GetMaintenance(ctx context.Context, in *maintenancev1.GetMaintenanceRequest, _ ...grpc.CallOption) (*maintenancev1.MaintenanceResponse, error) {
	_, s.hadDeadline = ctx.Deadline()
	s.env = in.GetEnvironment()
	if s.err != nil {
		return nil, s.err
	}
	return &maintenancev1.MaintenanceResponse{Data: s.resp}, nil
}

// A failed read keeps the last state read (on stays on, off stays off),
// logs its first failure and the recovery rather than every poll, and
// every read asks for the gateway's environment under a deadline.
func TestMaintenanceFollowerKeepsLastStateOnFailure(t *testing.T) {
	core, logs := observer.New(zap.InfoLevel)
	stub := &stubMaintenance{}
	state := &atomic.Pointer[maintenanceState]{}
	state.Store(&maintenanceState{})
	cfg := MaintenanceConfig{}
	cfg.setDefaults()
	f := &maintenanceFollower{client: stub, env: EnvProduction, cfg: cfg, log: zap.New(core), state: state}
	ctx := context.Background()

	// Core unreachable from the start: the gateway serves (fail open).
	stub.err = errors.New("core unreachable")
	f.poll(ctx)
	if state.Load().on {
		t.Fatal("a failed first read turned maintenance on")
	}
	if !stub.hadDeadline || stub.env != EnvProduction {
		t.Errorf("read without a deadline (%v) or for %q", stub.hadDeadline, stub.env)
	}

	until := time.Date(2026, 11, 27, 5, 0, 0, 0, time.UTC)
	stub.err, stub.resp = nil, &maintenancev1.Maintenance{Environment: EnvProduction, On: true, Until: timestamppb.New(until), Message: "m"}
	f.poll(ctx)
	if st := state.Load(); !st.on || !st.until.Equal(until) || st.message != "m" {
		t.Fatalf("after on: %+v", st)
	}
	stub.err = errors.New("core unreachable")
	for range 5 {
		f.poll(ctx)
	}
	if !state.Load().on {
		t.Fatal("failed reads turned maintenance off")
	}
	stub.err, stub.resp = nil, &maintenancev1.Maintenance{Environment: EnvProduction}
	f.poll(ctx)
	if state.Load().on {
		t.Fatal("off not followed")
	}
	if n := logs.FilterMessageSnippet("failed").Len(); n != 2 {
		t.Errorf("%d failure lines for two failure streaks, want 2 (the first of each)", n)
	}
	if n := logs.FilterMessageSnippet("works again").Len(); n != 2 {
		t.Errorf("%d recovery lines, want 2", n)
	}
	if n := logs.FilterMessageSnippet("switched").Len(); n != 2 {
		t.Errorf("%d switch lines, want 2 (on, off)", n)
	}
}

// The configuration keeps the 5-second promise and sane durations.
func TestMaintenanceConfigValidate(t *testing.T) {
	for _, c := range []MaintenanceConfig{{Poll: -1}, {Poll: 5 * time.Second}, {Timeout: -1}, {RetryAfter: 500 * time.Millisecond}} {
		if c.Validate() == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	if err := (MaintenanceConfig{Poll: 10 * time.Millisecond, RetryAfter: 2 * time.Minute}).Validate(); err != nil {
		t.Error(err)
	}
}
