// Package timerslack widens a server process's timer slack: how late Linux
// may fire a thread's timed sleep so that it can batch wake-ups.
//
// The reason is the Go runtime's monitor thread (sysmon). While any goroutine
// runs it sleeps 20 µs between checks and keeps that pace as long as it finds
// a thread in a system call to take a processor from, which on a busy tier is
// nearly always: at Linux's default slack of 50 µs it wakes about ten
// thousand times a second, and on a shared or virtualised CPU each wake-up is
// a context switch that the request path pays for (docs/performance.md, "Where
// the gap is: context switches"). With a slack of a millisecond it wakes
// about a thousand times a second and still does its work: a processor held
// in a system call is handed on within about a millisecond, a goroutine that
// runs for 10 ms is still preempted. Every other timed wait of the process
// (deadlines, tickers, the network poller's timeout) may fire up to the slack
// late, which nothing of the platform's counts in less than milliseconds.
package timerslack

import (
	"fmt"
	"time"
)

// EnvVar names the setting: a Go duration; 0 keeps the slack the process
// inherited.
const EnvVar = "MP_TIMER_SLACK"

// Default is the slack of the server roles when EnvVar is unset.
const Default = time.Millisecond

// max bounds the setting: beyond it the slack would delay the platform's own
// deadlines and tickers noticeably.
const maxSlack = 100 * time.Millisecond

// Parse reads the setting's value; empty means Default.
func Parse(value string) (time.Duration, error) {
	if value == "" {
		return Default, nil
	}
	d, err := time.ParseDuration(value)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", EnvVar, err)
	}
	if d < 0 || d > maxSlack {
		return 0, fmt.Errorf("%s: %s is outside 0 to %s", EnvVar, value, maxSlack)
	}
	return d, nil
}
