//go:build !linux

package timerslack

import "time"

// Apply does nothing: timer slack is a Linux setting.
func Apply(time.Duration) error { return nil }
