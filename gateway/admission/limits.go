package admission

import (
	"fmt"
	"time"
)

// Default ceilings, per minute, from the spec's Limits table.
const (
	DefaultAppPerMinute     = 600
	DefaultAccountPerMinute = 1800
	DefaultSandboxPerMinute = 60
)

// Limits holds the platform's per-minute ceilings. Zero fields take the
// defaults above.
type Limits struct {
	AppPerMinute     int64
	AccountPerMinute int64
	SandboxPerMinute int64
}

// Validate reports a negative ceiling.
func (l Limits) Validate() error {
	if l.AppPerMinute < 0 || l.AccountPerMinute < 0 || l.SandboxPerMinute < 0 {
		return fmt.Errorf("admission: limits must not be negative: %+v", l)
	}
	return nil
}

// Subject is what a verified request is charged to.
type Subject struct {
	AccountID string
	AppID     string
	// AppPerMinute is the app's own ceiling (an enterprise override); zero
	// means the platform's per-app ceiling.
	AppPerMinute int64
	// AccountPerMinute is the account's own ceiling, granted like app
	// overrides; zero means the platform's per-account ceiling.
	AccountPerMinute int64
	// Sandbox reports a route under /open/v1/sandbox/, which also pays the
	// sandbox sub-limit.
	Sandbox bool
}

// Buckets returns the buckets one request of s is charged against, always in
// this order: the app, the developer account, and on sandbox routes the app's
// sandbox sub-limit. The sandbox sub-limit is per app, like the app ceiling
// it narrows, and is not raised by overrides.
func (l Limits) Buckets(s Subject) []Bucket {
	app := pick(s.AppPerMinute, pick(l.AppPerMinute, DefaultAppPerMinute))
	n := 2
	if s.Sandbox {
		n = 3
	}
	b := make([]Bucket, n)
	b[0] = Bucket{Key: AppBucketKey(s.AccountID, s.AppID), Limit: app, Window: time.Minute}
	b[1] = Bucket{Key: AccountBucketKey(s.AccountID), Limit: pick(s.AccountPerMinute, pick(l.AccountPerMinute, DefaultAccountPerMinute)), Window: time.Minute}
	if s.Sandbox {
		b[2] = Bucket{Key: SandboxBucketKey(s.AccountID, s.AppID), Limit: pick(l.SandboxPerMinute, DefaultSandboxPerMinute), Window: time.Minute}
	}
	return b
}

func pick(v, def int64) int64 {
	if v > 0 {
		return v
	}
	return def
}
