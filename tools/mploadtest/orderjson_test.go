package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/db/dbtypes"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/wirejson"
	"github.com/mallplatform/partnerapi/sdk/signing"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/sandbox/ordergen"
)

// platformBody renders an order the way the platform answers GetOrder: the
// orders service's view and conversion, then the gateway's envelope
// ({"success":true,<response fields>}, written with internal/wirejson).
func platformBody(t *testing.T, st orders.Store, clk clock.Clock, sellerID, orderID string, scopes []string) []byte {
	t.Helper()
	srv := orders.NewServer(orders.NewService(orders.Config{Store: st, Business: clock.Uniform{C: clk}}))
	ctx := principal.NewContext(context.Background(), &principal.Principal{AppID: "app_test", Scopes: scopes, SellerID: sellerID})
	ctx = principal.WithSeller(ctx, sellerID)
	resp, err := srv.GetOrder(ctx, &ordersv1.GetOrderRequest{Id: orderID})
	if err != nil {
		t.Fatalf("platform GetOrder %s: %v", orderID, err)
	}
	b, _, err := wirejson.AppendFields([]byte(`{"success":true,`), resp)
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '}')
}

// memStore is an orders.Store holding orders in memory, so the encoder can
// be compared with the platform on values the seed never writes.
type memStore struct {
	orders.Store // what the encoder test never calls: nil, so a call panics
	byID         map[string]*orders.Order
}

func (m memStore) GetOrder(_ context.Context, sellerID, orderID string) (*orders.Order, error) {
	o, ok := m.byID[orderID]
	if !ok || o.SellerID != sellerID {
		return nil, orders.ErrNotFound
	}
	return o, nil
}

// rowFromDomain is what the baseline's scan would produce for o.
func rowFromDomain(o *orders.Order) *orderRow {
	addr := func(a orders.Address) dbtypes.Address {
		return dbtypes.Address{Name: a.Name, Line1: a.Line1, Line2: a.Line2, City: a.City, Province: a.Province, PostalCode: a.PostalCode, Country: a.Country, Phone: a.Phone}
	}
	r := &orderRow{
		ID: o.ID, SellerID: o.SellerID, CustomerID: o.CustomerID, BuyerEmail: o.BuyerEmail, Status: string(o.Status),
		Currency: o.Currency, Subtotal: o.Subtotal, Total: o.Total, Tax: o.Tax, Shipping: o.Shipping, Discount: o.Discount,
		PaymentStatus: o.PaymentStatus, FulfillmentStatus: o.FulfillmentStatus,
		ShippingAddress: addr(o.ShippingAddress), BillingAddress: addr(o.BillingAddress),
		ShipByDate: o.ShipByDate, ShippedAt: o.ShippedAt, ShippingChannel: o.ShippingChannel,
		CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt,
	}
	if o.BookingStatus != nil {
		b := string(*o.BookingStatus)
		r.BookingStatus = &b
	}
	for _, it := range o.Items {
		r.Items = append(r.Items, itemRow{ID: it.ID, OrderID: it.OrderID, ProductID: it.ProductID, VariantID: it.VariantID,
			Title: it.Title, SKU: it.SKU, Quantity: it.Quantity, UnitPrice: it.UnitPrice, TotalPrice: it.TotalPrice, Thumbnail: it.Thumbnail})
	}
	for _, f := range o.Fulfillments {
		fr := fulfillmentRow{ID: f.ID, OrderID: f.OrderID, Status: string(f.Status), TrackingNumber: f.TrackingNumber,
			TrackingCompany: f.TrackingCompany, CreatedAt: f.CreatedAt, UpdatedAt: f.UpdatedAt}
		for _, fi := range f.Items {
			fr.Items = append(fr.Items, dbtypes.FulfillmentItem{ItemID: fi.ItemID, Quantity: int(fi.Quantity)})
		}
		r.Fulfillments = append(r.Fulfillments, fr)
	}
	return r
}

func ptr[T any](v T) *T { return &v }

func TestEncoderMatchesPlatformOnEdgeValues(t *testing.T) {
	now := time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)
	past, future := now.Add(-time.Hour), now.Add(48*time.Hour)
	nanos := time.Date(2026, 11, 20, 1, 2, 3, 987654321, time.FixedZone("PHT", 8*3600))
	base := func(id string) *orders.Order {
		return &orders.Order{
			ID: id, SellerID: "slr_1", CustomerID: "cus_1", BuyerEmail: "buyer@example.ph", Status: orders.StatusPaid,
			Currency: "PHP", Subtotal: 100, Total: 150, Shipping: 50, PaymentStatus: "paid", FulfillmentStatus: "unfulfilled",
			ShippingAddress: orders.Address{Name: "Ana", Line1: "1 Rizal St", City: "Makati", Province: "NCR", PostalCode: "1200", Country: "PH", Phone: "+639171234567"},
			BillingAddress:  orders.Address{Name: "Ana", Line1: "1 Rizal St", City: "Makati", Province: "NCR", PostalCode: "1200", Country: "PH", Phone: "+639171234567"},
			CreatedAt:       nanos, UpdatedAt: nanos.Add(time.Minute),
			Items: []orders.Item{{ID: "itm_1", OrderID: id, ProductID: "prd_1", Title: "Mug", SKU: "MUG", Quantity: 2, UnitPrice: 50, TotalPrice: 100}},
		}
	}
	cases := map[string]func(o *orders.Order){
		"plain": func(*orders.Order) {},
		"escaping": func(o *orders.Order) {
			o.Items[0].Title = "Quote \" backslash \\ <b>&amp; tab\t nl\n ctrl\x01 bs\b ff\f ls\u2028 ps\u2029 ñ 日本 bad\xff"
			o.ShippingAddress.Line2 = ptr("")
			o.BillingAddress.Line2 = ptr("Unit </script>")
		},
		"no email, empty currency": func(o *orders.Order) { o.BuyerEmail, o.Currency = "", "" },
		"breached deadline, booking, channel": func(o *orders.Order) {
			o.Status = orders.StatusReadyToShip
			o.ShipByDate = &past
			o.BookingStatus = ptr(orders.BookingReadyForHandover)
			o.ShippingChannel = ptr("J&T Express")
		},
		"shipped: deadline history, booking hidden": func(o *orders.Order) {
			o.Status = orders.StatusShipped
			o.ShipByDate = &past
			o.BookingStatus = ptr(orders.BookingPendingArrange)
			o.ShippingChannel = ptr("")
		},
		"future deadline": func(o *orders.Order) { o.Status = orders.StatusPending; o.ShipByDate = &future },
		"unknown stored values": func(o *orders.Order) {
			o.Status = "ON_HOLD"
			o.BookingStatus = ptr(orders.BookingStatus("SOMETHING"))
		},
		"unknown booking before shipment": func(o *orders.Order) {
			o.BookingStatus = ptr(orders.BookingStatus("SOMETHING"))
		},
		"variant, thumbnail, fulfillments": func(o *orders.Order) {
			o.Status = orders.StatusDelivered
			o.Items[0].VariantID = ptr("var_1")
			o.Items[0].Thumbnail = ptr("https://cdn.example.ph/1.jpg")
			o.Items = append(o.Items, orders.Item{ID: "itm_2", OrderID: o.ID, ProductID: "prd_2", Title: "Plate", Quantity: 1})
			o.Fulfillments = []orders.Fulfillment{
				{ID: "ful_1", OrderID: o.ID, Status: orders.FulfillmentDelivered, TrackingNumber: "JT1", TrackingCompany: "J&T", CreatedAt: nanos, UpdatedAt: nanos,
					Items: []orders.FulfillmentItem{{ItemID: "itm_1", Quantity: 2}, {ItemID: "itm_2", Quantity: 1}}},
				{ID: "ful_2", OrderID: o.ID, Status: "lost", CreatedAt: nanos, UpdatedAt: nanos},
			}
		},
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			o := base("ord_1")
			mutate(o)
			st := memStore{byID: map[string]*orders.Order{o.ID: o}}
			for _, scopes := range [][]string{{"orders:read", orders.ScopeBuyerEmail}, {"orders:read"}} {
				want := platformBody(t, st, clock.NewManual(now), o.SellerID, o.ID, scopes)
				got := appendOrderEnvelope(nil, rowFromDomain(o), now, len(scopes) == 2)
				if !bytes.Equal(got, want) {
					t.Fatalf("scopes %v:\nbaseline %s\nplatform %s", scopes, got, want)
				}
			}
		})
	}
}

// TestBaselineMatchesPlatformOnPostgres seeds the sandbox's orders and
// checks that the baseline's reads and encoder give, byte for byte, what the
// platform's store, service and envelope give for every one of them.
func TestBaselineMatchesPlatformOnPostgres(t *testing.T) {
	d := dbtest.Postgres(t)
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Millisecond)
	clk := clock.NewManual(now)
	sealer, err := auth.NewSealer(auth.NewKey())
	if err != nil {
		t.Fatal(err)
	}
	authSvc, err := auth.NewService(auth.Config{Store: auth.NewEntStore(d.Ent), Sealer: sealer, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	var sellers []string
	for i := range 2 {
		s, err := authSvc.CreateTestShop(ctx, fmt.Sprintf("Seller %d", i), fmt.Sprintf("Shop %d", i))
		if err != nil {
			t.Fatal(err)
		}
		sellers = append(sellers, s.ID)
	}
	st := orders.NewEntStore(d)
	rng := rand.New(rand.NewPCG(7, 11))
	for _, s := range sellers {
		if err := ordergen.Seed(ctx, st, s, nil, 40, now, rng); err != nil {
			t.Fatal(err)
		}
	}
	ids, err := orderIDsFromDB(ctx, d.Pool.Config().ConnString(), sellers[0])
	if err != nil || len(ids) != 40 {
		t.Fatalf("ids: %v %d", err, len(ids))
	}
	h := &baselineHandler{db: d.Pool, showEmail: true, now: clk.Now}
	mux := newBaselineMux(h)
	get := func(seller, id string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, "/open/v1/orders/"+id, nil)
		req.Header.Set(signing.HeaderSellerID, seller)
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, req)
		return rec
	}
	for _, id := range ids {
		rec := get(sellers[0], id)
		want := platformBody(t, st, clk, sellers[0], id, []string{"orders:read", orders.ScopeBuyerEmail})
		if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), want) {
			t.Fatalf("order %s: HTTP %d\nbaseline %s\nplatform %s", id, rec.Code, rec.Body, want)
		}
		if rec.Header().Get("Content-Length") != fmt.Sprint(len(want)) {
			t.Fatalf("Content-Length %q for %d bytes", rec.Header().Get("Content-Length"), len(want))
		}
		// Another seller's order is as missing as an unknown one.
		if rec := get(sellers[1], id); rec.Code != http.StatusNotFound {
			t.Fatalf("cross-seller read of %s: HTTP %d %s", id, rec.Code, rec.Body)
		}
	}
	if rec := get(sellers[0], "ord_missing"); rec.Code != http.StatusNotFound || !bytes.Contains(rec.Body.Bytes(), []byte(`"NOT_FOUND"`)) {
		t.Fatalf("missing order: HTTP %d %s", rec.Code, rec.Body)
	}
	if rec := get("", ids[0]); rec.Code != http.StatusUnauthorized {
		t.Fatalf("no seller: HTTP %d %s", rec.Code, rec.Body)
	}
}
