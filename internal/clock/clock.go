// Package clock gives the platform one notion of "now" that tests and the
// sandbox can move. Every deadline and cut-off is computed in Asia/Manila.
package clock

import (
	"sync"
	"time"
)

// Manila is the marketplace's business time zone. The zone database is
// embedded in the binary (time/tzdata) so a bare container still has it.
var Manila = mustLoad("Asia/Manila")

// Clock tells the current time.
type Clock interface {
	Now() time.Time
}

// System is the wall clock, truncated to milliseconds so that stored
// timestamps, cursors and rendered timestamps agree on their precision.
type System struct{}

// Now returns the current UTC time at millisecond precision.
func (System) Now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

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
