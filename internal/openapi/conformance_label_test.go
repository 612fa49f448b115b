package openapi_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/sellers"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
	"github.com/mallplatform/partnerapi/services/shipping/carrier/simulated"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
)

// labelsPath is the bulk label route.
const labelsPath = "/open/v1/shipments/labels"

// The label routes answer PDF and ZPL documents: validated as the binary
// strings the document says they are.
func init() {
	for _, ct := range []string{"application/pdf", "application/zpl"} {
		openapi3filter.RegisterBodyDecoder(ct, openapi3filter.FileBodyDecoder)
	}
}

// checkLabels sends a label route a test order before and after its
// booking: 422 SHIPPING_LABEL_UNAVAILABLE, then the document (and, for
// the single label, 304 to its own ETag).
func (c *checker) checkLabels(t *testing.T, op operation, full *sdk.Client) {
	id := c.testOrder(t, "READY_TO_SHIP")
	req := c.exampleRequest(op, map[string]string{"id": id})
	if op.path == labelsPath {
		req.Body = []byte(`{"orderIds":["` + id + `"]}`)
	}
	expect(t, "an order not booked", c.do(t, op, full, req, true), http.StatusUnprocessableEntity, "SHIPPING_LABEL_UNAVAILABLE")
	c.book(t, id)
	a := c.do(t, op, full, req, true)
	expect(t, "a booked order", a, http.StatusOK, "")
	if op.path == labelsPath {
		return
	}
	req.ExtraHeaders = http.Header{"If-None-Match": {a.header.Get("ETag")}}
	expect(t, "a booked order's label, named by its ETag", c.do(t, op, full, req, true), http.StatusNotModified, "")
}

// book books the full app's seller's order with the simulated courier, as
// the booking route does.
func (c *checker) book(t *testing.T, orderID string) {
	t.Helper()
	ctx := context.Background()
	seller := c.env.Creds.Sellers[0].SellerID
	addr, err := sellers.NewEntStore(c.env.DB).DefaultPickupAddress(ctx, seller)
	if err != nil {
		t.Fatal(err)
	}
	now := c.env.Clock.Now()
	bk := shipments.NewBooker(shipments.NewEntStore(c.env.DB), simulated.Name, simulated.New(simulated.Options{}), 0, clock.NewManual(now))
	_, err = bk.Book(ctx, shipments.BookRequest{SellerID: seller, OrderID: orderID, ChannelID: "JNT_STANDARD", Method: carrier.Pickup,
		PickupDate: now.Add(24 * time.Hour).Format(time.DateOnly), Window: carrier.Window{Start: "09:00", End: "17:00"}, AddressID: addr.ID,
		Sender:    carrier.Address{Name: addr.Name, PSGCCode: addr.PSGCCode, PostalCode: addr.PostalCode},
		Recipient: carrier.Address{Name: "Ana Reyes", PSGCCode: "1380200000", PostalCode: "1740"},
		Parcel:    carrier.Parcel{WeightGrams: 1000}})
	if err != nil {
		t.Fatal(err)
	}
}
