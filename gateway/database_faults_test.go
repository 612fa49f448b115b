package gateway_test

import (
	"testing"
	"time"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

// TestDatabaseFaults: with PostgreSQL cut off, a running core answers 503
// SERVICE_UNAVAILABLE with Retry-After (not 500) and reports NOT_SERVING; a
// frozen database answers 504 UPSTREAM_TIMEOUT at the call's deadline; once
// the database is back, requests succeed again without a restart.
func TestDatabaseFaults(t *testing.T) {
	env := testenv.Start(t, testenv.Options{DatabaseProxy: true, Mutate: func(c *gateway.Config) {
		c.RequestTimeout = 2 * time.Second
	}})
	full := env.Client(t, "full", 0)
	order := sdk.Request{Method: "GET", Path: "/open/v1/orders/" + firstOrderID(t, full, "limit=1")}
	health := healthpb.NewHealthClient(env.Conn)
	waitHealth := func(want healthpb.HealthCheckResponse_ServingStatus) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			resp, err := health.Check(ctx, &healthpb.HealthCheckRequest{})
			if err == nil && resp.GetStatus() == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("core health never became %s (last %v %v)", want, resp.GetStatus(), err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	waitHealth(healthpb.HealthCheckResponse_SERVING)

	env.DBProxy.Cut()
	began := time.Now()
	r := send(t, full, order)
	t.Logf("database cut: %d in %s", r.Status, time.Since(began))
	expectError(t, r, 503, "SERVICE_UNAVAILABLE")
	if r.Header.Get("Retry-After") == "" {
		t.Fatal("503 without Retry-After")
	}
	waitHealth(healthpb.HealthCheckResponse_NOT_SERVING)

	env.DBProxy.Resume()
	waitHealth(healthpb.HealthCheckResponse_SERVING)
	if r := send(t, full, order); r.Status != 200 {
		t.Fatalf("after the database came back: %d %s", r.Status, r.Body)
	}

	env.DBProxy.Freeze()
	began = time.Now()
	r = send(t, full, order)
	t.Logf("database frozen: %d in %s", r.Status, time.Since(began))
	expectError(t, r, 504, "UPSTREAM_TIMEOUT")
	env.DBProxy.Resume()
}
