package delivery

import (
	"math/rand/v2"
	"time"
)

// schedule is the published retry schedule: the delay before each retry
// after the first attempt, which is immediate.
var schedule = [...]time.Duration{
	5 * time.Second,
	5 * time.Minute,
	30 * time.Minute,
	2 * time.Hour,
	5 * time.Hour,
	10 * time.Hour,
	10 * time.Hour,
}

// jitterDivisor makes the jitter up to a tenth of the delay, added: a retry
// never comes before its published time, and retries of many deliveries that
// failed together (a receiver's outage) spread out instead of arriving at once.
const jitterDivisor = 10

// DisableAfter is how long a subscription's deliveries may all fail before
// it is disabled.
const DisableAfter = 72 * time.Hour

// NextAttempt returns the delay before retry number attempt (attempt 1 = the
// first retry, after the immediate first attempt; 0 is that first attempt)
// and false once the schedule is spent. rnd draws the jitter; nil uses the
// shared generator. A *rand.Rand is not safe for concurrent use.
func NextAttempt(attempt int, rnd *rand.Rand) (time.Duration, bool) {
	if attempt == 0 {
		return 0, true
	}
	if attempt < 0 || attempt > len(schedule) {
		return 0, false
	}
	d := schedule[attempt-1]
	span := int64(d / jitterDivisor)
	var j int64
	if rnd != nil {
		j = rnd.Int64N(span)
	} else {
		j = rand.Int64N(span)
	}
	return d + time.Duration(j), true
}

// ShouldDisable reports whether a subscription whose deliveries have all
// failed since firstFailure (the first failure after its last success; zero
// when the last delivery succeeded) is to be disabled at now.
func ShouldDisable(firstFailure, now time.Time) bool {
	return !firstFailure.IsZero() && now.Sub(firstFailure) >= DisableAfter
}
