package returns_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/mallplatform/partnerapi/ent/event"
	"github.com/mallplatform/partnerapi/ent/returnrefund"
	returnsv1 "github.com/mallplatform/partnerapi/gen/mp/returns/v1"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/orders"
)

type wireReturn struct {
	ReturnID string `json:"returnId"`
	OrderID  string `json:"orderId"`
	SellerID string `json:"sellerId"`
	Status   string `json:"status"`
	Reason   string `json:"reason"`
	Items    []struct {
		ItemID       string `json:"itemId"`
		Quantity     int64  `json:"quantity"`
		RefundAmount int64  `json:"refundAmount"`
	} `json:"items"`
	RefundAmount         int64             `json:"refundAmount"`
	RefundedAmount       int64             `json:"refundedAmount"`
	Currency             string            `json:"currency"`
	RefundOnly           bool              `json:"refundOnly"`
	ReturnTrackingNumber *string           `json:"returnTrackingNumber"`
	Deadlines            map[string]string `json:"deadlines"`
	NextActions          []struct {
		Action   string  `json:"action"`
		Deadline *string `json:"deadline"`
	} `json:"nextActions"`
	Dispute *struct {
		RaisedBy   string  `json:"raisedBy"`
		ReasonCode *string `json:"reasonCode"`
		Outcome    *string `json:"outcome"`
	} `json:"dispute"`
	Refunds []struct {
		Amount int64 `json:"amount"`
		Full   bool  `json:"full"`
	} `json:"refunds"`
	CreatedAt string `json:"created_at"`
}

func (r wireReturn) actions() string {
	var out []string
	for _, a := range r.NextActions {
		out = append(out, a.Action)
	}
	return strings.Join(out, ",")
}

func call(t *testing.T, c *sdk.Client, method, path, query, key, body string) *sdk.Response {
	t.Helper()
	req := sdk.Request{Method: method, Path: path, RawQuery: query}
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

func returnOf(t *testing.T, resp *sdk.Response, status int) wireReturn {
	t.Helper()
	var env struct {
		Data wireReturn `json:"data"`
	}
	if resp.Status != status || json.Unmarshal(resp.Body, &env) != nil {
		t.Fatalf("answer %d %s, want %d", resp.Status, resp.Body, status)
	}
	return env.Data
}

func wantError(t *testing.T, resp *sdk.Response, status int, code, inMessage string) {
	t.Helper()
	var env struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(resp.Body, &env)
	if resp.Status != status || env.Error.Code != code || !strings.Contains(env.Error.Message, inMessage) {
		t.Errorf("answer %d %s, want %d %s mentioning %q", resp.Status, resp.Body, status, code, inMessage)
	}
}

func deliveredOrder(id, seller string, created time.Time) *orders.Order {
	addr := orders.Address{Name: "Ana Reyes", Line1: "12 Rizal St.", City: "City of Makati",
		Province: "National Capital Region (NCR)", PostalCode: "1200", Country: "PH", Phone: "+639171234567"}
	return &orders.Order{ID: id, SellerID: seller, CustomerID: "cus_" + id, Status: orders.StatusDelivered, Currency: "PHP",
		Subtotal: 130000, Total: 130000, PaymentStatus: "paid", FulfillmentStatus: "delivered",
		ShippingAddress: addr, BillingAddress: addr, CreatedAt: created, UpdatedAt: created,
		Items: []orders.Item{
			{ID: id + "_i1", OrderID: id, ProductID: "prd_1", Title: "Power Bank", SKU: "PB-1", Quantity: 2, UnitPrice: 50000, TotalPrice: 100000},
			{ID: id + "_i2", OrderID: id, ProductID: "prd_2", Title: "Cable", SKU: "CB-1", Quantity: 1, UnitPrice: 30000, TotalPrice: 30000},
		}}
}

func TestReturnRoutes(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) { testReturnRoutes(t, pg) })
	}
}

func testReturnRoutes(t *testing.T, pg bool) {
	env := testenv.Start(t, testenv.Options{Postgres: pg, BusinessClock: true, Unlimited: true})
	ctx := context.Background()
	// Monday 2 March 2026, 10:00 in Manila.
	start := time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC)
	env.Business.Set(start)
	seller, other := env.Creds.Sellers[0].SellerID, env.Creds.Sellers[1].SellerID
	var fixtures []*orders.Order
	for _, id := range []string{"ord_r_full", "ord_r_part", "ord_r_rej", "ord_r_late", "ord_r_only", "ord_r_dsp", "ord_r_flt", "ord_r_esc"} {
		fixtures = append(fixtures, deliveredOrder(id, seller, start.Add(-72*time.Hour)))
	}
	shipped := deliveredOrder("ord_r_shipped", seller, start)
	shipped.Status = orders.StatusShipped
	fixtures = append(fixtures, shipped, deliveredOrder("ord_r_other", other, start))
	if err := orders.NewEntStore(env.DB).CreateOrders(ctx, fixtures); err != nil {
		t.Fatal(err)
	}
	c := env.Client(t, "full", 0)
	file := func(order, body string) wireReturn {
		t.Helper()
		if body == "" {
			body = fmt.Sprintf(`{"orderId":%q,"reason":"does not fit"}`, order)
		}
		return returnOf(t, call(t, c, http.MethodPost, "/open/v1/sandbox/returns", "", "", body), http.StatusCreated)
	}
	move := func(id, to string) *sdk.Response {
		return call(t, c, http.MethodPost, "/open/v1/sandbox/returns/"+id+"/transition", "", "", fmt.Sprintf(`{"to":%q}`, to))
	}
	post := func(id, action, key, body string) *sdk.Response {
		return call(t, c, http.MethodPost, "/open/v1/returns/"+id+"/"+action, "", key, body)
	}
	get := func(id string) wireReturn {
		return returnOf(t, call(t, c, http.MethodGet, "/open/v1/returns/"+id, "", "", ""), http.StatusOK)
	}
	orderStatus := func(id string) string {
		v, err := orders.NewEntStore(env.DB).GetOrder(ctx, seller, id)
		if err != nil {
			t.Fatal(err)
		}
		return string(v.Status)
	}

	// Filing: only a DELIVERED order of the shop's; the lines asked.
	wantError(t, call(t, c, http.MethodPost, "/open/v1/sandbox/returns", "", "", `{"orderId":"ord_r_shipped","reason":"x"}`),
		http.StatusUnprocessableEntity, "INVALID_TRANSITION", "SHIPPED")
	wantError(t, call(t, c, http.MethodPost, "/open/v1/sandbox/returns", "", "", `{"orderId":"ord_r_other","reason":"x"}`),
		http.StatusNotFound, "NOT_FOUND", "")
	full := file("ord_r_full", "")
	if full.Status != "REQUESTED" || full.RefundAmount != 130000 || len(full.Items) != 2 || full.Currency != "PHP" ||
		full.actions() != "approve,reject" || !strings.HasSuffix(full.Deadlines["sellerResponseBy"], "T23:59:59.999+08:00") ||
		full.Deadlines["sellerResponseBy"] != "2026-03-05T23:59:59.999+08:00" || *full.NextActions[0].Deadline != full.Deadlines["sellerResponseBy"] {
		t.Errorf("filed: %+v", full)
	}
	part := file("ord_r_part", `{"orderId":"ord_r_part","reason":"broken","items":[{"itemId":"ord_r_part_i1","quantity":1}]}`)
	if part.RefundAmount != 50000 || len(part.Items) != 1 {
		t.Errorf("one line: %+v", part)
	}

	// The dispute reasons: the spec's strict shape.
	resp := call(t, c, http.MethodGet, "/open/v1/returns/dispute-reasons", "", "", "")
	var reasons struct {
		Data []map[string]any `json:"data"`
	}
	if resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &reasons) != nil || len(reasons.Data) != 6 {
		t.Fatalf("reasons: %d %s", resp.Status, resp.Body)
	}
	for _, r := range reasons.Data {
		var keys []string
		for k := range r {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if fmt.Sprint(keys) != "[code code_id description label]" {
			t.Errorf("reason keys %v", keys)
		}
	}

	// Another seller's return is not found.
	c2 := env.Client(t, "full", 1)
	wantError(t, call(t, c2, http.MethodGet, "/open/v1/returns/"+full.ReturnID, "", "", ""), http.StatusNotFound, "NOT_FOUND", "")
	wantError(t, call(t, c2, http.MethodPost, "/open/v1/returns/"+full.ReturnID+"/approve", "", "", `{}`), http.StatusNotFound, "NOT_FOUND", "")

	// The guard, then the approval; the same key replays it.
	wantError(t, post(full.ReturnID, "approve", "", `{"expectedStatus":"APPROVED"}`), http.StatusConflict, "CONCURRENT_MODIFICATION", "REQUESTED")
	approved := returnOf(t, post(full.ReturnID, "approve", "k-full", `{"expectedStatus":"REQUESTED"}`), http.StatusOK)
	if approved.Status != "APPROVED" || approved.Deadlines["buyerShipBy"] != "2026-03-09T23:59:59.999+08:00" || approved.actions() != "" {
		t.Errorf("approved: %+v", approved)
	}
	if again := returnOf(t, post(full.ReturnID, "approve", "k-full", `{"expectedStatus":"REQUESTED"}`), http.StatusOK); again.Status != "APPROVED" {
		t.Errorf("replay: %+v", again)
	}
	wantError(t, post(full.ReturnID, "approve", "", `{}`), http.StatusUnprocessableEntity, "INVALID_TRANSITION", "APPROVED")
	wantError(t, post(full.ReturnID, "reject", "", `{"reason":"late","note":"n"}`), http.StatusUnprocessableEntity, "INVALID_TRANSITION", "APPROVED")
	wantError(t, move(full.ReturnID, "RECEIVED"), http.StatusUnprocessableEntity, "INVALID_TRANSITION", "APPROVED")
	shippedRet := returnOf(t, move(full.ReturnID, "BUYER_SHIPPED"), http.StatusOK)
	if shippedRet.Status != "BUYER_SHIPPED" || shippedRet.ReturnTrackingNumber == nil || shippedRet.actions() != "dispute" {
		t.Errorf("buyer shipped: %+v", shippedRet)
	}
	received := returnOf(t, move(full.ReturnID, "RECEIVED"), http.StatusOK)
	if received.Status != "RECEIVED" || received.actions() != "approve,dispute" || received.Deadlines["inspectBy"] == "" {
		t.Errorf("received: %+v", received)
	}
	// A received parcel cannot have been not received.
	wantError(t, post(full.ReturnID, "dispute", "", `{"reasonCode":"did_not_receive_return_parcel","description":"d","evidence":["https://cdn.example.ph/1.jpg"]}`),
		http.StatusUnprocessableEntity, "INVALID_TRANSITION", "RECEIVED")
	// A full refund: the ledger, and the order refunded.
	refunded := returnOf(t, post(full.ReturnID, "approve", "", `{}`), http.StatusOK)
	if refunded.Status != "REFUNDED" || refunded.RefundedAmount != 130000 || len(refunded.Refunds) != 1 || !refunded.Refunds[0].Full {
		t.Errorf("refunded: %+v", refunded)
	}
	if st := orderStatus("ord_r_full"); st != string(orders.StatusReturnRefund) {
		t.Errorf("order after a full refund: %s", st)
	}
	wantError(t, post(full.ReturnID, "approve", "", `{}`), http.StatusUnprocessableEntity, "RETURN_ALREADY_PROCESSED", "REFUNDED")

	// A partial refund leaves the order DELIVERED and is listed.
	returnOf(t, post(part.ReturnID, "approve", "", `{}`), http.StatusOK)
	returnOf(t, move(part.ReturnID, "BUYER_SHIPPED"), http.StatusOK)
	returnOf(t, move(part.ReturnID, "RECEIVED"), http.StatusOK)
	wantError(t, post(part.ReturnID, "approve", "", `{"refundAmount":50001}`), http.StatusBadRequest, "VALIDATION_ERROR", "50000")
	partial := returnOf(t, post(part.ReturnID, "approve", "", `{"refundAmount":20000}`), http.StatusOK)
	if partial.Status != "REFUNDED" || partial.RefundedAmount != 20000 || len(partial.Refunds) != 1 || partial.Refunds[0].Full {
		t.Errorf("partial: %+v", partial)
	}
	if st := orderStatus("ord_r_part"); st != string(orders.StatusDelivered) {
		t.Errorf("order after a partial refund: %s", st)
	}

	// Rejection, then the buyer escalates; the platform closes it.
	rej := file("ord_r_rej", "")
	wantError(t, post(rej.ReturnID, "reject", "", `{"reason":"used"}`), http.StatusBadRequest, "VALIDATION_ERROR", "")
	rejected := returnOf(t, post(rej.ReturnID, "reject", "", `{"reason":"used","note":"tags removed"}`), http.StatusOK)
	if rejected.Status != "REJECTED" {
		t.Errorf("rejected: %+v", rejected)
	}
	wantError(t, post(rej.ReturnID, "approve", "", `{}`), http.StatusUnprocessableEntity, "RETURN_ALREADY_PROCESSED", "REJECTED")
	escalated := returnOf(t, move(rej.ReturnID, "DISPUTED"), http.StatusOK)
	if escalated.Status != "DISPUTED" || escalated.Dispute == nil || escalated.Dispute.RaisedBy != "BUYER" {
		t.Errorf("escalated: %+v", escalated)
	}
	closed := returnOf(t, move(rej.ReturnID, "CLOSED"), http.StatusOK)
	if closed.Status != "CLOSED" || closed.Dispute == nil || closed.Dispute.Outcome == nil || *closed.Dispute.Outcome != "CLOSED" {
		t.Errorf("closed: %+v", closed)
	}

	// The seller's dispute while the parcel travels; the platform refunds.
	dsp := file("ord_r_dsp", "")
	returnOf(t, post(dsp.ReturnID, "approve", "", `{}`), http.StatusOK)
	returnOf(t, move(dsp.ReturnID, "BUYER_SHIPPED"), http.StatusOK)
	for _, body := range []string{
		`{"reasonCode":"not_a_reason","description":"d","evidence":["https://cdn.example.ph/1.jpg"]}`,
		`{"reasonCode":"received_incomplete","description":"d","evidence":["http://cdn.example.ph/1.jpg"]}`,
		`{"reasonCode":"received_incomplete","description":"d","evidence":[]}`,
		`{"reasonCode":"received_incomplete","description":"` + strings.Repeat("x", 2001) + `","evidence":["https://cdn.example.ph/1.jpg"]}`,
	} {
		wantError(t, post(dsp.ReturnID, "dispute", "", body), http.StatusBadRequest, "VALIDATION_ERROR", "")
	}
	disputed := returnOf(t, post(dsp.ReturnID, "dispute", "k-dsp", `{"reasonCode":"did_not_receive_return_parcel","description":"never came","evidence":["https://cdn.example.ph/1.jpg"]}`), http.StatusOK)
	if disputed.Status != "DISPUTED" || disputed.Dispute == nil || disputed.Dispute.ReasonCode == nil ||
		*disputed.Dispute.ReasonCode != "did_not_receive_return_parcel" || disputed.Dispute.RaisedBy != "SELLER" {
		t.Errorf("disputed: %+v", disputed)
	}
	if ref := returnOf(t, move(dsp.ReturnID, "REFUNDED"), http.StatusOK); ref.Status != "REFUNDED" || ref.RefundedAmount != 130000 {
		t.Errorf("platform refund: %+v", ref)
	}
	// The refund's event carries the return as its GET renders it.
	var refundedEvent struct {
		Status         string         `json:"status"`
		RefundedAmount int64          `json:"refundedAmount"`
		Deadlines      map[string]any `json:"deadlines"`
		NextActions    []any          `json:"nextActions"`
	}
	ev, err := env.DB.Ent.Event.Query().Where(event.ResourceID(dsp.ReturnID), event.Type("return.refunded")).Only(ctx)
	if err != nil || json.Unmarshal(ev.Data, &refundedEvent) != nil || refundedEvent.Status != "REFUNDED" ||
		refundedEvent.RefundedAmount != 130000 || refundedEvent.Deadlines["disputeBy"] == nil || refundedEvent.NextActions == nil {
		t.Errorf("return.refunded data: %v %s", err, ev.Data)
	}

	// The platform's decision over internal gRPC, on a return the buyer
	// escalated.
	esc := file("ord_r_esc", "")
	returnOf(t, post(esc.ReturnID, "reject", "", `{"reason":"used","note":"worn"}`), http.StatusOK)
	decisions := returnsv1.NewReturnDecisionServiceClient(env.DialCore(t, env.InternalCaller(t, "after-sales")))
	decide := func(outcome returnsv1.ReturnStatus) (*returnsv1.ReturnResponse, error) {
		return decisions.DecideDispute(ctx, &returnsv1.DecideDisputeRequest{SellerId: seller, ReturnId: esc.ReturnID, Outcome: outcome})
	}
	if _, err := decide(returnsv1.ReturnStatus_RETURN_STATUS_REFUNDED); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("deciding a rejection nobody escalated: %v", err)
	}
	returnOf(t, move(esc.ReturnID, "DISPUTED"), http.StatusOK)
	if _, err := decide(returnsv1.ReturnStatus_RETURN_STATUS_APPROVED); status.Code(err) != codes.InvalidArgument {
		t.Errorf("an outcome that is no decision: %v", err)
	}
	decided, err := decide(returnsv1.ReturnStatus_RETURN_STATUS_REFUNDED)
	if err != nil || decided.GetData().GetStatus() != returnsv1.ReturnStatus_RETURN_STATUS_REFUNDED ||
		decided.GetData().GetDispute().GetOutcome() != "REFUNDED" || decided.GetData().GetRefundedAmount() != 130000 {
		t.Errorf("decided: %v %v", decided, err)
	}
	if st := orderStatus("ord_r_esc"); st != string(orders.StatusReturnRefund) {
		t.Errorf("order after the platform's refund: %s", st)
	}

	// Faults: the shop's next moves fail as queued, the return unchanged.
	flt := file("ord_r_flt", "")
	for _, f := range []struct {
		kind, action, body string
		status             int
	}{
		{"APPROVE_FAILED", "approve", `{}`, http.StatusBadRequest},
		{"REJECT_FAILED", "reject", `{"reason":"r","note":"n"}`, http.StatusBadRequest},
		// Whatever the move, the queued failure is the answer.
		{"DISPUTE_FAILED", "approve", `{}`, http.StatusBadRequest},
		{"UPSTREAM_ERROR", "approve", `{}`, http.StatusBadGateway},
	} {
		resp := call(t, c, http.MethodPost, "/open/v1/sandbox/faults", "", "", fmt.Sprintf(`{"target":"returns","error":%q,"count":1}`, f.kind))
		if resp.Status != http.StatusOK {
			t.Fatalf("faults: %d %s", resp.Status, resp.Body)
		}
		wantError(t, post(flt.ReturnID, f.action, "k-"+f.kind, f.body), f.status, f.kind, "")
		if got := get(flt.ReturnID); got.Status != "REQUESTED" {
			t.Errorf("after %s: %s", f.kind, got.Status)
		}
	}
	call(t, c, http.MethodPost, "/open/v1/sandbox/faults", "", "", `{"target":"returns","error":"CREATE_FAILED","count":1}`)
	wantError(t, call(t, c, http.MethodPost, "/open/v1/sandbox/returns", "", "", `{"orderId":"ord_r_late","reason":"x"}`),
		http.StatusBadGateway, "CREATE_FAILED", "")
	wantError(t, call(t, c, http.MethodPost, "/open/v1/sandbox/faults", "", "", `{"target":"returns","error":"SHIP_FAILED","count":1}`),
		http.StatusBadRequest, "VALIDATION_ERROR", "")
	if got := returnOf(t, post(flt.ReturnID, "reject", "", `{"reason":"r","note":"n"}`), http.StatusOK); got.Status != "REJECTED" {
		t.Errorf("after the faults: %+v", got)
	}

	// Deadlines: past the response deadline a request is approved by
	// itself, and a refund-only request refunded; acting late is refused.
	late := file("ord_r_late", "")
	only := file("ord_r_only", `{"orderId":"ord_r_only","reason":"never arrived whole","refundOnly":true}`)
	env.Business.Set(time.Date(2026, 3, 5, 16, 0, 0, 0, time.UTC)) // 6 March 00:00 in Manila
	if got := get(late.ReturnID); got.Status != "APPROVED" || got.actions() != "" {
		t.Errorf("late: %+v", got)
	}
	wantError(t, post(late.ReturnID, "reject", "", `{"reason":"r","note":"n"}`), http.StatusUnprocessableEntity, "RETURN_DEADLINE_EXCEEDED", "APPROVED")
	list := call(t, c, http.MethodGet, "/open/v1/returns", "status=REFUNDED&limit=3", "", "")
	var page struct {
		Data []wireReturn `json:"data"`
		Meta struct {
			Total      int     `json:"total"`
			NextCursor *string `json:"next_cursor"`
		} `json:"meta"`
	}
	if list.Status != http.StatusOK || json.Unmarshal(list.Body, &page) != nil || page.Meta.Total != 5 || len(page.Data) != 3 || page.Meta.NextCursor == nil {
		t.Fatalf("refunded list: %d %s", list.Status, list.Body)
	}
	next := call(t, c, http.MethodGet, "/open/v1/returns", "status=REFUNDED&limit=3&cursor="+*page.Meta.NextCursor, "", "")
	var page2 struct {
		Data []wireReturn `json:"data"`
	}
	if next.Status != http.StatusOK || json.Unmarshal(next.Body, &page2) != nil || len(page2.Data) != 2 {
		t.Fatalf("second page: %d %s", next.Status, next.Body)
	}
	var ids []string
	for _, r := range append(page.Data, page2.Data...) {
		ids = append(ids, r.ReturnID)
	}
	if !slices.Contains(ids, only.ReturnID) {
		t.Errorf("the refund-only request is not listed as refunded: %v", ids)
	}
	if st := orderStatus("ord_r_only"); st != string(orders.StatusReturnRefund) {
		t.Errorf("order after an automatic refund: %s", st)
	}
	byOrder := call(t, c, http.MethodGet, "/open/v1/returns", "order_id=ord_r_late", "", "")
	if err := json.Unmarshal(byOrder.Body, &page); err != nil || len(page.Data) != 1 || page.Data[0].ReturnID != late.ReturnID {
		t.Errorf("by order: %s", byOrder.Body)
	}

	// Events: one per move, in the moves' transactions.
	counts := map[string]int{}
	evs, err := env.DB.Ent.Event.Query().Where(event.SellerID(seller), event.TypeHasPrefix("return.")).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		counts[e.Type]++
		if strings.Contains(string(e.Data), "buyerEmail") {
			t.Errorf("%s carries buyerEmail", e.Type)
		}
	}
	want := map[string]int{"return.requested": 8, "return.approved": 4, "return.rejected": 3, "return.buyer_shipped": 3,
		"return.received": 2, "return.refunded": 5, "return.disputed": 3, "return.closed": 1}
	if fmt.Sprint(counts) != fmt.Sprint(want) {
		t.Errorf("events %v, want %v", counts, want)
	}
	if n, _ := env.DB.Ent.ReturnRefund.Query().Where(returnrefund.SellerID(seller)).Count(ctx); n != 5 {
		t.Errorf("%d refunds in the ledger, want 5", n)
	}
}
