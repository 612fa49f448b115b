package delivery

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestNextAttemptFollowsThePublishedSchedule(t *testing.T) {
	published := []time.Duration{0, 5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour, 10 * time.Hour}
	for seed := uint64(0); seed < 50; seed++ {
		rnd := rand.New(rand.NewPCG(seed, seed))
		for attempt, d := range published {
			got, ok := NextAttempt(attempt, rnd)
			if !ok || got < d || got > d+d/10 {
				t.Fatalf("seed %d: NextAttempt(%d) = %v, %v; want [%v, %v]", seed, attempt, got, ok, d, d+d/10)
			}
		}
		if _, ok := NextAttempt(len(published), rnd); ok {
			t.Fatalf("NextAttempt(%d) continues past the schedule", len(published))
		}
	}
	if _, ok := NextAttempt(-1, nil); ok {
		t.Error("a negative attempt is scheduled")
	}
	if d, ok := NextAttempt(4, nil); !ok || d < 2*time.Hour {
		t.Errorf("nil generator: %v, %v", d, ok)
	}
	// Jitter spreads retries that failed together.
	seen := map[time.Duration]bool{}
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		d, _ := NextAttempt(3, rnd)
		seen[d] = true
	}
	if len(seen) < 10 {
		t.Errorf("20 draws gave %d distinct delays", len(seen))
	}
}

func TestShouldDisable(t *testing.T) {
	first := time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		first, now time.Time
		want       bool
	}{
		{time.Time{}, first.Add(1000 * time.Hour), false},
		{first, first, false},
		{first, first.Add(DisableAfter - time.Nanosecond), false},
		{first, first.Add(DisableAfter), true},
		{first, first.Add(30 * 24 * time.Hour), true},
	} {
		if got := ShouldDisable(tc.first, tc.now); got != tc.want {
			t.Errorf("ShouldDisable(%v, %v) = %v", tc.first, tc.now, got)
		}
	}
	if DisableAfter != 72*time.Hour {
		t.Errorf("DisableAfter = %v", DisableAfter)
	}
}
