package orders_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/event"
	"github.com/mallplatform/partnerapi/ent/order"
	"github.com/mallplatform/partnerapi/ent/productvariant"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

// backends runs a test on both storage engines, through the gateway and core
// as deployed.
func backends(t *testing.T, fn func(t *testing.T, env *testenv.Env)) {
	for _, b := range []struct {
		name string
		pg   bool
	}{{"sqlite", false}, {"postgres", true}} {
		t.Run(b.name, func(t *testing.T) {
			fn(t, testenv.Start(t, testenv.Options{Postgres: b.pg}))
		})
	}
}

func call(t testing.TB, c *sdk.Client, method, path, key string, body string) *sdk.Response {
	t.Helper()
	req := sdk.Request{Method: method, Path: path}
	if body != "" {
		req.Body = []byte(body)
	}
	if key != "" {
		req.ExtraHeaders = http.Header{"Idempotency-Key": {key}}
	}
	r, err := c.DoSigned(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func errCode(r *sdk.Response) string {
	var e sdk.Envelope
	if json.Unmarshal(r.Body, &e) != nil || e.Error == nil {
		return ""
	}
	return e.Error.Code
}

// sellerOrders returns seller idx's seeded orders in the given stored states.
func sellerOrders(t testing.TB, env *testenv.Env, idx int, states ...order.Status) []*ent.Order {
	t.Helper()
	rows, err := env.DB.Ent.Order.Query().
		Where(order.SellerID(env.Creds.Sellers[idx].SellerID), order.StatusIn(states...)).
		WithItems().Order(ent.Asc(order.FieldID)).All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("seller %d has no order in %v", idx, states)
	}
	return rows
}

// stock is the stock of every variant the order's items point at.
func stock(t testing.TB, env *testenv.Env, o *ent.Order) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, it := range o.Edges.Items {
		if it.VariantID == nil {
			continue
		}
		v, err := env.DB.Ent.ProductVariant.Query().Where(productvariant.ID(*it.VariantID)).Only(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if v.StockQuantity != nil {
			out[v.ID] = *v.StockQuantity
		}
	}
	return out
}

// restocked checks that each variant of o gained o's quantities times n.
func restocked(t testing.TB, o *ent.Order, before, after map[string]int64, n int64) {
	t.Helper()
	want := map[string]int64{}
	for k, v := range before {
		want[k] = v
	}
	for _, it := range o.Edges.Items {
		if it.VariantID != nil {
			if _, known := want[*it.VariantID]; known {
				want[*it.VariantID] += n * int64(it.Quantity)
			}
		}
	}
	if len(want) == 0 {
		t.Fatalf("order %s has no variant with a known stock", o.ID)
	}
	for k, v := range want {
		if after[k] != v {
			t.Errorf("variant %s: stock %d, want %d", k, after[k], v)
		}
	}
}

func eventsOf(t testing.TB, env *testenv.Env, resourceID string) []*ent.Event {
	t.Helper()
	rows, err := env.DB.Ent.Event.Query().Where(event.ResourceID(resourceID)).Order(ent.Asc(event.FieldID)).All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestCancelOrder(t *testing.T) {
	backends(t, func(t *testing.T, env *testenv.Env) {
		full := env.Client(t, "full", 0)
		pending := sellerOrders(t, env, 0, order.StatusPending, order.StatusPaid, order.StatusReadyToShip)
		o := pending[0]
		before := stock(t, env, o)

		r := call(t, full, "POST", "/open/v1/orders/"+o.ID+"/cancel", "", "")
		if r.Status != http.StatusOK {
			t.Fatalf("cancel: %d %s", r.Status, r.Body)
		}
		var got struct {
			Data struct {
				ID     string `json:"id"`
				Status string `json:"status"`
			} `json:"data"`
		}
		if err := json.Unmarshal(r.Body, &got); err != nil || got.Data.ID != o.ID || got.Data.Status != "CANCELLED" {
			t.Fatalf("cancel answer: %s", r.Body)
		}
		restocked(t, o, before, stock(t, env, o), 1)

		// The event committed with the change: the order as GET renders it,
		// without buyerEmail, sequence 1.
		evs := eventsOf(t, env, o.ID)
		if len(evs) != 1 || evs[0].Type != "order.cancelled" || evs[0].Sequence != 1 || evs[0].SellerID != o.SellerID {
			t.Fatalf("events of %s: %+v", o.ID, evs)
		}
		if strings.Contains(string(evs[0].Data), "buyerEmail") || !strings.Contains(string(evs[0].Data), `"status":"CANCELLED"`) {
			t.Errorf("event data: %s", evs[0].Data)
		}

		// Once cancelled, it stays so; nothing is restocked twice.
		again := call(t, full, "POST", "/open/v1/orders/"+o.ID+"/cancel", "", "")
		if again.Status != http.StatusUnprocessableEntity || errCode(again) != "ORDER_NOT_CANCELLABLE" {
			t.Errorf("second cancel: %d %s", again.Status, again.Body)
		}
		restocked(t, o, before, stock(t, env, o), 1)
		if n := len(eventsOf(t, env, o.ID)); n != 1 {
			t.Errorf("%d events after a refused cancel, want 1", n)
		}

		shipped := sellerOrders(t, env, 0, order.StatusShipped, order.StatusDelivered, order.StatusReturnRefund)[0]
		if r := call(t, full, "POST", "/open/v1/orders/"+shipped.ID+"/cancel", "", ""); r.Status != 422 || errCode(r) != "ORDER_NOT_CANCELLABLE" {
			t.Errorf("cancel of a %s order: %d %s", shipped.Status, r.Status, r.Body)
		}

		// The guard: pre-shipment values are one state; another is a
		// concurrent change.
		next := pending[1]
		if r := call(t, full, "POST", "/open/v1/orders/"+next.ID+"/cancel", "", `{"expectedStatus":"SHIPPED"}`); r.Status != 409 || errCode(r) != "CONCURRENT_MODIFICATION" {
			t.Errorf("guard SHIPPED on a pre-shipment order: %d %s", r.Status, r.Body)
		}
		if r := call(t, full, "POST", "/open/v1/orders/"+next.ID+"/cancel", "", `{"expectedStatus":"PENDING"}`); r.Status != 200 {
			t.Errorf("guard PENDING on a %s order: %d %s", next.Status, r.Status, r.Body)
		}

		// Another seller's order and a missing one are the same 404.
		other := sellerOrders(t, env, 1, order.StatusPending, order.StatusPaid, order.StatusReadyToShip)[0]
		for _, id := range []string{other.ID, "ord_doesnotexist"} {
			if r := call(t, full, "POST", "/open/v1/orders/"+id+"/cancel", "", ""); r.Status != 404 || errCode(r) != "NOT_FOUND" {
				t.Errorf("cancel %s: %d %s", id, r.Status, r.Body)
			}
		}
		if st, err := env.DB.Ent.Order.Get(context.Background(), other.ID); err != nil || st.Status != other.Status {
			t.Errorf("another seller's order: %v, %v; want it still %s", st, err, other.Status)
		}
		// The body is strict and the scope is orders:write.
		if r := call(t, full, "POST", "/open/v1/orders/"+pending[2].ID+"/cancel", "", `{"reason":"x"}`); r.Status != 400 {
			t.Errorf("unknown body field: %d %s", r.Status, r.Body)
		}
		limited := env.Client(t, "limited", 0)
		if r := call(t, limited, "POST", "/open/v1/orders/"+pending[2].ID+"/cancel", "", ""); r.Status != 403 {
			t.Errorf("cancel without orders:write: %d %s", r.Status, r.Body)
		}
	})
}

func TestBulkCancel(t *testing.T) {
	backends(t, func(t *testing.T, env *testenv.Env) {
		full := env.Client(t, "full", 0)
		pending := sellerOrders(t, env, 0, order.StatusPending, order.StatusPaid, order.StatusReadyToShip)
		shipped := sellerOrders(t, env, 0, order.StatusShipped)[0]
		other := sellerOrders(t, env, 1, order.StatusReadyToShip, order.StatusPaid, order.StatusPending)[0]
		body := fmt.Sprintf(`{"orders":[{"orderId":%q},{"orderId":%q,"expectedStatus":"READY_TO_SHIP"},{"orderId":%q},`+
			`{"orderId":%q},{"orderId":%q},{"orderId":"ord_missing"},{"orderId":%q,"expectedStatus":"DELIVERED"}]}`,
			pending[0].ID, pending[1].ID, pending[0].ID, shipped.ID, other.ID, pending[2].ID)
		r := call(t, full, "POST", "/open/v1/orders/bulk-cancel", "bulk-1", body)
		if r.Status != http.StatusOK {
			t.Fatalf("bulk cancel: %d %s", r.Status, r.Body)
		}
		var got struct {
			Data struct {
				Cancelled []struct{ OrderID, Status string } `json:"cancelled"`
				Errors    []struct {
					OrderID string `json:"orderId"`
					Error   string `json:"error"`
					Code    string `json:"code"`
				} `json:"errors"`
				Summary struct{ Total, Succeeded, Failed int } `json:"summary"`
			} `json:"data"`
		}
		if err := json.Unmarshal(r.Body, &got); err != nil {
			t.Fatal(err)
		}
		d := got.Data
		if len(d.Cancelled) != 2 || d.Cancelled[0].OrderID != pending[0].ID || d.Cancelled[1].OrderID != pending[1].ID ||
			d.Cancelled[0].Status != "cancelled" {
			t.Errorf("cancelled: %+v", d.Cancelled)
		}
		wantErrs := []struct{ id, code string }{
			{pending[0].ID, "VALIDATION_ERROR"}, {shipped.ID, "ORDER_NOT_CANCELLABLE"}, {other.ID, "NOT_FOUND"},
			{"ord_missing", "NOT_FOUND"}, {pending[2].ID, "CONCURRENT_MODIFICATION"},
		}
		if len(d.Errors) != len(wantErrs) {
			t.Fatalf("errors: %+v", d.Errors)
		}
		for i, w := range wantErrs {
			if d.Errors[i].OrderID != w.id || d.Errors[i].Code != w.code || d.Errors[i].Error == "" {
				t.Errorf("error %d: %+v, want %s %s", i, d.Errors[i], w.id, w.code)
			}
		}
		if d.Summary.Total != 7 || d.Summary.Succeeded != 2 || d.Summary.Failed != 5 {
			t.Errorf("summary: %+v", d.Summary)
		}
		// The same key replays the answer; the work ran once.
		again := call(t, full, "POST", "/open/v1/orders/bulk-cancel", "bulk-1", body)
		if again.Status != 200 || string(again.Body) != string(r.Body) || again.Header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("replay: %d %s", again.Status, again.Body)
		}
		if n := len(eventsOf(t, env, pending[0].ID)); n != 1 {
			t.Errorf("%d events for %s, want 1", n, pending[0].ID)
		}
		// Limits: 1 to 1,000 orders.
		var many strings.Builder
		many.WriteString(`{"orders":[`)
		for i := 0; i < 1001; i++ {
			if i > 0 {
				many.WriteByte(',')
			}
			fmt.Fprintf(&many, `{"orderId":"ord_%d"}`, i)
		}
		many.WriteString(`]}`)
		if r := call(t, full, "POST", "/open/v1/orders/bulk-cancel", "bulk-big", many.String()); r.Status != 400 || errCode(r) != "VALIDATION_ERROR" {
			t.Errorf("1,001 orders: %d %.200s", r.Status, r.Body)
		}
	})
}

// Racing cancellations on PostgreSQL: one key sent 100 times runs once; two
// keys on one order cancel it once and restock it once.
func TestBulkCancelRaces(t *testing.T) {
	env := testenv.Start(t, testenv.Options{Postgres: true})
	full := env.Client(t, "full", 0)
	pending := sellerOrders(t, env, 0, order.StatusPending, order.StatusPaid, order.StatusReadyToShip)

	o := pending[0]
	before := stock(t, env, o)
	body := fmt.Sprintf(`{"orders":[{"orderId":%q}]}`, o.ID)
	const n = 100
	answers := make([]*sdk.Response, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = call(t, full, "POST", "/open/v1/orders/bulk-cancel", "race-one-key", body)
		}()
	}
	wg.Wait()
	var first string
	for _, a := range answers {
		switch {
		case a.Status == 409 && errCode(a) == "IDEMPOTENCY_KEY_IN_PROGRESS":
		case a.Status == 200:
			if first == "" {
				first = string(a.Body)
			} else if string(a.Body) != first {
				t.Errorf("two different answers for one key:\n%s\n%s", first, a.Body)
			}
		default:
			t.Errorf("answer %d %s", a.Status, a.Body)
		}
	}
	if !strings.Contains(first, `"succeeded":1`) {
		t.Errorf("the one execution: %s", first)
	}
	restocked(t, o, before, stock(t, env, o), 1)
	if evs := eventsOf(t, env, o.ID); len(evs) != 1 {
		t.Errorf("%d events, want 1", len(evs))
	}

	o2 := pending[1]
	before2 := stock(t, env, o2)
	body2 := fmt.Sprintf(`{"orders":[{"orderId":%q}]}`, o2.ID)
	results := make([]*sdk.Response, 2)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = call(t, full, "POST", "/open/v1/orders/bulk-cancel", fmt.Sprintf("race-key-%d", i), body2)
		}()
	}
	wg.Wait()
	wins := 0
	for _, r := range results {
		if r.Status != 200 {
			t.Fatalf("bulk cancel: %d %s", r.Status, r.Body)
		}
		switch {
		case strings.Contains(string(r.Body), `"succeeded":1`):
			wins++
		case strings.Contains(string(r.Body), "ORDER_NOT_CANCELLABLE"), strings.Contains(string(r.Body), "CONCURRENT_MODIFICATION"):
		default:
			t.Errorf("unexpected answer: %s", r.Body)
		}
	}
	if wins != 1 {
		t.Errorf("%d cancellations won, want exactly 1", wins)
	}
	restocked(t, o2, before2, stock(t, env, o2), 1)
}
