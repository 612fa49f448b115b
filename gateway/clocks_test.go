package gateway_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

// TestBusinessTimeMovesAloneAndSecurityTimeStays: moving business time ten
// days ahead breaches ship-by deadlines and moves the sandbox clock, while
// requests signed with real time keep verifying: signing, tokens and rate
// windows run on security time.
func TestBusinessTimeMovesAloneAndSecurityTimeStays(t *testing.T) {
	env := testenv.Start(t, testenv.Options{BusinessClock: true})
	full := env.Client(t, "full", 0)
	type order struct {
		ID          string     `json:"id"`
		Status      string     `json:"status"`
		ShipByDate  *time.Time `json:"shipByDate"`
		SLABreached *bool      `json:"slaBreached"`
	}
	onTime := func() map[string]bool {
		t.Helper()
		r := send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/orders", RawQuery: "status=READY_TO_SHIP&limit=100"})
		if r.Status != 200 {
			t.Fatalf("list: %d %s", r.Status, r.Body)
		}
		var page struct{ Data []order }
		if err := json.Unmarshal(r.Body, &page); err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, o := range page.Data {
			if o.SLABreached != nil && !*o.SLABreached {
				out[o.ID] = true
			}
		}
		return out
	}
	before := onTime()
	if len(before) == 0 {
		t.Fatal("the seeded sandbox has no order within its ship-by deadline")
	}
	env.Business.Advance(10 * 24 * time.Hour)
	if after := onTime(); len(after) != 0 {
		t.Fatalf("ten days later %d orders are still within their deadline: %v", len(after), after)
	}
	r := send(t, full, sdk.Request{Method: "GET", Path: "/open/v1/sandbox/clock"})
	var clk struct {
		Data struct {
			Now time.Time `json:"now"`
		} `json:"data"`
	}
	if err := json.Unmarshal(r.Body, &clk); err != nil || r.Status != 200 {
		t.Fatalf("sandbox clock: %d %s", r.Status, r.Body)
	}
	if d := clk.Data.Now.Sub(env.Clock.Now()); d < 10*24*time.Hour-time.Minute || d > 10*24*time.Hour+time.Minute {
		t.Fatalf("sandbox clock is %s ahead of security time, want 10 days", d)
	}
}
