// Package clock gives the platform its two notions of "now". Security time
// (signature windows, token and secret expiry, caches, rate windows) is the
// wall clock: a partner signs with real time, and nothing may move it.
// Business time (ship-by deadlines, SLA flags, cut-offs, the timestamps of
// domain records) is resolved per request, so that a sandbox test shop can
// move its own forward. Every deadline and cut-off is computed in
// Asia/Manila.
package clock

import (
	"context"
	"sync"
	"time"
)

// Manila is the marketplace's business time zone. The zone database is
// embedded in the binary (time/tzdata) so a bare container still has it.
var Manila = mustLoad("Asia/Manila")

// Clock tells the current time: security time, the same for every request.
type Clock interface {
	Now() time.Time
}

// Business tells business time for a request. Where nothing moved it, it is
// the wall clock; a sandbox test shop's moved clock is resolved from the
// request (the seller it acts for).
type Business interface {
	Business(ctx context.Context) time.Time
}

// System is the wall clock, truncated to milliseconds so that stored
// timestamps, cursors and rendered timestamps agree on their precision.
type System struct{}

// Now returns the current UTC time at millisecond precision.
func (System) Now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// Business is the wall clock: nothing moves System.
func (s System) Business(context.Context) time.Time { return s.Now() }

// Uniform is business time that is the same for every request: C's time.
type Uniform struct{ C Clock }

// Business returns C's time.
func (u Uniform) Business(context.Context) time.Time { return u.C.Now() }

// Manual is a clock that only moves when told to, for tests and the sandbox.
type Manual struct {
	mu  sync.Mutex
	now time.Time
}

// NewManual returns a Manual clock set to t.
func NewManual(t time.Time) *Manual { return &Manual{now: t.UTC().Truncate(time.Millisecond)} }

// Now returns the clock's current time.
func (m *Manual) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.now
}

// Business is the manual clock for every request.
func (m *Manual) Business(context.Context) time.Time { return m.Now() }

// Advance moves the clock forward by d.
func (m *Manual) Advance(d time.Duration) {
	m.mu.Lock()
	m.now = m.now.Add(d)
	m.mu.Unlock()
}

// Set moves the clock to t.
func (m *Manual) Set(t time.Time) {
	m.mu.Lock()
	m.now = t.UTC().Truncate(time.Millisecond)
	m.mu.Unlock()
}

func mustLoad(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic("clock: time zone " + name + " is missing: " + err.Error())
	}
	return loc
}
