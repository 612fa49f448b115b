package admission

import (
	"testing"
	"time"
)

func TestWindowIndexFloors(t *testing.T) {
	for _, c := range []struct {
		now  time.Time
		w    time.Duration
		want int64
	}{
		{time.Unix(59, 999_999_999), time.Minute, 0},
		{time.Unix(60, 0), time.Minute, 1},
		{time.Unix(-1, 0), time.Minute, -1},
		{time.Unix(-60, 0), time.Minute, -1},
		{time.Unix(-61, 0), time.Minute, -2},
	} {
		if got := windowIndex(c.now, c.w); got != c.want {
			t.Errorf("windowIndex(%v, %v) = %d, want %d", c.now.Unix(), c.w, got, c.want)
		}
		if end := windowEnd(c.want, c.w); !c.now.Before(end) || c.now.Before(end.Add(-c.w)) {
			t.Errorf("%v is not inside window %d ending %v", c.now, c.want, end)
		}
	}
}

func TestHashTagFollowsRedisCluster(t *testing.T) {
	for key, want := range map[string]string{
		"{acct_1}:app:x": "acct_1",
		"a{acct_1}b{c}":  "acct_1",
		"{}:x":           "",
		"{acct_1:x":      "",
		"plain":          "",
		"x}{acct_2}":     "acct_2",
		"{{acct}:x":      "{acct",
	} {
		got, ok := hashTag(key)
		if got != want || ok != (want != "") {
			t.Errorf("hashTag(%q) = %q, %v; want %q", key, got, ok, want)
		}
	}
}
