package admission_test

import (
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/gateway/admission"
)

func TestResultAllowed(t *testing.T) {
	ok := admission.BucketState{Limit: 10, Remaining: 3}
	full := admission.BucketState{Limit: 10, Exceeded: true}
	for _, c := range []struct {
		name string
		r    admission.Result
		want bool
	}{
		{"no buckets", admission.Result{}, true},
		{"room left", admission.Result{Buckets: []admission.BucketState{ok, ok}}, true},
		{"one exceeded", admission.Result{Buckets: []admission.BucketState{ok, full}}, false},
		{"nonce reused", admission.Result{NonceReused: true, Buckets: []admission.BucketState{ok}}, false},
	} {
		if got := c.r.Allowed(); got != c.want {
			t.Errorf("%s: Allowed() = %v", c.name, got)
		}
	}
}

func TestResultTightest(t *testing.T) {
	app := admission.BucketState{Key: "app", Limit: 600, Remaining: 10}
	acct := admission.BucketState{Key: "acct", Limit: 1800, Remaining: 10}
	sbx := admission.BucketState{Key: "sbx", Limit: 60, Remaining: 11}
	if got := (admission.Result{Buckets: []admission.BucketState{acct, sbx, app}}).Tightest(); got.Key != "app" {
		t.Errorf("tightest %q, want the fewest remaining and on a tie the smaller limit (app)", got.Key)
	}
	if got := (admission.Result{Buckets: []admission.BucketState{sbx}}).Tightest(); got.Key != "sbx" {
		t.Errorf("single bucket: %q", got.Key)
	}
	if got := (admission.Result{}).Tightest(); got != (admission.BucketState{}) {
		t.Errorf("no buckets: %+v, want the zero state", got)
	}
}

func TestResultRetryAfter(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 10, 0, time.UTC)
	minute := admission.BucketState{Exceeded: true, Reset: now.Add(50 * time.Second)}
	later := admission.BucketState{Exceeded: true, Reset: now.Add(110*time.Second + time.Millisecond)}
	notExceeded := admission.BucketState{Reset: now.Add(time.Hour)}
	for _, c := range []struct {
		name string
		r    admission.Result
		now  time.Time
		want time.Duration
	}{
		{"nothing exceeded", admission.Result{Buckets: []admission.BucketState{notExceeded}}, now, 0},
		{"exact seconds", admission.Result{Buckets: []admission.BucketState{minute}}, now, 50 * time.Second},
		{"latest exceeded reset, rounded up", admission.Result{Buckets: []admission.BucketState{minute, later, notExceeded}}, now, 111 * time.Second},
		{"floor of one second", admission.Result{Buckets: []admission.BucketState{minute}}, now.Add(49*time.Second + 900*time.Millisecond), time.Second},
		{"reset already passed", admission.Result{Buckets: []admission.BucketState{minute}}, now.Add(time.Minute), time.Second},
	} {
		if got := c.r.RetryAfter(c.now); got != c.want {
			t.Errorf("%s: RetryAfter = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestLimitsBuckets(t *testing.T) {
	s := admission.Subject{AccountID: "acct_1", AppID: "app_1"}
	got := admission.Limits{}.Buckets(s)
	want := []admission.Bucket{
		{Key: "{acct_1}:app:app_1", Limit: 600, Window: time.Minute},
		{Key: "{acct_1}:acct", Limit: 1800, Window: time.Minute},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("default buckets %+v, want %+v", got, want)
	}

	s.Sandbox, s.AppPerMinute, s.AccountPerMinute = true, 5000, 9000
	got = admission.Limits{SandboxPerMinute: 30}.Buckets(s)
	if len(got) != 3 || got[0].Limit != 5000 || got[1].Limit != 9000 ||
		got[2] != (admission.Bucket{Key: "{acct_1}:sbx:app_1", Limit: 30, Window: time.Minute}) {
		t.Fatalf("sandbox route with app and account overrides: %+v", got)
	}
	if got := (admission.Limits{AppPerMinute: 100, AccountPerMinute: 200}).Buckets(admission.Subject{AccountID: "a", AppID: "b"}); got[0].Limit != 100 || got[1].Limit != 200 {
		t.Fatalf("platform ceilings from Limits: %+v", got)
	}
	if (admission.Limits{AppPerMinute: -1}).Validate() == nil {
		t.Error("negative limit accepted")
	}
}
