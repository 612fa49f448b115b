package sandbox_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/event"
	"github.com/mallplatform/partnerapi/ent/product"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

type orderView struct {
	ID            string  `json:"id"`
	Status        string  `json:"status"`
	SellerID      string  `json:"sellerId"`
	ShipByDate    *string `json:"shipByDate"`
	SLABreached   *bool   `json:"slaBreached"`
	BookingStatus *string `json:"bookingStatus"`
	Items         []struct {
		ProductID string `json:"productId"`
		VariantID string `json:"variantId"`
		Quantity  int64  `json:"quantity"`
	} `json:"items"`
	Fulfillments []struct {
		Status         string `json:"status"`
		TrackingNumber string `json:"trackingNumber"`
	} `json:"fulfillments"`
}

func call(t testing.TB, c *sdk.Client, method, path, body string) *sdk.Response {
	t.Helper()
	req := sdk.Request{Method: method, Path: path}
	if body != "" {
		req.Body = []byte(body)
	}
	r, err := c.DoSigned(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func decode[T any](t testing.TB, r *sdk.Response, want int) T {
	t.Helper()
	if r.Status != want {
		t.Fatalf("status %d, want %d: %s", r.Status, want, r.Body)
	}
	var env struct {
		Data T `json:"data"`
	}
	if err := json.Unmarshal(r.Body, &env); err != nil {
		t.Fatal(err)
	}
	return env.Data
}

func code(r *sdk.Response) string {
	var e sdk.Envelope
	if json.Unmarshal(r.Body, &e) != nil || e.Error == nil {
		return ""
	}
	return e.Error.Code
}

func eventTypes(t testing.TB, env *testenv.Env, id string) []string {
	t.Helper()
	rows, err := env.DB.Ent.Event.Query().Where(event.ResourceID(id)).Order(ent.Asc(event.FieldSequence)).All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, r := range rows {
		if r.Sequence != int64(i+1) {
			t.Errorf("event %s of %s has sequence %d, want %d", r.Type, id, r.Sequence, i+1)
		}
		out = append(out, r.Type)
	}
	return out
}

func TestTestOrderLifecycle(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) {
			env := testenv.Start(t, testenv.Options{Postgres: pg})
			full := env.Client(t, "full", 0)

			// Without a body: READY_TO_SHIP, one item of the seller's catalog,
			// and the events of every state it was created past.
			o := decode[orderView](t, call(t, full, "POST", "/open/v1/sandbox/orders", ""), http.StatusCreated)
			if o.Status != "READY_TO_SHIP" || o.SellerID != env.Creds.Sellers[0].SellerID || len(o.Items) != 1 || o.ShipByDate == nil {
				t.Fatalf("default test order: %+v", o)
			}
			if got := strings.Join(eventTypes(t, env, o.ID), ","); got != "order.created,order.paid,order.ready_to_ship" {
				t.Errorf("events of a created order: %s", got)
			}

			// With items of the seller's own catalog, PENDING, no deadline.
			p, err := env.DB.Ent.Product.Query().Where(product.SellerID(env.Creds.Sellers[0].SellerID)).WithVariants().First(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			body := fmt.Sprintf(`{"items":[{"productId":%q,"quantity":3}],"status":"PENDING"}`, p.ID)
			pend := decode[orderView](t, call(t, full, "POST", "/open/v1/sandbox/orders", body), http.StatusCreated)
			if pend.Status != "READY_TO_SHIP" || len(pend.Items) != 1 || pend.Items[0].ProductID != p.ID || pend.Items[0].Quantity != 3 {
				t.Fatalf("PENDING test order (reads READY_TO_SHIP): %+v", pend)
			}
			other := env.Creds.Sellers[1]
			otherProduct, err := env.DB.Ent.Product.Query().Where(product.SellerID(other.SellerID)).First(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if r := call(t, full, "POST", "/open/v1/sandbox/orders", fmt.Sprintf(`{"items":[{"productId":%q,"quantity":1}]}`, otherProduct.ID)); r.Status != 400 || code(r) != "VALIDATION_ERROR" {
				t.Errorf("another seller's product: %d %s", r.Status, r.Body)
			}
			if r := call(t, full, "POST", "/open/v1/sandbox/orders", `{"status":"SHIPPED"}`); r.Status != 400 {
				t.Errorf("a test order created SHIPPED: %d %s", r.Status, r.Body)
			}

			// Its life, one platform move at a time; illegal moves refused.
			path := "/open/v1/sandbox/orders/" + pend.ID + "/transition"
			move := func(to string) *sdk.Response { return call(t, full, "POST", path, `{"to":"`+to+`"}`) }
			for _, bad := range []string{"DELIVERED", "RETURN_REFUND", "READY_TO_SHIP"} {
				if r := move(bad); r.Status != 422 || code(r) != "INVALID_TRANSITION" {
					t.Errorf("PENDING → %s: %d %s", bad, r.Status, r.Body)
				}
			}
			decode[orderView](t, move("PAID"), 200)
			shipped := decode[orderView](t, move("SHIPPED"), 200)
			if shipped.Status != "SHIPPED" || len(shipped.Fulfillments) != 1 || shipped.Fulfillments[0].Status != "shipped" ||
				shipped.Fulfillments[0].TrackingNumber == "" || shipped.BookingStatus != nil {
				t.Errorf("shipped: %+v", shipped)
			}
			if r := call(t, full, "POST", "/open/v1/orders/"+pend.ID+"/cancel", ""); r.Status != 422 || code(r) != "ORDER_NOT_CANCELLABLE" {
				t.Errorf("cancel after shipping: %d %s", r.Status, r.Body)
			}
			delivered := decode[orderView](t, move("DELIVERED"), 200)
			if delivered.Fulfillments[0].Status != "delivered" {
				t.Errorf("delivered: %+v", delivered)
			}
			decode[orderView](t, move("RETURN_REFUND"), 200)
			if r := move("PAID"); r.Status != 422 || code(r) != "INVALID_TRANSITION" {
				t.Errorf("RETURN_REFUND → PAID: %d %s", r.Status, r.Body)
			}
			want := "order.created,order.paid,order.shipped,order.delivered,order.return_refund"
			if got := strings.Join(eventTypes(t, env, pend.ID), ","); got != want {
				t.Errorf("events: %s, want %s", got, want)
			}

			// Out of CANCELLED nothing moves; another seller's order is 404.
			if r := call(t, full, "POST", "/open/v1/orders/"+o.ID+"/cancel", ""); r.Status != 200 {
				t.Fatalf("cancel: %d %s", r.Status, r.Body)
			}
			if r := call(t, full, "POST", "/open/v1/sandbox/orders/"+o.ID+"/transition", `{"to":"SHIPPED"}`); r.Status != 422 || code(r) != "INVALID_TRANSITION" {
				t.Errorf("CANCELLED → SHIPPED: %d %s", r.Status, r.Body)
			}
			otherOrder := decode[orderView](t, call(t, env.Client(t, "full", 1), "POST", "/open/v1/sandbox/orders", ""), http.StatusCreated)
			if r := call(t, full, "POST", "/open/v1/sandbox/orders/"+otherOrder.ID+"/transition", `{"to":"SHIPPED"}`); r.Status != 404 {
				t.Errorf("another seller's order: %d %s", r.Status, r.Body)
			}
			if r := call(t, full, "POST", path, `{}`); r.Status != 400 {
				t.Errorf("transition without to: %d %s", r.Status, r.Body)
			}
		})
	}
}

// The test shop's clock moves forward per shop; deadlines follow it while
// signing keeps wall time.
func TestSandboxClock(t *testing.T) {
	env := testenv.Start(t, testenv.Options{Postgres: true})
	full := env.Client(t, "full", 0)
	type clk struct {
		Now      time.Time `json:"now"`
		Timezone string    `json:"timezone"`
	}
	before := decode[clk](t, call(t, full, "GET", "/open/v1/sandbox/clock", ""), 200)
	if before.Timezone != "Asia/Manila" {
		t.Errorf("timezone %q", before.Timezone)
	}
	shipBy := before.Now.Add(36 * time.Hour).UTC().Format(time.RFC3339)
	o := decode[orderView](t, call(t, full, "POST", "/open/v1/sandbox/orders", `{"shipByDate":"`+shipBy+`"}`), http.StatusCreated)
	if o.SLABreached == nil || *o.SLABreached {
		t.Fatalf("a fresh order with a deadline in 36 h: %+v", o)
	}

	after := decode[clk](t, call(t, full, "POST", "/open/v1/sandbox/clock", `{"advance_seconds":172800}`), 200)
	if d := after.Now.Sub(before.Now); d < 48*time.Hour || d > 48*time.Hour+time.Minute {
		t.Errorf("moved by %s, want 48h", d)
	}
	got := decode[orderView](t, call(t, full, "GET", "/open/v1/orders/"+o.ID, ""), 200)
	if got.SLABreached == nil || !*got.SLABreached {
		t.Errorf("two days later the order is not breached: %+v", got)
	}
	// Per shop: the other test shop's clock did not move.
	other := decode[clk](t, call(t, env.Client(t, "full", 1), "GET", "/open/v1/sandbox/clock", ""), 200)
	if other.Now.Sub(before.Now) > time.Hour {
		t.Errorf("seller 1's clock moved with seller 0's: %s", other.Now)
	}
	for _, bad := range []string{`{"advance_seconds":0}`, `{"advance_seconds":-5}`, `{"advance_seconds":7776001}`, `{}`} {
		if r := call(t, full, "POST", "/open/v1/sandbox/clock", bad); r.Status != 400 {
			t.Errorf("%s: %d %s", bad, r.Status, r.Body)
		}
	}
	if r := call(t, env.Client(t, "full", -1), "GET", "/open/v1/sandbox/clock", ""); r.Status != 401 || code(r) != "SELLER_TOKEN_REQUIRED" {
		t.Errorf("clock without a seller: %d %s", r.Status, r.Body)
	}
}
