package shipping_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/shipping"
	"github.com/mallplatform/partnerapi/services/shipping/calendar"
)

type wireDay map[string]any

func getCalendar(t *testing.T, c *sdk.Client, query string, header http.Header) (*sdk.Response, []wireDay) {
	t.Helper()
	resp, err := c.DoSigned(context.Background(), sdk.Request{Method: http.MethodGet, Path: "/open/v1/shipping/calendar", RawQuery: query, ExtraHeaders: header})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != http.StatusOK {
		return resp, nil
	}
	var env struct {
		Success bool      `json:"success"`
		Data    []wireDay `json:"data"`
	}
	if err := json.Unmarshal(resp.Body, &env); err != nil || !env.Success || env.Data == nil {
		t.Fatalf("%s: body %s: %v", query, resp.Body, err)
	}
	return resp, env.Data
}

func wantError(t *testing.T, resp *sdk.Response, status int, code string) {
	t.Helper()
	var env struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(resp.Body, &env)
	if resp.Status != status || env.Error.Code != code {
		t.Errorf("answer %d %s, want %d %s", resp.Status, resp.Body, status, code)
	}
}

func TestCalendarRoute(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	// orders:read, and no seller token.
	c := env.Client(t, "full", -1)

	resp, days := getCalendar(t, c, "year=2026", nil)
	if len(days) != 21 {
		t.Fatalf("2026: %d days, want the 21 shipped", len(days))
	}
	first, _ := json.Marshal(days[0])
	if string(first) != `{"date":"2026-01-01","kind":"REGULAR_HOLIDAY","name":"New Year's Day","proclamation":"Proclamation No. 1006 (2025)","scope":null,"tentative":false}` {
		t.Errorf("first day: %s", first)
	}
	var fitr wireDay
	for _, d := range days {
		if d["date"] == "2026-03-20" {
			fitr = d
		}
	}
	if fitr["tentative"] != true || fitr["proclamation"] != nil {
		t.Errorf("Eid'l Fitr: %v, want tentative with no proclamation", fitr)
	}
	tag := resp.Header.Get("ETag")
	if len(tag) < 3 || tag[0] != '"' || tag[len(tag)-1] != '"' {
		t.Fatalf("ETag %q is not a strong tag", tag)
	}
	if json.Valid(resp.Body) && containsKey(resp.Body, "etag") {
		t.Errorf("the entity tag leaked into the body: %s", resp.Body)
	}

	// The same tag: 304, no body. Another tag, or a weak form of it: as
	// the RFC compares If-None-Match weakly, the weak form matches too.
	for _, inm := range []string{tag, `"stale", ` + tag, "W/" + tag, "*"} {
		nm, _ := getCalendar(t, c, "year=2026", http.Header{"If-None-Match": {inm}})
		if nm.Status != http.StatusNotModified || len(nm.Body) != 0 || nm.Header.Get("ETag") != tag {
			t.Errorf("If-None-Match %s: %d %q (ETag %q), want 304 with no body", inm, nm.Status, nm.Body, nm.Header.Get("ETag"))
		}
	}
	if again, _ := getCalendar(t, c, "year=2026", http.Header{"If-None-Match": {`"stale"`}}); again.Status != http.StatusOK {
		t.Errorf("a stale tag: %d, want 200", again.Status)
	}
	// Another query is another answer with its own tag.
	if ncr, _ := getCalendar(t, c, "year=2026&region=1300000000", http.Header{"If-None-Match": {tag}}); ncr.Status != http.StatusOK || ncr.Header.Get("ETag") == tag {
		t.Errorf("NCR with the all-regions tag: %d, ETag %s", ncr.Status, ncr.Header.Get("ETag"))
	}

	// A year without data is an empty list.
	if resp, days := getCalendar(t, c, "year=1999", nil); resp.Status != http.StatusOK || len(days) != 0 {
		t.Errorf("1999: %d with %d days, want 200 and []", resp.Status, len(days))
	}

	for _, q := range []string{"", "year=", "year=abc", "year=26", "year=20260", "year=2026.5", "year=2026&region=13", "year=2026&region=NCR",
		"year=2026&region=9999999999",
		"year=2026&region=0701201000"} { // the last a municipality, not a region or province
		resp, _ := getCalendar(t, c, q, nil)
		if resp.Status != http.StatusBadRequest {
			t.Errorf("%q: %d %s, want 400", q, resp.Status, resp.Body)
			continue
		}
		wantError(t, resp, http.StatusBadRequest, "VALIDATION_ERROR")
	}
}

func containsKey(body []byte, key string) bool {
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	var top map[string]json.RawMessage
	_ = json.Unmarshal(body, &top)
	_ = json.Unmarshal(body, &env)
	_, ok := top[key]
	return ok
}

// An operator's edit through the internal admin service reaches another
// replica (a second service over the same database) within its poll
// interval, and the route's entity tag moves with it.
func TestCalendarEditReachesReplicas(t *testing.T) {
	env := testenv.Start(t, testenv.Options{Postgres: true})
	ctx := context.Background()
	const poll = 50 * time.Millisecond
	replica := shipping.NewService(shipping.Config{Store: shipping.NewEntStore(env.DB), PollInterval: poll})
	before, err := replica.Calendar(ctx)
	if err != nil {
		t.Fatal(err)
	}
	edsa := calendar.NewDate(2026, time.February, 25)
	if v := before.Check(edsa, calendar.Place{}); !v.Working {
		t.Fatalf("EDSA day before the edit: %+v", v)
	}
	c := env.Client(t, "full", -1)
	old, _ := getCalendar(t, c, "year=2026", nil)

	admin := shippingv1.NewCalendarAdminServiceClient(env.DialCore(t, env.InternalCaller(t, "logistics-ops")))
	edit, err := admin.SetCalendarDay(ctx, &shippingv1.SetCalendarDayRequest{Day: &shippingv1.CalendarDayInput{
		Date: "2026-02-25", Kind: shippingv1.CalendarDayKind_CALENDAR_DAY_KIND_SPECIAL_NON_WORKING,
		Name: "EDSA People Power Revolution Anniversary", Proclamation: "Proclamation No. 9999 (2026)"}})
	if err != nil {
		t.Fatal(err)
	}
	if edit.GetVersion() <= before.Version() || edit.GetDays() != 1 {
		t.Fatalf("edit answered %v after version %d", edit, before.Version())
	}

	// Polled as the pickup-slot code would: the replica serves the edit
	// once its interval has passed.
	deadline := time.Now().Add(5 * time.Second)
	for {
		snap, err := replica.Calendar(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if snap.Version() == edit.GetVersion() {
			if v := snap.Check(edsa, calendar.Place{}); v.Working || v.Reason != calendar.Holiday {
				t.Fatalf("EDSA day after the edit: %+v", v)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the replica still serves version %d", snap.Version())
		}
		time.Sleep(poll / 5)
	}

	// Core serves its own edits at once: the old tag no longer matches.
	resp, _ := getCalendar(t, c, "year=2026", http.Header{"If-None-Match": {old.Header.Get("ETag")}})
	if resp.Status != http.StatusOK || resp.Header.Get("ETag") == old.Header.Get("ETag") {
		t.Errorf("after the edit: %d with ETag %s", resp.Status, resp.Header.Get("ETag"))
	}

	// Deleting it twice: the second is NOT_FOUND; an invalid day is refused.
	if _, err := admin.DeleteCalendarDay(ctx, &shippingv1.DeleteCalendarDayRequest{Date: "2026-02-25"}); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.DeleteCalendarDay(ctx, &shippingv1.DeleteCalendarDayRequest{Date: "2026-02-25"}); status.Code(err) != codes.NotFound {
		t.Errorf("second delete: %v, want NotFound", err)
	}
	_, err = admin.ImportCalendar(ctx, &shippingv1.ImportCalendarRequest{Days: []*shippingv1.CalendarDayInput{
		{Date: "2026-06-01", Kind: shippingv1.CalendarDayKind_CALENDAR_DAY_KIND_SPECIAL_WORKING, Name: "x", Tentative: true}}})
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("a tentative working day: %v, want InvalidArgument", err)
	}

	// Partners cannot reach the admin service: it has no route, and the
	// gateway's own token is not an internal caller's.
	if resp, err := c.Do(ctx, http.MethodPost, "/open/v1/shipping/calendar", nil); err != nil || resp.Status == http.StatusOK {
		t.Errorf("a partner edit: %v %v", resp, err)
	}
}
