package openapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/sdk"
)

// askCancellation is a test order of seller 0, ready to ship, whose buyer
// asked to cancel it.
func (c *checker) askCancellation(t *testing.T) string {
	t.Helper()
	id := c.testOrder(t, "READY_TO_SHIP")
	resp, err := c.env.Client(t, "full", 0).DoSigned(context.Background(), sdk.Request{Method: http.MethodPost,
		Path: "/open/v1/sandbox/orders/" + id + "/cancellation-request", Body: []byte(`{"reason":"Ordered the wrong size"}`)})
	if err != nil || resp.Status != http.StatusCreated {
		t.Fatalf("ask to cancel %s: %v %v", id, resp, err)
	}
	return id
}

// checkCancellation sends the cancellation request routes a real request:
// answered once (200), then CANCELLATION_ALREADY_PROCESSED; an order
// without a request is NOT_FOUND. The sandbox's buyer asks once (201),
// then CONFLICT while the request is pending.
func (c *checker) checkCancellation(t *testing.T, op operation, full *sdk.Client, seededOrder string) {
	success := op.successStatus()
	if strings.HasPrefix(op.path, "/open/v1/sandbox/") {
		id := c.testOrder(t, "READY_TO_SHIP")
		expect(t, "a test order ready to ship", c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": id}), true), success, "")
		expect(t, "an order with a pending request", c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": id}), true),
			http.StatusConflict, "CONFLICT")
		return
	}
	id := c.askCancellation(t)
	expect(t, "a pending request", c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": id}), true), success, "")
	expect(t, "a request answered", c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": id}), true),
		http.StatusUnprocessableEntity, "CANCELLATION_ALREADY_PROCESSED")
	expect(t, "an order without a request", c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": seededOrder}), true),
		http.StatusNotFound, "NOT_FOUND")
}
