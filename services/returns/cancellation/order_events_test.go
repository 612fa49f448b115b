package cancellation_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/ent/event"
	"github.com/mallplatform/partnerapi/internal/testenv"
)

// TestOrderEventsCarryTheRequest: the order inside an order.* event
// carries cancellationRequest as GET /open/v1/orders/{id} answers it when
// the event is recorded (decisions.md, "The order's field" and the events'
// shape: the same renderer and view as the resource's GET): pending when
// the order ships, approved when the seller's approval cancels it,
// auto-approved when the deadline does, pending when the seller cancels
// it in bulk; absent before the buyer asked.
func TestOrderEventsCarryTheRequest(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) { testOrderEventsCarryTheRequest(t, pg) })
	}
}

func testOrderEventsCarryTheRequest(t *testing.T, pg bool) {
	env := testenv.Start(t, testenv.Options{Postgres: pg, BusinessClock: true, Unlimited: true})
	start := time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC)
	env.Business.Set(start)
	c := env.Client(t, "full", 0)
	shipped, approved, lapsed, bulk, plain := testOrder(t, c), testOrder(t, c), testOrder(t, c), testOrder(t, c), testOrder(t, c)
	var respondBy time.Time
	for _, id := range []string{shipped, approved, lapsed, bulk} {
		r := data[wireRequest](t, ask(c, t, id), http.StatusCreated)
		respondBy, _ = time.Parse(time.RFC3339Nano, r.RespondBy)
	}

	// requestOf is the cancellationRequest of an order's JSON, nil when
	// absent.
	requestOf := func(what string, order []byte) map[string]any {
		t.Helper()
		var o struct {
			CancellationRequest map[string]any `json:"cancellationRequest"`
		}
		if err := json.Unmarshal(order, &o); err != nil {
			t.Fatalf("%s: %v: %s", what, err, order)
		}
		return o.CancellationRequest
	}
	// got answers GET's cancellationRequest of the order.
	got := func(id string) map[string]any {
		t.Helper()
		body := data[json.RawMessage](t, send(t, c, http.MethodGet, "/open/v1/orders/"+id, "", ""), http.StatusOK)
		return requestOf("GET "+id, body)
	}
	// recorded is the cancellationRequest of the order's one event of type.
	recorded := func(id, typ string) map[string]any {
		t.Helper()
		ev, err := env.DB.Ent.Event.Query().Where(event.ResourceID(id), event.Type(typ)).Only(context.Background())
		if err != nil {
			t.Fatalf("%s of %s: %v", typ, id, err)
		}
		return requestOf(typ, ev.Data)
	}
	same := func(what string, event, read map[string]any, status string) {
		t.Helper()
		if read == nil || read["status"] != status {
			t.Fatalf("%s: GET answers cancellationRequest %v, want %s", what, read, status)
		}
		if !reflect.DeepEqual(event, read) {
			t.Errorf("%s: the event carries cancellationRequest %v, GET answers %v", what, event, read)
		}
	}

	if r := recorded(approved, "order.created"); r != nil {
		t.Errorf("order.created, before the buyer asked, carries %v", r)
	}

	moved := data[json.RawMessage](t, send(t, c, http.MethodPost, "/open/v1/sandbox/orders/"+shipped+"/transition", "", `{"to":"SHIPPED"}`), http.StatusOK)
	same("order.shipped", recorded(shipped, "order.shipped"), got(shipped), "PENDING")
	same("the transition's answer", requestOf("the transition's answer", moved), got(shipped), "PENDING")

	env.Business.Advance(time.Hour)
	data[wireRequest](t, approve(t, c, approved, ""), http.StatusOK)
	same("order.cancelled by the approval", recorded(approved, "order.cancelled"), got(approved), "APPROVED")

	// The seller's own bulk cancellation: one read of the cancelled
	// orders' requests, the order never asked about carries none.
	if resp := send(t, c, http.MethodPost, "/open/v1/orders/bulk-cancel", "k-bulk",
		fmt.Sprintf(`{"orders":[{"orderId":%q},{"orderId":%q}]}`, bulk, plain)); resp.Status != http.StatusOK {
		t.Fatalf("bulk cancel: %d %s", resp.Status, resp.Body)
	}
	same("order.cancelled in bulk", recorded(bulk, "order.cancelled"), got(bulk), "PENDING")
	if r := recorded(plain, "order.cancelled"); r != nil || got(plain) != nil {
		t.Errorf("an order never asked about, cancelled in bulk: the event carries %v", r)
	}

	// The read past the deadline settles the request: the automatic
	// approval cancels the order.
	env.Business.Set(respondBy.Add(time.Millisecond))
	read := got(lapsed)
	same("order.cancelled by the deadline", recorded(lapsed, "order.cancelled"), read, "AUTO_APPROVED")
}
