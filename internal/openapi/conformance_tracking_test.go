package openapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
	"github.com/mallplatform/partnerapi/services/shipping/carrier/simulated"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
)

// bookedShipment is a test order of seller 0 booked with the simulated
// courier, as the booking route books one.
func (c *checker) bookedShipment(t *testing.T) shipments.Shipment {
	t.Helper()
	orderID := c.testOrder(t, "READY_TO_SHIP")
	booker := shipments.NewBooker(shipments.NewEntStore(c.env.DB), simulated.Name, simulated.New(simulated.Options{}), 0, c.env.Clock)
	sh, err := booker.Book(context.Background(), shipments.BookRequest{SellerID: c.env.Creds.Sellers[0].SellerID, OrderID: orderID,
		ChannelID: "JNT_STANDARD", Method: carrier.Dropoff, AddressID: "addr_1",
		Sender:    carrier.Address{Name: "Tindahan", PSGCCode: "1381300000", PostalCode: "1100"},
		Recipient: carrier.Address{Name: "Ana Reyes", PSGCCode: "1380300000", PostalCode: "1200"},
		Parcel:    carrier.Parcel{WeightGrams: 1200}})
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

// checkTracking sends the tracking routes a booked parcel (200) and an
// order without one (422 SHIPMENT_NOT_ARRANGED on the read; the sandbox
// step of a closed parcel is INVALID_TRANSITION).
func (c *checker) checkTracking(t *testing.T, op operation, full *sdk.Client, seededOrder string) {
	sh := c.bookedShipment(t)
	success := op.successStatus()
	if strings.HasSuffix(op.path, "/orders/{id}/tracking") {
		expect(t, "a booked order", c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": sh.OrderID}), true), success, "")
		expect(t, "an order without a booking", c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": seededOrder}), true),
			http.StatusUnprocessableEntity, "SHIPMENT_NOT_ARRANGED")
		return
	}
	expect(t, "a booked parcel", c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": sh.ID}), true), success, "")
	req := c.exampleRequest(op, map[string]string{"id": sh.ID})
	req.Body = []byte(`{"status":"DELIVERED"}`)
	expect(t, "the parcel delivered", c.do(t, op, full, req, true), success, "")
	req.Body = []byte(`{"status":"LOST"}`)
	expect(t, "a step after delivery", c.do(t, op, full, req, true), http.StatusUnprocessableEntity, "INVALID_TRANSITION")
}
