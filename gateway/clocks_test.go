package gateway_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/sandbox/shopclock"
)

// TestBusinessTimeMovesAloneAndSecurityTimeStays: moving business time ten
// days ahead breaches ship-by deadlines and moves the sandbox clock, while
// requests signed with real time keep verifying: signing, tokens and rate
// windows run on security time.
func TestBusinessTimeMovesAloneAndSecurityTimeStays(t *testing.T) {
	env := testenv.Start(t, testenv.Options{BusinessClock: true})
	full := env.Client(t, "full", 0)
	onTime := func() map[string]bool { return ordersOnTime(t, full) }
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

// ordersOnTime lists the seller's READY_TO_SHIP orders still within their
// ship-by deadline.
func ordersOnTime(t *testing.T, c *sdk.Client) map[string]bool {
	t.Helper()
	r := send(t, c, sdk.Request{Method: "GET", Path: "/open/v1/orders", RawQuery: "status=READY_TO_SHIP&limit=100"})
	if r.Status != 200 {
		t.Fatalf("list: %d %s", r.Status, r.Body)
	}
	var page struct {
		Data []struct {
			ID          string `json:"id"`
			SLABreached *bool  `json:"slaBreached"`
		} `json:"data"`
	}
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

// TestTestShopClockIsItsOwn: moving one test shop's persisted clock ten days
// ahead breaches its orders' deadlines, on every replica within the offset
// cache's lifetime, and leaves another shop's orders as they were.
func TestTestShopClockIsItsOwn(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	moved, other := env.Client(t, "full", 0), env.Client(t, "full", 1)
	if len(ordersOnTime(t, moved)) == 0 || len(ordersOnTime(t, other)) == 0 {
		t.Fatal("the seeded shops have no order within its deadline")
	}
	store := shopclock.NewEntStore(env.DB.Ent)
	if _, err := store.Advance(ctx, env.Creds.Sellers[0].SellerID, 10*24*time.Hour); err != nil {
		t.Fatal(err)
	}
	env.Clock.Advance(shopclock.CacheTTL)
	if got := ordersOnTime(t, moved); len(got) != 0 {
		t.Fatalf("ten days later the moved shop has %d orders within their deadline", len(got))
	}
	if len(ordersOnTime(t, other)) == 0 {
		t.Fatal("the other shop's clock moved too: none of its orders is within its deadline")
	}
}
