package cancellation_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/ent/event"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

type wireRequest struct {
	ID           string  `json:"id"`
	OrderID      string  `json:"orderId"`
	Status       string  `json:"status"`
	Reason       string  `json:"reason"`
	RejectReason *string `json:"rejectReason"`
	RequestedAt  string  `json:"requested_at"`
	RespondBy    string  `json:"respondBy"`
	DecidedAt    *string `json:"decided_at"`
}

type wireOrder struct {
	ID                  string `json:"id"`
	Status              string `json:"status"`
	CancellationRequest *struct {
		Status      string `json:"status"`
		Reason      string `json:"reason"`
		RequestedAt string `json:"requested_at"`
		RespondBy   string `json:"respondBy"`
	} `json:"cancellationRequest"`
}

func send(t *testing.T, c *sdk.Client, method, path, key, body string) *sdk.Response {
	t.Helper()
	req := sdk.Request{Method: method, Path: path}
	if body != "" {
		req.Body = []byte(body)
	}
	if key != "" {
		req.ExtraHeaders = http.Header{sdk.HeaderIdempotencyKey: {key}}
	}
	resp, err := c.DoSigned(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func data[T any](t *testing.T, resp *sdk.Response, status int) T {
	t.Helper()
	var env struct {
		Data T `json:"data"`
	}
	if resp.Status != status {
		t.Fatalf("answer %d %s, want %d", resp.Status, resp.Body, status)
	}
	if err := json.Unmarshal(resp.Body, &env); err != nil {
		t.Fatalf("%s: %v", resp.Body, err)
	}
	return env.Data
}

func wantError(t *testing.T, what string, resp *sdk.Response, status int, code string) {
	t.Helper()
	var env struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(resp.Body, &env)
	if resp.Status != status || env.Error.Code != code {
		t.Errorf("%s: answer %d %s, want %d %s", what, resp.Status, resp.Body, status, code)
	}
}

// testOrder creates a test order ready to ship through the sandbox.
func testOrder(t *testing.T, c *sdk.Client) string {
	t.Helper()
	return data[wireOrder](t, send(t, c, http.MethodPost, "/open/v1/sandbox/orders", "", `{"status":"READY_TO_SHIP"}`), http.StatusCreated).ID
}

func ask(c *sdk.Client, t *testing.T, order string) *sdk.Response {
	t.Helper()
	return send(t, c, http.MethodPost, "/open/v1/sandbox/orders/"+order+"/cancellation-request", "", `{"reason":"Ordered the wrong size"}`)
}

func approve(t *testing.T, c *sdk.Client, order, key string) *sdk.Response {
	t.Helper()
	return send(t, c, http.MethodPost, "/open/v1/orders/"+order+"/cancellation-request/approve", key, "")
}

func reject(t *testing.T, c *sdk.Client, order, key string) *sdk.Response {
	t.Helper()
	return send(t, c, http.MethodPost, "/open/v1/orders/"+order+"/cancellation-request/reject", key, `{"reason":"Already packed"}`)
}

func order(t *testing.T, c *sdk.Client, id string) wireOrder {
	t.Helper()
	return data[wireOrder](t, send(t, c, http.MethodGet, "/open/v1/orders/"+id, "", ""), http.StatusOK)
}

// eventTypes counts the events recorded of each type for resource ids.
func eventTypes(t *testing.T, env *testenv.Env, resource string) map[string]int {
	t.Helper()
	rows, err := env.DB.Ent.Event.Query().Where(event.ResourceID(resource)).All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, e := range rows {
		out[e.Type]++
		if bytes.Contains(e.Data, []byte("buyerEmail")) {
			t.Errorf("%s %s carries the buyer's email: %s", e.Type, resource, e.Data)
		}
	}
	return out
}

func TestCancellationRequestRoutes(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) { testRoutes(t, pg) })
	}
}

func testRoutes(t *testing.T, pg bool) {
	env := testenv.Start(t, testenv.Options{Postgres: pg, BusinessClock: true, Unlimited: true})
	start := time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC)
	env.Business.Set(start)
	c := env.Client(t, "full", 0)
	other := env.Client(t, "full", 1)

	approved, rejected, shipped, lapsed, none := testOrder(t, c), testOrder(t, c), testOrder(t, c), testOrder(t, c), testOrder(t, c)
	// The approved order is booked: the approval voids its booking.
	if resp := send(t, c, http.MethodPost, "/open/v1/orders/"+approved+"/shipment", "k-book",
		`{"method":"DROPOFF","channelId":"JNT_STANDARD"}`); resp.Status != http.StatusCreated {
		t.Fatalf("booking: %d %s", resp.Status, resp.Body)
	}

	// The buyer asks: PENDING, 48 hours less a millisecond to answer.
	r := data[wireRequest](t, ask(c, t, approved), http.StatusCreated)
	if r.Status != "PENDING" || r.OrderID != approved || r.Reason != "Ordered the wrong size" || r.DecidedAt != nil {
		t.Fatalf("request %+v", r)
	}
	requested, _ := time.Parse(time.RFC3339Nano, r.RequestedAt)
	respondBy, _ := time.Parse(time.RFC3339Nano, r.RespondBy)
	if !requested.Equal(start) || !respondBy.Equal(start.Add(48*time.Hour-time.Millisecond)) {
		t.Errorf("requested %s, respond by %s", r.RequestedAt, r.RespondBy)
	}
	wantError(t, "a second pending request", ask(c, t, approved), http.StatusConflict, "CONFLICT")
	wantError(t, "another seller's order", ask(other, t, approved), http.StatusNotFound, "NOT_FOUND")
	if o := order(t, c, approved); o.CancellationRequest == nil || o.CancellationRequest.Status != "PENDING" ||
		o.CancellationRequest.RespondBy != r.RespondBy || o.CancellationRequest.RequestedAt != r.RequestedAt {
		t.Errorf("the order carries %+v", o.CancellationRequest)
	}
	if o := order(t, c, none); o.CancellationRequest != nil {
		t.Errorf("an order never asked about carries %+v", o.CancellationRequest)
	}
	asked := map[string]string{}
	for _, id := range []string{rejected, shipped, lapsed} {
		asked[id] = data[wireRequest](t, ask(c, t, id), http.StatusCreated).ID
	}

	// No request, or another seller's: 404.
	wantError(t, "approving without a request", approve(t, c, none, ""), http.StatusNotFound, "NOT_FOUND")
	wantError(t, "another seller approving", approve(t, other, approved, ""), http.StatusNotFound, "NOT_FOUND")
	wantError(t, "rejecting without a reason", send(t, c, http.MethodPost, "/open/v1/orders/"+rejected+"/cancellation-request/reject", "", `{}`),
		http.StatusBadRequest, "VALIDATION_ERROR")

	// Approve: the order is cancelled, its booking voided; the same key
	// replays the answer; a second answer is refused.
	env.Business.Advance(time.Hour)
	first := approve(t, c, approved, "k-approve")
	a := data[wireRequest](t, first, http.StatusOK)
	if a.Status != "APPROVED" || a.DecidedAt == nil {
		t.Errorf("approved %+v", a)
	}
	if replay := approve(t, c, approved, "k-approve"); replay.Status != http.StatusOK || !bytes.Equal(replay.Body, first.Body) {
		t.Errorf("replay: %d %s", replay.Status, replay.Body)
	}
	if o := order(t, c, approved); o.Status != "CANCELLED" || o.CancellationRequest == nil || o.CancellationRequest.Status != "APPROVED" {
		t.Errorf("approved order %+v", o)
	}
	wantError(t, "approving twice", approve(t, c, approved, ""), http.StatusUnprocessableEntity, "CANCELLATION_ALREADY_PROCESSED")
	wantError(t, "rejecting an approved request", reject(t, c, approved, ""), http.StatusUnprocessableEntity, "CANCELLATION_ALREADY_PROCESSED")
	if ev := eventTypes(t, env, approved); ev["order.cancelled"] != 1 {
		t.Errorf("the approved order's events %v", ev)
	}
	if n := eventCount(t, env, "shipment.cancelled"); n != 1 {
		t.Errorf("%d shipment.cancelled events; want the approved order's booking voided once", n)
	}
	if ev := eventTypes(t, env, a.ID); ev["cancellation.requested"] != 1 || ev["cancellation.approved"] != 1 || len(ev) != 2 {
		t.Errorf("the approved request's events %v", ev)
	}

	// Reject: the order goes on.
	rj := data[wireRequest](t, reject(t, c, rejected, "k-reject"), http.StatusOK)
	if rj.Status != "REJECTED" || rj.RejectReason == nil || *rj.RejectReason != "Already packed" {
		t.Errorf("rejected %+v", rj)
	}
	if o := order(t, c, rejected); o.Status != "READY_TO_SHIP" || o.CancellationRequest.Status != "REJECTED" {
		t.Errorf("rejected order %+v", o)
	}
	wantError(t, "approving a rejected request", approve(t, c, rejected, ""), http.StatusUnprocessableEntity, "CANCELLATION_ALREADY_PROCESSED")
	// After a rejection the buyer may ask again.
	again := data[wireRequest](t, ask(c, t, rejected), http.StatusCreated)
	if o := order(t, c, rejected); o.CancellationRequest.Status != "PENDING" {
		t.Errorf("asked again: the order carries %+v", o.CancellationRequest)
	}

	// The order shipped meanwhile: approving is refused, the request stays.
	data[wireOrder](t, send(t, c, http.MethodPost, "/open/v1/sandbox/orders/"+shipped+"/transition", "", `{"to":"SHIPPED"}`), http.StatusOK)
	wantError(t, "approving for a shipped order", approve(t, c, shipped, ""), http.StatusUnprocessableEntity, "ORDER_NOT_CANCELLABLE")
	if o := order(t, c, shipped); o.Status != "SHIPPED" || o.CancellationRequest.Status != "PENDING" {
		t.Errorf("shipped order %+v", o)
	}
	wantError(t, "asking about a shipped order", ask(c, t, shipped), http.StatusUnprocessableEntity, "ORDER_NOT_CANCELLABLE")

	// At the deadline the seller may still answer; a millisecond later the
	// request is the platform's: approved automatically, the order
	// cancelled, and answering is too late.
	env.Business.Set(respondBy.Add(time.Millisecond))
	wantError(t, "approving after the window", approve(t, c, lapsed, ""), http.StatusUnprocessableEntity, "CANCELLATION_DEADLINE_EXCEEDED")
	wantError(t, "rejecting after the window", reject(t, c, lapsed, ""), http.StatusUnprocessableEntity, "CANCELLATION_DEADLINE_EXCEEDED")
	if o := order(t, c, lapsed); o.Status != "CANCELLED" || o.CancellationRequest.Status != "AUTO_APPROVED" {
		t.Errorf("lapsed order %+v", o)
	}
	// The shipped order's request could not cancel it: closed as rejected.
	if o := order(t, c, shipped); o.Status != "SHIPPED" || o.CancellationRequest.Status != "REJECTED" {
		t.Errorf("shipped order after the deadline %+v %+v", o, o.CancellationRequest)
	}
	if ev := eventTypes(t, env, asked[shipped]); ev["cancellation.rejected"] != 1 || ev["cancellation.auto_approved"] != 0 {
		t.Errorf("the shipped order's request events %v", ev)
	}
	if ev := eventTypes(t, env, asked[lapsed]); ev["cancellation.auto_approved"] != 1 || len(ev) != 2 {
		t.Errorf("the lapsed request's events %v", ev)
	}

	// The order listing carries each order's latest request too.
	carried := map[string]string{}
	listed, err := c.DoSigned(context.Background(), sdk.Request{Method: http.MethodGet, Path: "/open/v1/orders", RawQuery: "status=CANCELLED&limit=100"})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range data[[]wireOrder](t, listed, http.StatusOK) {
		if o.CancellationRequest != nil {
			carried[o.ID] = o.CancellationRequest.Status
		}
	}
	if carried[approved] != "APPROVED" || carried[lapsed] != "AUTO_APPROVED" || len(carried) != 2 {
		t.Errorf("the cancelled orders listed carry %v", carried)
	}

	// The listing, settled, by status and on the keyset.
	list := func(query string) ([]wireRequest, string) {
		var env struct {
			Data []wireRequest `json:"data"`
			Meta struct {
				Total      int64   `json:"total"`
				NextCursor *string `json:"next_cursor"`
			} `json:"meta"`
		}
		resp := send(t, c, http.MethodGet, "/open/v1/cancellation-requests", "", "")
		if query != "" {
			resp, _ = c.DoSigned(context.Background(), sdk.Request{Method: http.MethodGet, Path: "/open/v1/cancellation-requests", RawQuery: query})
		}
		if resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &env) != nil {
			t.Fatalf("%s: %d %s", query, resp.Status, resp.Body)
		}
		next := ""
		if env.Meta.NextCursor != nil {
			next = *env.Meta.NextCursor
		}
		return env.Data, next
	}
	if auto, _ := list("status=AUTO_APPROVED"); len(auto) != 1 || auto[0].OrderID != lapsed {
		t.Errorf("auto-approved: %+v", auto)
	}
	var seen []string
	for q := "limit=2"; ; {
		page, next := list(q)
		for _, r := range page {
			seen = append(seen, r.ID)
		}
		if next == "" {
			break
		}
		q = "limit=2&cursor=" + next
	}
	if len(seen) != 5 || seen[0] != again.ID {
		t.Errorf("listing %v, want 5 newest first", seen)
	}
	if theirs, _ := func() ([]wireRequest, string) {
		resp := send(t, other, http.MethodGet, "/open/v1/cancellation-requests", "", "")
		var env struct {
			Data []wireRequest `json:"data"`
		}
		_ = json.Unmarshal(resp.Body, &env)
		return env.Data, ""
	}(); len(theirs) != 0 {
		t.Errorf("another seller lists %v", theirs)
	}
}

// eventCount counts the events of type typ recorded.
func eventCount(t *testing.T, env *testenv.Env, typ string) int {
	t.Helper()
	n, err := env.DB.Ent.Event.Query().Where(event.Type(typ)).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}
