package orders

import (
	"context"
	"net"
	"reflect"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/core"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/catalog"
	"github.com/mallplatform/partnerapi/services/events"
)

const internalToken = "test-internal-token-0123456789"

// allScopes is every grant a fake seller gives.
var allScopes = []string{"catalog:read", "catalog:write", "orders:read", "orders:write", "customer:email:read"}

// sellerTokens stands in for the auth service's verifier: one known access
// token per seller.
type sellerTokens map[string]string

func (s sellerTokens) VerifySellerToken(_ context.Context, _, sellerID, token string) ([]string, error) {
	if want, ok := s[sellerID]; ok && token == want {
		return allScopes, nil
	}
	return nil, apierr.New(apierr.Unauthorized, "seller token is not valid for this seller")
}

var testSellers = sellerTokens{"sel_a": "tok_a", "sel_b": "tok_b"}

type harness struct {
	client ordersv1.OrdersServiceClient
	clock  *clock.Manual
	store  *EntStore
}

// newHarness serves the orders service from core.New, as production does,
// over an in-memory listener.
func newHarness(t testing.TB, d *db.DB, now time.Time) *harness {
	t.Helper()
	clk := clock.NewManual(now)
	st := NewEntStore(d)
	recorder := events.NewRecorder(events.NewEntStore(d), nil)
	stock := catalog.NewService(catalog.Config{Store: catalog.NewEntStore(d), Business: clk, Events: recorder})
	srv, err := core.New(core.Config{
		GatewayToken: internalToken,
		Services:     []core.Registrar{NewServer(NewService(Config{Store: st, Business: clk, Stock: stock, Events: recorder})).Register},
		Sellers:      testSellers,
	})
	if err != nil {
		t.Fatalf("core.New: %v", err)
	}
	lis := bufconn.Listen(1 << 20)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.GRPC.Stop)
	conn, err := grpc.NewClient("passthrough:///orders",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return &harness{client: ordersv1.NewOrdersServiceClient(conn), clock: clk, store: st}
}

// partner is an app acting for seller with its valid token.
func partner(seller string, scopes ...string) *principal.Principal {
	return &principal.Principal{
		AppID: "app_1", ClientID: "test_client_1", AccountID: "acc_1", Environment: "sandbox",
		Scopes: scopes, SellerID: seller, AccessToken: testSellers[seller],
	}
}

// as carries the internal credential and, when p is set, the partner
// principal, the way the gateway calls core.
func as(p *principal.Principal) context.Context {
	kv := []string{"authorization", "Bearer " + internalToken}
	if p != nil {
		kv = p.AppendMetadata(kv)
	}
	return metadata.AppendToOutgoingContext(context.Background(), kv...)
}

func codeOf(err error) apierr.Code {
	c, _ := apierr.FromStatus(status.Convert(err))
	return c
}

// Manila 10:00 on a Tuesday.
var serviceNow = time.Date(2026, 3, 10, 2, 0, 0, 0, time.UTC)

// seedPresenceFixtures writes one order per presence case.
func seedPresenceFixtures(t testing.TB, st Store) {
	t.Helper()
	now := serviceNow
	late := fixture("ord_rts_late", "sel_a", StatusReadyToShip, now.Add(-96*time.Hour))
	late.ShipByDate = ptr(now.Add(-2 * time.Hour))
	late.BookingStatus = ptr(BookingReadyForHandover)
	late.ShippingChannel = ptr("JNT_STANDARD")

	due := fixture("ord_paid_due", "sel_a", StatusPaid, now.Add(-3*time.Hour))
	due.ShipByDate = ptr(now.Add(30 * time.Hour))

	pending := fixture("ord_pending", "sel_a", StatusPending, now.Add(-time.Hour))
	pending.PaymentStatus = "pending"

	shipped := fixture("ord_shipped_late", "sel_a", StatusShipped, now.Add(-144*time.Hour))
	shipped.ShipByDate = ptr(now.Add(-100 * time.Hour))
	// A booking left over from before handover must not show once shipped.
	shipped.BookingStatus = ptr(BookingReadyForHandover)
	shipped.ShippingChannel = ptr("LBC_STANDARD")

	delivered := fixture("ord_delivered", "sel_a", StatusDelivered, now.Add(-480*time.Hour))
	delivered.BuyerEmail = ""
	delivered.ShippingChannel = ptr("")

	cancelled := fixture("ord_cancelled", "sel_a", StatusCancelled, now.Add(-200*time.Hour))
	cancelled.ShipByDate = ptr(now.Add(-150 * time.Hour))

	foreign := fixture("ord_foreign", "sel_b", StatusPaid, now.Add(-2*time.Hour))
	mustCreate(t, st, late, due, pending, shipped, delivered, cancelled, foreign)
}

func TestServicePresenceRules(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		createSellers(t, d.Ent, "sel_a", "sel_b")
		h := newHarness(t, d, serviceNow)
		seedPresenceFixtures(t, h.store)
		withEmail := as(partner("sel_a", "orders:read", ScopeBuyerEmail))
		get := func(ctx context.Context, id string) *ordersv1.Order {
			t.Helper()
			res, err := h.client.GetOrder(ctx, &ordersv1.GetOrderRequest{Id: id})
			if err != nil {
				t.Fatalf("GetOrder(%s): %v", id, err)
			}
			return res.GetData()
		}

		o := get(withEmail, "ord_rts_late")
		if o.SlaBreached == nil || !*o.SlaBreached || o.ShipByDate == nil {
			t.Errorf("past deadline, unshipped: slaBreached %v shipByDate %v", o.SlaBreached, o.ShipByDate)
		}
		if o.BookingStatus == nil || *o.BookingStatus != ordersv1.BookingStatus_BOOKING_STATUS_READY_FOR_HANDOVER {
			t.Errorf("bookingStatus %v", o.BookingStatus)
		}
		if o.ShippingChannel == nil || *o.ShippingChannel != "JNT_STANDARD" {
			t.Errorf("shippingChannel %v", o.ShippingChannel)
		}
		if o.BuyerEmail == nil || *o.BuyerEmail != "ord_rts_late@example.ph" {
			t.Errorf("buyerEmail with scope: %v", o.BuyerEmail)
		}
		if o.GetCurrency() != "PHP" || o.GetSubtotal() != 150000 || o.GetTotal() != 145000 || o.GetDiscount() != 10000 || o.GetShipping() != 5000 {
			t.Errorf("money: %v", o)
		}

		o = get(withEmail, "ord_paid_due")
		if o.GetStatus() != ordersv1.OrderStatus_ORDER_STATUS_READY_TO_SHIP {
			t.Errorf("PAID reads as %v, want READY_TO_SHIP", o.GetStatus())
		}
		if o.GetPaymentStatus() != "paid" {
			t.Errorf("paymentStatus %q", o.GetPaymentStatus())
		}
		if o.SlaBreached == nil || *o.SlaBreached {
			t.Errorf("deadline ahead: slaBreached %v, want present false", o.SlaBreached)
		}
		if o.BookingStatus != nil || o.ShippingChannel != nil {
			t.Errorf("no booking or channel stored, got %v / %v", o.BookingStatus, o.ShippingChannel)
		}
		if !o.GetShipByDate().AsTime().Equal(serviceNow.Add(30 * time.Hour)) {
			t.Errorf("shipByDate %v", o.GetShipByDate().AsTime())
		}

		o = get(withEmail, "ord_pending")
		if o.GetStatus() != ordersv1.OrderStatus_ORDER_STATUS_READY_TO_SHIP || o.ShipByDate != nil || o.SlaBreached != nil {
			t.Errorf("pending: status %v shipByDate %v slaBreached %v", o.GetStatus(), o.ShipByDate, o.SlaBreached)
		}

		o = get(withEmail, "ord_shipped_late")
		if o.GetStatus() != ordersv1.OrderStatus_ORDER_STATUS_SHIPPED {
			t.Errorf("status %v", o.GetStatus())
		}
		if o.SlaBreached == nil || *o.SlaBreached {
			t.Errorf("shipped late: slaBreached %v, want present false", o.SlaBreached)
		}
		if o.BookingStatus != nil {
			t.Errorf("shipped order shows bookingStatus %v", *o.BookingStatus)
		}
		if o.ShippingChannel == nil || len(o.GetFulfillments()) != 1 {
			t.Errorf("channel %v fulfillments %d", o.ShippingChannel, len(o.GetFulfillments()))
		}
		f := o.GetFulfillments()[0]
		if f.GetStatus() != ordersv1.FulfillmentStatus_FULFILLMENT_STATUS_SHIPPED || f.GetMetadata().GetTrackingNumber() != f.GetTrackingNumber() ||
			f.GetMetadata().GetTrackingCompany() != "J&T Express" || f.GetOrderId() != o.GetId() || len(f.GetItems()) != 2 {
			t.Errorf("fulfillment %v", f)
		}

		o = get(withEmail, "ord_delivered")
		if o.ShipByDate != nil || o.SlaBreached != nil {
			t.Errorf("no deadline: shipByDate %v slaBreached %v", o.ShipByDate, o.SlaBreached)
		}
		if o.BuyerEmail != nil {
			t.Errorf("no stored email, got %q", *o.BuyerEmail)
		}
		if o.ShippingChannel != nil {
			t.Errorf("empty channel should be absent, got %q", *o.ShippingChannel)
		}
		items := o.GetItems()
		if len(items) != 2 || items[0].VariantId == nil || items[0].Thumbnail == nil || items[1].VariantId != nil || items[1].Thumbnail != nil {
			t.Errorf("item presence: %v", items)
		}
		if items[0].GetOrderId() != o.GetId() || items[0].GetQuantity()*items[0].GetUnitPrice() != items[0].GetTotalPrice() {
			t.Errorf("item: %v", items[0])
		}
		if o.GetShippingAddress().Line2 != nil || o.GetBillingAddress().Line2 == nil {
			t.Errorf("line2 presence: %v / %v", o.GetShippingAddress(), o.GetBillingAddress())
		}

		o = get(withEmail, "ord_cancelled")
		if o.SlaBreached == nil || *o.SlaBreached {
			t.Errorf("cancelled with an old deadline: slaBreached %v, want present false", o.SlaBreached)
		}

		// Without the scope the email is absent, on reads and listings.
		noEmail := as(partner("sel_a", "orders:read"))
		if o := get(noEmail, "ord_rts_late"); o.BuyerEmail != nil {
			t.Errorf("buyerEmail without scope: %q", *o.BuyerEmail)
		}
		list, err := h.client.ListOrders(noEmail, &ordersv1.ListOrdersRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range list.GetData() {
			if o.BuyerEmail != nil {
				t.Errorf("listing leaks buyerEmail of %s without scope", o.GetId())
			}
		}

		// Time passes on the injected clock: the due order becomes late.
		h.clock.Advance(31 * time.Hour)
		if o := get(withEmail, "ord_paid_due"); o.SlaBreached == nil || !*o.SlaBreached {
			t.Errorf("after the deadline: slaBreached %v, want true", o.SlaBreached)
		}
		if o := get(withEmail, "ord_shipped_late"); o.SlaBreached == nil || *o.SlaBreached {
			t.Errorf("shipped stays false: %v", o.SlaBreached)
		}
	})
}

func TestServiceSellerIsolation(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		createSellers(t, d.Ent, "sel_a", "sel_b")
		h := newHarness(t, d, serviceNow)
		seedPresenceFixtures(t, h.store)
		ctxA := as(partner("sel_a", "orders:read"))
		for _, id := range []string{"ord_foreign", "ord_missing"} {
			_, err := h.client.GetOrder(ctxA, &ordersv1.GetOrderRequest{Id: id})
			if codeOf(err) != apierr.NotFound {
				t.Errorf("GetOrder(%s) as sel_a: %v, want NOT_FOUND", id, err)
			}
		}
		foreign, missing := status.Convert(mustErr(h.client.GetOrder(ctxA, &ordersv1.GetOrderRequest{Id: "ord_foreign"}))),
			status.Convert(mustErr(h.client.GetOrder(ctxA, &ordersv1.GetOrderRequest{Id: "ord_missing"})))
		if foreign.Code() != missing.Code() || foreign.Message() != missing.Message() {
			t.Errorf("foreign and missing orders answer differently: %v vs %v", foreign, missing)
		}
		if _, err := h.client.GetOrder(as(partner("sel_b", "orders:read")), &ordersv1.GetOrderRequest{Id: "ord_foreign"}); err != nil {
			t.Errorf("owner reads its order: %v", err)
		}
		res, err := h.client.ListOrders(ctxA, &ordersv1.ListOrdersRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if res.GetMeta().GetTotal() != 6 || len(res.GetData()) != 6 {
			t.Errorf("sel_a sees %d of total %d", len(res.GetData()), res.GetMeta().GetTotal())
		}
		for _, o := range res.GetData() {
			if o.GetSellerId() != "sel_a" {
				t.Errorf("sel_a sees %s of %s", o.GetId(), o.GetSellerId())
			}
		}
		// A seller id that another seller's token does not match is refused
		// before any query runs.
		wrong := partner("sel_a", "orders:read")
		wrong.AccessToken = testSellers["sel_b"]
		if _, err := h.client.GetOrder(as(wrong), &ordersv1.GetOrderRequest{Id: "ord_rts_late"}); codeOf(err) != apierr.Unauthorized {
			t.Errorf("token of another seller: %v", err)
		}
	})
}

func mustErr[T any](_ T, err error) error { return err }

func TestServiceListing(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		createSellers(t, d.Ent, "sel_a", "sel_b")
		h := newHarness(t, d, serviceNow)
		seedPresenceFixtures(t, h.store)
		ctx := as(partner("sel_a", "orders:read"))
		list := func(req *ordersv1.ListOrdersRequest) *ordersv1.ListOrdersResponse {
			t.Helper()
			res, err := h.client.ListOrders(ctx, req)
			if err != nil {
				t.Fatalf("ListOrders(%v): %v", req, err)
			}
			return res
		}
		idsOf := func(res *ordersv1.ListOrdersResponse) []string {
			var out []string
			for _, o := range res.GetData() {
				out = append(out, o.GetId())
			}
			return out
		}
		newestFirst := []string{"ord_pending", "ord_paid_due", "ord_rts_late", "ord_shipped_late", "ord_cancelled", "ord_delivered"}

		res := list(&ordersv1.ListOrdersRequest{})
		if got := idsOf(res); !reflect.DeepEqual(got, newestFirst) {
			t.Errorf("default sort: %v", got)
		}
		if m := res.GetMeta(); m.GetPage() != 1 || m.GetLimit() != 20 || m.GetTotal() != 6 || m.NextCursor != nil {
			t.Errorf("default meta: %v", m)
		}

		// Walk by cursor, two at a time, in both directions.
		for _, sort := range []ordersv1.OrderSort{ordersv1.OrderSort_ORDER_SORT_CREATED_AT_DESC, ordersv1.OrderSort_ORDER_SORT_CREATED_AT_ASC} {
			var got []string
			req := &ordersv1.ListOrdersRequest{Limit: proto.Int32(2), Sort: sort.Enum()}
			for page := int32(1); ; page++ {
				res := list(req)
				if m := res.GetMeta(); m.GetPage() != page || m.GetLimit() != 2 || m.GetTotal() != 6 {
					t.Errorf("%v page %d meta: %v", sort, page, m)
				}
				got = append(got, idsOf(res)...)
				if res.GetMeta().NextCursor == nil {
					break
				}
				req.Cursor = res.GetMeta().NextCursor
			}
			want := append([]string(nil), newestFirst...)
			if sort == ordersv1.OrderSort_ORDER_SORT_CREATED_AT_ASC {
				for i, j := 0, len(want)-1; i < j; i, j = i+1, j-1 {
					want[i], want[j] = want[j], want[i]
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%v walk: %v, want %v", sort, got, want)
			}
		}

		// page is an offset into the same order when no cursor is sent.
		res = list(&ordersv1.ListOrdersRequest{Page: proto.Int32(2), Limit: proto.Int32(4)})
		if got := idsOf(res); !reflect.DeepEqual(got, newestFirst[4:]) || res.GetMeta().GetPage() != 2 || res.GetMeta().NextCursor != nil {
			t.Errorf("page 2: %v meta %v", got, res.GetMeta())
		}

		// READY_TO_SHIP matches the stored pre-shipment states.
		res = list(&ordersv1.ListOrdersRequest{Status: ordersv1.OrderStatus_ORDER_STATUS_READY_TO_SHIP.Enum()})
		if got := idsOf(res); !reflect.DeepEqual(got, []string{"ord_pending", "ord_paid_due", "ord_rts_late"}) || res.GetMeta().GetTotal() != 3 {
			t.Errorf("READY_TO_SHIP: %v total %d", got, res.GetMeta().GetTotal())
		}
		res = list(&ordersv1.ListOrdersRequest{Status: ordersv1.OrderStatus_ORDER_STATUS_SHIPPED.Enum()})
		if got := idsOf(res); !reflect.DeepEqual(got, []string{"ord_shipped_late"}) || res.GetMeta().GetTotal() != 1 {
			t.Errorf("SHIPPED: %v", got)
		}

		// created_after is inclusive, created_before exclusive.
		bound := timestamppb.New(serviceNow.Add(-3 * time.Hour)) // ord_paid_due's creation
		res = list(&ordersv1.ListOrdersRequest{CreatedAfter: bound})
		if got := idsOf(res); !reflect.DeepEqual(got, []string{"ord_pending", "ord_paid_due"}) || res.GetMeta().GetTotal() != 2 {
			t.Errorf("created_after: %v", got)
		}
		res = list(&ordersv1.ListOrdersRequest{CreatedBefore: bound, Limit: proto.Int32(1)})
		if got := idsOf(res); !reflect.DeepEqual(got, []string{"ord_rts_late"}) || res.GetMeta().GetTotal() != 4 || res.GetMeta().NextCursor == nil {
			t.Errorf("created_before: %v meta %v", got, res.GetMeta())
		}
	})
}

func TestServiceRejections(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		createSellers(t, d.Ent, "sel_a", "sel_b")
		h := newHarness(t, d, serviceNow)
		seedPresenceFixtures(t, h.store)
		ctx := as(partner("sel_a", "orders:read"))

		first, err := h.client.ListOrders(ctx, &ordersv1.ListOrdersRequest{Limit: proto.Int32(2)})
		if err != nil || first.GetMeta().NextCursor == nil {
			t.Fatalf("first page: %v %v", first, err)
		}
		cursor := first.GetMeta().GetNextCursor()

		cases := []struct {
			name string
			ctx  context.Context
			req  *ordersv1.ListOrdersRequest
			want apierr.Code
		}{
			{"garbage cursor", ctx, &ordersv1.ListOrdersRequest{Cursor: proto.String("not-a-cursor")}, apierr.BadRequest},
			{"cursor under another sort", ctx, &ordersv1.ListOrdersRequest{Cursor: &cursor, Sort: ordersv1.OrderSort_ORDER_SORT_CREATED_AT_ASC.Enum()}, apierr.BadRequest},
			{"cursor under another status", ctx, &ordersv1.ListOrdersRequest{Cursor: &cursor, Status: ordersv1.OrderStatus_ORDER_STATUS_SHIPPED.Enum()}, apierr.BadRequest},
			{"another seller's cursor", as(partner("sel_b", "orders:read")), &ordersv1.ListOrdersRequest{Cursor: &cursor}, apierr.BadRequest},
			{"limit 0", ctx, &ordersv1.ListOrdersRequest{Limit: proto.Int32(0)}, apierr.ValidationError},
			{"limit 101", ctx, &ordersv1.ListOrdersRequest{Limit: proto.Int32(101)}, apierr.ValidationError},
			{"page 0", ctx, &ordersv1.ListOrdersRequest{Page: proto.Int32(0)}, apierr.ValidationError},
			{"status PENDING", ctx, &ordersv1.ListOrdersRequest{Status: ordersv1.OrderStatus_ORDER_STATUS_PENDING.Enum()}, apierr.ValidationError},
			{"status PAID", ctx, &ordersv1.ListOrdersRequest{Status: ordersv1.OrderStatus_ORDER_STATUS_PAID.Enum()}, apierr.ValidationError},
			{"status unknown", ctx, &ordersv1.ListOrdersRequest{Status: ordersv1.OrderStatus(42).Enum()}, apierr.ValidationError},
			{"sort unspecified", ctx, &ordersv1.ListOrdersRequest{Sort: ordersv1.OrderSort_ORDER_SORT_UNSPECIFIED.Enum()}, apierr.ValidationError},
			{"sort unknown", ctx, &ordersv1.ListOrdersRequest{Sort: ordersv1.OrderSort(9).Enum()}, apierr.ValidationError},
			{"created_after invalid", ctx, &ordersv1.ListOrdersRequest{CreatedAfter: &timestamppb.Timestamp{Seconds: 1, Nanos: -5}}, apierr.ValidationError},
			{"missing scope", as(partner("sel_a", "catalog:read")), &ordersv1.ListOrdersRequest{}, apierr.Forbidden},
			{"missing seller headers", as(partner("", "orders:read")), &ordersv1.ListOrdersRequest{}, apierr.SellerTokenRequired},
			{"missing internal credential", metadata.AppendToOutgoingContext(context.Background(), partner("sel_a", "orders:read").AppendMetadata(nil)...), &ordersv1.ListOrdersRequest{}, apierr.Unauthorized},
		}
		for _, tc := range cases {
			_, err := h.client.ListOrders(tc.ctx, tc.req)
			if got := codeOf(err); got != tc.want {
				t.Errorf("%s: %v (%s), want %s", tc.name, apierr.Name(got), err, apierr.Name(tc.want))
			}
		}

		getCases := []struct {
			name string
			ctx  context.Context
			id   string
			want apierr.Code
		}{
			{"empty id", ctx, "", apierr.ValidationError},
			{"missing scope", as(partner("sel_a")), "ord_rts_late", apierr.Forbidden},
			{"missing seller headers", as(partner("", "orders:read")), "ord_rts_late", apierr.SellerTokenRequired},
		}
		for _, tc := range getCases {
			_, err := h.client.GetOrder(tc.ctx, &ordersv1.GetOrderRequest{Id: tc.id})
			if got := codeOf(err); got != tc.want {
				t.Errorf("GetOrder %s: %v (%s), want %s", tc.name, apierr.Name(got), err, apierr.Name(tc.want))
			}
		}
	})
}

// TestServiceSeededSandbox reads seeded orders through the API, the way a
// partner meets the sandbox.
