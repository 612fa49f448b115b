package shipping_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/sellers"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
	"github.com/mallplatform/partnerapi/services/shipping/carrier/simulated"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
)

// bookedAt is when the test's bookings are made: the documents' creation
// date.
var bookedAt = time.Date(2026, 11, 26, 2, 0, 0, 0, time.UTC)

// labelOrder is a seller's order ready to ship to Las Piñas, to a recipient
// whose name needs more than ASCII.
func labelOrder(id, seller string) *orders.Order {
	shipBy := time.Date(2026, 11, 28, 15, 59, 0, 0, time.UTC) // 23:59 in Manila
	line2 := "Brgy. Almanza Uno"
	addr := orders.Address{Name: "Niño Peñaflor", Line1: "12 Dasmariñas Street", Line2: &line2, City: "City of Las Piñas",
		Province: "National Capital Region (NCR)", PostalCode: "1740", Country: "PH", Phone: "+639171234567"}
	o := pickupOrder(id, seller, orders.StatusReadyToShip, "JNT_STANDARD", &shipBy)
	o.ShippingAddress, o.BillingAddress = addr, addr
	return o
}

// labelFixture is a seller's orders in every state a label route tells
// apart, on one database.
type labelFixture struct {
	env           *testenv.Env
	seller, other string
	// tracking is the tracking number of each booked order.
	tracking map[string]string
}

func newLabelFixture(t *testing.T, pg bool) *labelFixture {
	t.Helper()
	env := testenv.Start(t, testenv.Options{Postgres: pg})
	ctx := context.Background()
	f := &labelFixture{env: env, seller: env.Creds.Sellers[0].SellerID, other: env.Creds.Sellers[1].SellerID, tracking: map[string]string{}}
	cod := labelOrder("ord_label_cod", f.seller)
	cod.PaymentStatus, cod.Total = orders.PaymentStatusCOD, 123450
	fixtures := []*orders.Order{
		labelOrder("ord_label_paid", f.seller), cod, labelOrder("ord_label_third", f.seller),
		labelOrder("ord_label_unbooked", f.seller), labelOrder("ord_label_pending", f.seller),
		labelOrder("ord_label_voided", f.seller), labelOrder("ord_label_other", f.other),
	}
	if err := orders.NewEntStore(env.DB).CreateOrders(ctx, fixtures); err != nil {
		t.Fatal(err)
	}
	store := shipments.NewEntStore(env.DB)
	bk := shipments.NewBooker(store, simulated.Name, simulated.New(simulated.Options{Now: func() time.Time { return bookedAt }}), 0, clock.NewManual(bookedAt))
	for _, o := range fixtures {
		switch o.ID {
		case "ord_label_unbooked":
			continue
		case "ord_label_pending":
			// A booking whose courier answer is not recorded: in doubt,
			// no label yet.
			if _, err := store.CreatePending(ctx, shipments.Shipment{ID: "shp_label_pending", SellerID: f.seller, OrderID: o.ID, ChannelID: "JNT_STANDARD",
				PickupDate: "2026-11-27", Window: carrier.Window{Start: "09:00", End: "17:00"}, AddressID: "addr_label",
				Method: carrier.Pickup, Carrier: simulated.Name, Reference: carrier.Reference("shp_label_pending")}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		sh := bookWithCourier(t, env.DB, bk, o)
		f.tracking[o.ID] = sh.TrackingNumber
		if o.ID == "ord_label_voided" {
			if _, _, err := store.AppendEvent(ctx, o.SellerID, sh.ID, carrier.Event{Status: carrier.Cancelled,
				CarrierStatus: "Cancelled", Description: "Booking cancelled by the shipper", OccurredAt: bookedAt.Add(time.Hour)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return f
}

// book books o's parcel from its seller's default pickup address, as the
// booking route does, over the simulated courier.
func bookWithCourier(t testing.TB, d *db.DB, bk *shipments.Booker, o *orders.Order) shipments.Shipment {
	t.Helper()
	ctx := context.Background()
	addr, err := sellers.NewEntStore(d).DefaultPickupAddress(ctx, o.SellerID)
	if err != nil {
		t.Fatal(err)
	}
	sh, err := bk.Book(ctx, shipments.BookRequest{SellerID: o.SellerID, OrderID: o.ID, ChannelID: "JNT_STANDARD",
		Method: carrier.Pickup, PickupDate: "2026-11-27", Window: carrier.Window{Start: "09:00", End: "17:00"}, AddressID: addr.ID,
		Sender:    carrier.Address{Name: addr.Name, PSGCCode: addr.PSGCCode, PostalCode: addr.PostalCode},
		Recipient: carrier.Address{Name: o.ShippingAddress.Name, PSGCCode: "1380200000", PostalCode: o.ShippingAddress.PostalCode},
		Parcel:    carrier.Parcel{WeightGrams: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

func getLabel(t testing.TB, c *sdk.Client, order, query string, header http.Header) *sdk.Response {
	t.Helper()
	resp, err := c.DoSigned(context.Background(), sdk.Request{Method: http.MethodGet, Path: "/open/v1/orders/" + order + "/shipment/label",
		RawQuery: query, ExtraHeaders: header})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func printLabels(t testing.TB, c *sdk.Client, body string) *sdk.Response {
	t.Helper()
	resp, err := c.DoSigned(context.Background(), sdk.Request{Method: http.MethodPost, Path: "/open/v1/shipments/labels", Body: []byte(body)})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// poppler runs a poppler-utils program on a PDF.
func poppler(t *testing.T, tool string, pdf []byte, args ...string) string {
	t.Helper()
	path, err := exec.LookPath(tool)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing: run tools/scripts/poppler.sh (apt-get install poppler-utils)", tool)
		}
		t.Skipf("%s is missing (tools/scripts/poppler.sh installs it); CI=true makes this a failure", tool)
	}
	file := filepath.Join(t.TempDir(), "label.pdf")
	if err := os.WriteFile(file, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	var stderr bytes.Buffer
	args = append(args, file)
	if tool == "pdftotext" {
		args = append(args, "-") // to standard output
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v: %s", tool, err, stderr.String())
	}
	return string(out)
}

func TestLabelRoutes(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) { testLabelRoutes(t, pg) })
	}
}

func testLabelRoutes(t *testing.T, pg bool) {
	f := newLabelFixture(t, pg)
	c := f.env.Client(t, "full", 0)

	// The default: an A6 PDF, the document itself, with a strong ETag.
	resp := getLabel(t, c, "ord_label_cod", "", nil)
	if resp.Status != http.StatusOK || resp.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(resp.Body, []byte("%PDF-")) {
		t.Fatalf("label: %d %s %.200q", resp.Status, resp.Header.Get("Content-Type"), resp.Body)
	}
	tag := resp.Header.Get("ETag")
	if !regexp.MustCompile(`^"[0-9a-f]{32}"$`).MatchString(tag) {
		t.Fatalf("ETag %q", tag)
	}
	// A buyer's name and address: no shared cache, revalidated by its tag.
	if cc, nosniff := resp.Header.Get("Cache-Control"), resp.Header.Get("X-Content-Type-Options"); cc != "private, no-cache" || nosniff != "nosniff" {
		t.Errorf("Cache-Control %q, X-Content-Type-Options %q", cc, nosniff)
	}
	text := pdfTextOf(t, resp.Body)
	for _, want := range []string{f.tracking["ord_label_cod"], "Niño Peñaflor", "12 Dasmariñas Street", "City of Las Piñas",
		"National Capital Region (NCR)", "ord_label_cod", "2026-11-28", "COD PHP 1,234.50", "1/1", simulated.Company} {
		if !strings.Contains(text, want) {
			t.Errorf("%q is not on the label:\n%s", want, text)
		}
	}
	info := poppler(t, "pdfinfo", resp.Body)
	if !regexp.MustCompile(`(?m)^Pages:\s+1$`).MatchString(info) || !regexp.MustCompile(`(?m)^Page size:\s+297.64 x 419.53 pts`).MatchString(info) {
		t.Errorf("want one A6 page:\n%s", info)
	}
	// The same booking prints the same bytes: the tag holds, and naming it
	// answers 304 with no body.
	again := getLabel(t, c, "ord_label_cod", "format=pdf&size=A6", nil)
	if again.Status != http.StatusOK || again.Header.Get("ETag") != tag || !bytes.Equal(again.Body, resp.Body) {
		t.Errorf("a second print: %d, ETag %s, same bytes %v", again.Status, again.Header.Get("ETag"), bytes.Equal(again.Body, resp.Body))
	}
	for _, inm := range []string{tag, `"stale", ` + tag, "W/" + tag, "*"} {
		nm := getLabel(t, c, "ord_label_cod", "", http.Header{"If-None-Match": {inm}})
		if nm.Status != http.StatusNotModified || len(nm.Body) != 0 || nm.Header.Get("ETag") != tag {
			t.Errorf("If-None-Match %s: %d %q (ETag %q), want 304 with no body", inm, nm.Status, nm.Body, nm.Header.Get("ETag"))
		}
	}
	if stale := getLabel(t, c, "ord_label_cod", "", http.Header{"If-None-Match": {`"stale"`}}); stale.Status != http.StatusOK || len(stale.Body) == 0 {
		t.Errorf("a stale tag: %d, want 200 with the document", stale.Status)
	}

	// A prepaid order prints no COD amount; 4x6 is its own page and tag.
	paid := getLabel(t, c, "ord_label_paid", "size=4x6", nil)
	if paid.Status != http.StatusOK || paid.Header.Get("ETag") == tag {
		t.Fatalf("4x6 label: %d %s", paid.Status, paid.Header.Get("ETag"))
	}
	if text := pdfTextOf(t, paid.Body); strings.Contains(text, "COD") || !strings.Contains(text, f.tracking["ord_label_paid"]) {
		t.Errorf("prepaid 4x6 label:\n%s", text)
	}
	if info := poppler(t, "pdfinfo", paid.Body); !regexp.MustCompile(`(?m)^Page size:\s+288 x 432 pts`).MatchString(info) {
		t.Errorf("want a 4x6 page:\n%s", info)
	}

	// ZPL for thermal printers.
	zpl := getLabel(t, c, "ord_label_cod", "format=zpl&size=4x6", nil)
	if zpl.Status != http.StatusOK || zpl.Header.Get("Content-Type") != "application/zpl" || !bytes.HasPrefix(zpl.Body, []byte("^XA")) ||
		!bytes.Contains(zpl.Body, []byte(f.tracking["ord_label_cod"])) || !bytes.Contains(zpl.Body, []byte("COD PHP 1,234.50")) ||
		!regexp.MustCompile(`^"[0-9a-f]{32}"$`).MatchString(zpl.Header.Get("ETag")) {
		t.Errorf("zpl: %d %s %s\n%s", zpl.Status, zpl.Header.Get("Content-Type"), zpl.Header.Get("ETag"), zpl.Body)
	}

	// The codes, in the error envelope.
	for _, q := range []string{"format=png", "format=PDF", "size=A4", "size=a6", "format=", "size="} {
		resp := getLabel(t, c, "ord_label_cod", q, nil)
		wantError(t, resp, http.StatusBadRequest, "VALIDATION_ERROR")
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s: an error as %s", q, ct)
		}
	}
	for _, id := range []string{"ord_label_unbooked", "ord_label_pending", "ord_label_voided"} {
		wantError(t, getLabel(t, c, id, "", nil), http.StatusUnprocessableEntity, "SHIPPING_LABEL_UNAVAILABLE")
		wantError(t, getLabel(t, c, id, "format=zpl", nil), http.StatusUnprocessableEntity, "SHIPPING_LABEL_UNAVAILABLE")
	}
	for _, id := range []string{"ord_label_other", "ord_missing", "not-an-order"} {
		wantError(t, getLabel(t, c, id, "", nil), http.StatusNotFound, "NOT_FOUND")
	}
	if resp := getLabel(t, f.env.Client(t, "full", -1), "ord_label_cod", "", nil); resp.Status != http.StatusUnauthorized && resp.Status != http.StatusForbidden {
		t.Errorf("without a seller token: %d %s", resp.Status, resp.Body)
	}

	// Many labels: one PDF, a page each, in the order asked.
	all := printLabels(t, c, `{"orderIds":["ord_label_third","ord_label_cod","ord_label_paid"]}`)
	if all.Status != http.StatusOK || all.Header.Get("Content-Type") != "application/pdf" || all.Header.Get("ETag") != "" {
		t.Fatalf("labels: %d %s ETag %q %.300q", all.Status, all.Header.Get("Content-Type"), all.Header.Get("ETag"), all.Body)
	}
	if info := poppler(t, "pdfinfo", all.Body); !regexp.MustCompile(`(?m)^Pages:\s+3$`).MatchString(info) {
		t.Errorf("want 3 pages:\n%s", info)
	}
	for page, id := range []string{"ord_label_third", "ord_label_cod", "ord_label_paid"} {
		n := fmt.Sprint(page + 1)
		text := poppler(t, "pdftotext", all.Body, "-f", n, "-l", n, "-enc", "UTF-8")
		if !strings.Contains(text, f.tracking[id]) || !strings.Contains(text, id) || strings.Contains(text, "COD") != (id == "ord_label_cod") {
			t.Errorf("page %s is not %s's label:\n%s", n, id, text)
		}
	}
	for body, want := range map[string]string{
		`{"orderIds":["ord_label_cod","ord_label_unbooked"]}`: "ord_label_unbooked",
		`{"orderIds":["ord_label_voided"]}`:                   "ord_label_voided",
		`{"orderIds":["ord_label_pending","ord_label_cod"]}`:  "ord_label_pending",
	} {
		resp := printLabels(t, c, body)
		wantError(t, resp, http.StatusUnprocessableEntity, "SHIPPING_LABEL_UNAVAILABLE")
		if !bytes.Contains(resp.Body, []byte(want)) {
			t.Errorf("%s: the message does not name %s: %s", body, want, resp.Body)
		}
	}
	wantError(t, printLabels(t, c, `{"orderIds":["ord_label_cod","ord_label_other"]}`), http.StatusNotFound, "NOT_FOUND")
	fifty, fiftyOne := make([]string, 50), make([]string, 51)
	for i := range fiftyOne {
		fiftyOne[i] = fmt.Sprintf("%q", fmt.Sprintf("ord_label_%02d", i))
		if i < 50 {
			fifty[i] = fiftyOne[i]
		}
	}
	for _, body := range []string{`{}`, `{"orderIds":[]}`, `{"orderIds":["ord_label_cod","ord_label_cod"]}`,
		`{"orderIds":[` + strings.Join(fiftyOne, ",") + `]}`, `{"orderIds":["ord_label_cod"],"size":"A6"}`, `{"orderIds":"ord_label_cod"}`, `{"orderIds":[""]}`} {
		wantError(t, printLabels(t, c, body), http.StatusBadRequest, "VALIDATION_ERROR")
	}
	// 50 is allowed: these are nobody's orders.
	wantError(t, printLabels(t, c, `{"orderIds":[`+strings.Join(fifty, ",")+`]}`), http.StatusNotFound, "NOT_FOUND")
}

// pdfTextOf is the PDF's text as pdftotext lays it out.
func pdfTextOf(t *testing.T, pdf []byte) string {
	t.Helper()
	return poppler(t, "pdftotext", pdf, "-layout", "-enc", "UTF-8")
}
