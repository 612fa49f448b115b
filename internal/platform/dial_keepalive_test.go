package platform_test

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"

	"github.com/mallplatform/partnerapi/internal/faultnet"
	"github.com/mallplatform/partnerapi/internal/platform"
)

// A core replica that stops answering, connection open (a frozen process,
// a node gone without a reset), leaves the gateway's rotation once a
// keepalive ping goes unanswered: calls all reach the live replica again
// within 20 s of the freeze. With the earlier keepalive (30 s + 10 s) a
// share of them hung for about 40 s.
func TestFrozenCoreLeavesTheRotation(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a keepalive to go unanswered (about 13 s)")
	}
	t.Parallel()
	live, _ := startCore(t, nil, "")
	frozenAddr, _ := startCore(t, nil, "")
	frozen := faultnet.NewProxy(t, frozenAddr)
	r := manual.NewBuilderWithScheme("twocores")
	r.InitialState(resolver.State{Addresses: []resolver.Address{{Addr: live}, {Addr: frozen.Addr()}}})
	conn, err := platform.DialCore("twocores:///core", gatewayToken, grpc.WithResolvers(r))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// allAnswer makes n calls, each allowed 500 ms, and reports whether
	// every one was answered.
	allAnswer := func(n int) bool {
		ok := true
		for range n {
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			_, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{})
			cancel()
			ok = ok && err == nil
		}
		return ok
	}
	// Before the freeze both replicas must be in the rotation: a replica
	// whose connection is still being made gets no calls, and the calls
	// after the freeze would then all reach the live one (answered by the
	// live replica alone, the check below would pass for no reason).
	bothAnswer := func() bool {
		seen := map[string]bool{}
		for range 8 {
			var p peer.Peer
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			_, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{}, grpc.Peer(&p))
			cancel()
			if err == nil && p.Addr != nil {
				seen[p.Addr.String()] = true
			}
		}
		return seen[live] && seen[frozen.Addr()]
	}
	deadline := time.Now().Add(10 * time.Second)
	for !bothAnswer() {
		if time.Now().After(deadline) {
			t.Fatal("the two replicas never both answered")
		}
		time.Sleep(50 * time.Millisecond)
	}
	frozen.Freeze()
	frozeAt := time.Now()
	if allAnswer(4) {
		t.Fatal("every call answered right after a replica froze: the calls did not reach it")
	}
	for !allAnswer(6) {
		if time.Since(frozeAt) > 20*time.Second {
			t.Fatalf("%v after a replica froze, calls still reach it", time.Since(frozeAt).Round(time.Second))
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("the frozen replica left the rotation %v after it froze", time.Since(frozeAt).Round(100*time.Millisecond))
}
