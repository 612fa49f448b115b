package cancellation_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/testenv"
)

// A move towards the buyer on an order whose buyer's request is past its
// deadline settles the request first, as a read of the order would: the
// automatic approval cancels the order, and the booking or the sandbox move
// is refused as on any cancelled order, instead of moving an order every
// read already shows cancelled.
func TestMovesSettleAnOverdueRequestFirst(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) {
			env := testenv.Start(t, testenv.Options{Postgres: pg, BusinessClock: true, Unlimited: true})
			env.Business.Set(time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC))
			c := env.Client(t, "full", 0)
			booked, shipped, answered := testOrder(t, c), testOrder(t, c), testOrder(t, c)
			requests := map[string]string{}
			for _, id := range []string{booked, shipped, answered} {
				requests[id] = data[wireRequest](t, ask(c, t, id), http.StatusCreated).ID
			}
			data[wireRequest](t, reject(t, c, answered, ""), http.StatusOK)
			env.Business.Advance(48 * time.Hour)

			wantError(t, "booking an order whose request lapsed",
				send(t, c, http.MethodPost, "/open/v1/orders/"+booked+"/shipment", "k-book", `{"method":"DROPOFF","channelId":"JNT_STANDARD"}`),
				http.StatusUnprocessableEntity, "INVALID_TRANSITION")
			wantError(t, "shipping an order whose request lapsed",
				send(t, c, http.MethodPost, "/open/v1/sandbox/orders/"+shipped+"/transition", "", `{"to":"SHIPPED"}`),
				http.StatusUnprocessableEntity, "INVALID_TRANSITION")
			for _, id := range []string{booked, shipped} {
				if o := order(t, c, id); o.Status != "CANCELLED" || o.CancellationRequest == nil || o.CancellationRequest.Status != "AUTO_APPROVED" {
					t.Errorf("order %s after the refused move: %+v %+v", id, o, o.CancellationRequest)
				}
				if ev := eventTypes(t, env, requests[id]); ev["cancellation.auto_approved"] != 1 {
					t.Errorf("order %s: request events %v, want one cancellation.auto_approved", id, ev)
				}
				if ev := eventTypes(t, env, id); ev["order.cancelled"] != 1 || ev["order.shipped"] != 0 {
					t.Errorf("order %s: events %v, want one order.cancelled and no order.shipped", id, ev)
				}
			}
			if n := eventCount(t, env, "shipment.booked"); n != 0 {
				t.Errorf("%d shipment.booked events, want none: the carrier is not asked for a cancelled order", n)
			}

			// A request the seller answered moves nothing: the order ships.
			if o := data[wireOrder](t, send(t, c, http.MethodPost, "/open/v1/sandbox/orders/"+answered+"/transition", "", `{"to":"SHIPPED"}`),
				http.StatusOK); o.Status != "SHIPPED" || o.CancellationRequest == nil || o.CancellationRequest.Status != "REJECTED" {
				t.Errorf("the answered order after shipping: %+v %+v", o, o.CancellationRequest)
			}
		})
	}
}
