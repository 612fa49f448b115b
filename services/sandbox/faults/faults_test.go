package faults_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/sandbox/faults"
)

func TestQueueSharedByReplicas(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) {
			var d *db.DB
			if pg {
				d = dbtest.Postgres(t)
			} else {
				d = dbtest.SQLite(t)
			}
			ctx := context.Background()
			// Two replicas' stores over one database.
			a, b := faults.NewStore(d), faults.NewStore(d)
			if err := a.Set(ctx, "sel_a", faults.TargetCarrier, "UPSTREAM_ERROR", 5); err != nil {
				t.Fatal(err)
			}
			if _, ok, err := b.Take(ctx, "sel_b", faults.TargetCarrier); ok || err != nil {
				t.Fatalf("another seller took a fault: %v %v", ok, err)
			}
			var mu sync.Mutex
			taken := 0
			var wg sync.WaitGroup
			for i := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					s := a
					if i%2 == 1 {
						s = b
					}
					k, ok, err := s.Take(ctx, "sel_a", faults.TargetCarrier)
					if err != nil {
						t.Error(err)
						return
					}
					if ok {
						if k != "UPSTREAM_ERROR" {
							t.Errorf("took %q", k)
						}
						mu.Lock()
						taken++
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			if taken != 5 {
				t.Errorf("8 calls took %d faults of 5", taken)
			}
			if _, n, err := b.Pending(ctx, "sel_a", faults.TargetCarrier); n != 0 || err != nil {
				t.Errorf("left: %d %v", n, err)
			}
			// Replaced, then cleared.
			_ = a.Set(ctx, "sel_a", faults.TargetCarrier, "SHIP_FAILED", 2)
			if k, n, _ := b.Pending(ctx, "sel_a", faults.TargetCarrier); k != "SHIP_FAILED" || n != 2 {
				t.Errorf("after set: %s %d", k, n)
			}
			_ = a.Set(ctx, "sel_a", faults.TargetCarrier, "", 0)
			if _, ok, _ := b.Take(ctx, "sel_a", faults.TargetCarrier); ok {
				t.Error("a cleared queue still fails")
			}
		})
	}
}

// Check holds each target to its own failures.
func TestCheckTargetsKinds(t *testing.T) {
	for _, c := range []struct {
		target, kind string
		ok           bool
	}{
		{faults.TargetCarrier, "SHIP_FAILED", true},
		{faults.TargetCarrier, "UPSTREAM_TIMEOUT", true},
		{faults.TargetCarrier, "APPROVE_FAILED", false},
		{faults.TargetReturns, "APPROVE_FAILED", true},
		{faults.TargetReturns, "REJECT_FAILED", true},
		{faults.TargetReturns, "DISPUTE_FAILED", true},
		{faults.TargetReturns, "CREATE_FAILED", true},
		{faults.TargetReturns, "UPSTREAM_ERROR", true},
		{faults.TargetReturns, "SHIP_FAILED", false},
		{"payments", "UPSTREAM_ERROR", false},
	} {
		if err := faults.Check(c.target, c.kind); (err == nil) != c.ok {
			t.Errorf("%s %s: %v, want ok %v", c.target, c.kind, err, c.ok)
		}
	}
}
