package delivery

import (
	"encoding/base64"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// The example of the Standard Webhooks specification.
func TestSignSpecificationExample(t *testing.T) {
	got, err := Sign("msg_p5jXN8AQM9LWM0D4loKWxJek", time.Unix(1614265330, 0),
		[]byte(`{"test": 2432232314}`), []string{"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"})
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; err != nil || got != want {
		t.Fatalf("Sign = %q, %v; want %q", got, err, want)
	}
}

func TestSignDuringRotationCarriesBoth(t *testing.T) {
	a, _ := NewSecret()
	b, _ := NewSecret()
	ts := time.Unix(1700000000, 0)
	both, err := Sign("evt_1", ts, []byte(`{}`), []string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	sa, _ := Sign("evt_1", ts, []byte(`{}`), []string{a})
	sb, _ := Sign("evt_1", ts, []byte(`{}`), []string{b})
	if both != sa+" "+sb {
		t.Errorf("rotation header %q, want %q", both, sa+" "+sb)
	}
}

func TestSignRefusesMalformedSecrets(t *testing.T) {
	short := "whsec_" + base64.StdEncoding.EncodeToString(make([]byte, 23))
	long := "whsec_" + base64.StdEncoding.EncodeToString(make([]byte, 65))
	good, _ := NewSecret()
	for _, s := range [][]string{nil, {}, {"MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}, {"whsec_not base64!"}, {short}, {long}, {good, "whsec_"}} {
		_, err := Sign("evt_1", time.Now(), nil, s)
		if err == nil {
			t.Errorf("%v: accepted", s)
			continue
		}
		for _, secret := range s {
			if len(secret) > 6 && strings.Contains(err.Error(), secret[6:]) {
				t.Errorf("error %q carries the secret", err)
			}
		}
	}
}

func TestNewSecret(t *testing.T) {
	a, err := NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewSecret()
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(a, "whsec_"))
	if !strings.HasPrefix(a, "whsec_") || err != nil || len(key) < 24 || a == b {
		t.Errorf("NewSecret = %q (key %d bytes, %v), then %q", a, len(key), err, b)
	}
}

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
