package orders

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
)

var t0 = time.Date(2026, 3, 1, 4, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

// fixture builds an order with two items and, when shipped, a fulfillment.
func fixture(id, seller string, st Status, created time.Time) *Order {
	o := &Order{
		ID: id, SellerID: seller, CustomerID: "cus_" + id, BuyerEmail: id + "@example.ph",
		Status: st, Currency: "PHP", Subtotal: 150000, Shipping: 5000, Tax: 0, Discount: 10000, Total: 145000,
		PaymentStatus: "paid", FulfillmentStatus: "unfulfilled",
		ShippingAddress: Address{Name: "Ana Reyes", Line1: "12 Rizal St., Brgy. Poblacion", City: "City of Makati",
			Province: "National Capital Region (NCR)", PostalCode: "1200", Country: "PH", Phone: "+639171234567"},
		BillingAddress: Address{Name: "Ana Reyes", Line1: "12 Rizal St., Brgy. Poblacion", Line2: ptr("Unit 5B"), City: "City of Makati",
			Province: "National Capital Region (NCR)", PostalCode: "1200", Country: "PH", Phone: "+639171234567"},
		CreatedAt: created, UpdatedAt: created.Add(time.Minute),
		Items: []Item{
			{ID: id + "_i1", OrderID: id, ProductID: "prd_1", VariantID: ptr("var_1"), Title: "Power Bank", SKU: "PB-1", Quantity: 2, UnitPrice: 50000, TotalPrice: 100000, Thumbnail: ptr("https://cdn.example.ph/pb.jpg")},
			{ID: id + "_i2", OrderID: id, ProductID: "prd_2", Title: "Cable", SKU: "", Quantity: 1, UnitPrice: 50000, TotalPrice: 50000},
		},
	}
	if !st.PreShipment() && st != StatusCancelled {
		o.Fulfillments = []Fulfillment{{
			ID: id + "_f1", OrderID: id, Status: FulfillmentShipped, TrackingNumber: "JT0001", TrackingCompany: "J&T Express",
			Items:     []FulfillmentItem{{ItemID: id + "_i1", Quantity: 2}, {ItemID: id + "_i2", Quantity: 1}},
			CreatedAt: created.Add(time.Hour), UpdatedAt: created.Add(2 * time.Hour),
		}}
	}
	return o
}

func newTestStore(t *testing.T, d *db.DB, sellers ...string) *EntStore {
	t.Helper()
	createSellers(t, d.Ent, sellers...)
	return NewEntStore(d)
}

func mustCreate(t testing.TB, st Store, orders ...*Order) {
	t.Helper()
	if err := st.CreateOrders(context.Background(), orders); err != nil {
		t.Fatalf("create orders: %v", err)
	}
}

func ids(os []*Order) []string {
	out := make([]string, len(os))
	for i, o := range os {
		out[i] = o.ID
	}
	return out
}

// listAll reads every page with keyset cursors.
func listAll(t testing.TB, st Store, seller string, f Filter, asc bool, limit int) []string {
	t.Helper()
	var out []string
	p := Page{Ascending: asc, Limit: limit}
	for range 1000 {
		rows, more, err := st.ListOrders(context.Background(), seller, f, p)
		if err != nil {
			t.Fatalf("list: %v", err)
		}
		out = append(out, ids(rows)...)
		if !more {
			return out
		}
		last := rows[len(rows)-1]
		p.After = &Key{CreatedAt: last.CreatedAt, ID: last.ID}
	}
	t.Fatal("listing did not end")
	return nil
}

// normalized strips representation differences (time zones) that do not
// change meaning, so round trips compare with DeepEqual.
func normalized(o *Order) *Order {
	c := *o
	u := func(t time.Time) time.Time { return t.UTC() }
	up := func(t *time.Time) *time.Time {
		if t == nil {
			return nil
		}
		v := t.UTC()
		return &v
	}
	c.CreatedAt, c.UpdatedAt = u(o.CreatedAt), u(o.UpdatedAt)
	c.ShipByDate, c.ShippedAt = up(o.ShipByDate), up(o.ShippedAt)
	c.Fulfillments = nil
	for _, f := range o.Fulfillments {
		f.CreatedAt, f.UpdatedAt = u(f.CreatedAt), u(f.UpdatedAt)
		c.Fulfillments = append(c.Fulfillments, f)
	}
	if len(c.Items) == 0 {
		c.Items = nil
	}
	return &c
}

func TestStoreRoundTrip(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		st := newTestStore(t, d, "sel_a")
		full := fixture("ord_full", "sel_a", StatusShipped, t0)
		full.ShipByDate = ptr(t0.Add(48 * time.Hour))
		full.ShippedAt = ptr(t0.Add(time.Hour))
		full.ShippingChannel = ptr("JNT_STANDARD")
		full.BookingStatus = ptr(BookingReadyForHandover)
		bare := fixture("ord_bare", "sel_a", StatusPending, t0.Add(time.Second))
		bare.BuyerEmail = ""
		// Text the JSON column must escape and the decoder unescape, and
		// times with microseconds (PostgreSQL's precision).
		text := fixture("ord_text", "sel_a", StatusDelivered, t0.Add(123456*time.Microsecond))
		text.Items[0].Title = "Quote \" backslash \\ <b>&amp; tab\t nl\n cr\r ctrl\x01\x1f bs\b ff\f ls\u2028 ps\u2029 ñ 日本 😀 \\u0041"
		text.ShippingAddress.Line2 = ptr("")
		text.BillingAddress.Name = "O'Brien \"Jun\" / Dela Cruz"
		text.Fulfillments[0].TrackingCompany = "J&T \\ \"Express\""
		text.Fulfillments[0].UpdatedAt = t0.Add(999999 * time.Microsecond)
		mustCreate(t, st, full, bare, text)

		for _, want := range []*Order{full, bare, text} {
			got, err := st.GetOrder(context.Background(), "sel_a", want.ID)
			if err != nil {
				t.Fatalf("get %s: %v", want.ID, err)
			}
			if g, w := normalized(got), normalized(want); !reflect.DeepEqual(g, w) {
				t.Errorf("round trip of %s:\n got %+v\nwant %+v", want.ID, g, w)
			}
		}
	})
}

func TestStoreSellerIsolation(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		st := newTestStore(t, d, "sel_a", "sel_b")
		mustCreate(t, st,
			fixture("ord_a1", "sel_a", StatusShipped, t0),
			fixture("ord_a2", "sel_a", StatusPaid, t0.Add(time.Minute)),
			fixture("ord_b1", "sel_b", StatusShipped, t0.Add(2*time.Minute)),
		)
		ctx := context.Background()
		if _, err := st.GetOrder(ctx, "sel_a", "ord_b1"); !errors.Is(err, ErrNotFound) {
			t.Errorf("foreign order: %v, want ErrNotFound", err)
		}
		if _, err := st.GetOrder(ctx, "sel_a", "ord_missing"); !errors.Is(err, ErrNotFound) {
			t.Errorf("missing order: %v, want ErrNotFound", err)
		}
		if _, err := st.GetOrder(ctx, "", "ord_a1"); !errors.Is(err, ErrNotFound) {
			t.Errorf("no seller: %v, want ErrNotFound", err)
		}
		if got := listAll(t, st, "sel_a", Filter{}, true, 10); !reflect.DeepEqual(got, []string{"ord_a1", "ord_a2"}) {
			t.Errorf("sel_a lists %v", got)
		}
		if got := listAll(t, st, "sel_b", Filter{}, true, 10); !reflect.DeepEqual(got, []string{"ord_b1"}) {
			t.Errorf("sel_b lists %v", got)
		}
		if rows, _, _ := st.ListOrders(ctx, "", Filter{}, Page{Limit: 10}); len(rows) != 0 {
			t.Errorf("no seller lists %v", ids(rows))
		}
		if n, _ := st.CountOrders(ctx, "sel_a", Filter{}); n != 2 {
			t.Errorf("sel_a count %d", n)
		}
		if n, _ := st.CountOrders(ctx, "", Filter{}); n != 0 {
			t.Errorf("no seller count %d", n)
		}
	})
}

func TestStoreFiltersAndTotals(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		st := newTestStore(t, d, "sel_a", "sel_b")
		statuses := []Status{StatusPending, StatusPaid, StatusReadyToShip, StatusShipped, StatusDelivered, StatusCancelled, StatusReturnRefund}
		var all []*Order
		for i := range 14 {
			all = append(all, fixture(fmt.Sprintf("ord_%02d", i), "sel_a", statuses[i%7], t0.Add(time.Duration(i)*time.Hour)))
		}
		mustCreate(t, st, all...)
		// Noise on another seller at the same instants must never count.
		mustCreate(t, st, fixture("ord_b_00", "sel_b", StatusPaid, t0), fixture("ord_b_05", "sel_b", StatusShipped, t0.Add(5*time.Hour)))

		at := func(h int) *time.Time { return ptr(t0.Add(time.Duration(h) * time.Hour)) }
		cases := []struct {
			name string
			f    Filter
			want []string
		}{
			{"all", Filter{}, []string{"ord_00", "ord_01", "ord_02", "ord_03", "ord_04", "ord_05", "ord_06", "ord_07", "ord_08", "ord_09", "ord_10", "ord_11", "ord_12", "ord_13"}},
			{"one status", Filter{Statuses: []Status{StatusShipped}}, []string{"ord_03", "ord_10"}},
			{"pre-shipment set", Filter{Statuses: StoredStatuses(StatusReadyToShip)}, []string{"ord_00", "ord_01", "ord_02", "ord_07", "ord_08", "ord_09"}},
			{"after is inclusive", Filter{CreatedAfter: at(12)}, []string{"ord_12", "ord_13"}},
			{"before is exclusive", Filter{CreatedBefore: at(2)}, []string{"ord_00", "ord_01"}},
			{"window", Filter{CreatedAfter: at(3), CreatedBefore: at(6)}, []string{"ord_03", "ord_04", "ord_05"}},
			{"window and status", Filter{CreatedAfter: at(3), CreatedBefore: at(11), Statuses: []Status{StatusShipped}}, []string{"ord_03", "ord_10"}},
			{"empty window", Filter{CreatedAfter: at(5), CreatedBefore: at(5)}, nil},
			{"after in another zone", Filter{CreatedAfter: ptr(t0.Add(12 * time.Hour).In(time.FixedZone("PHT", 8*3600)))}, []string{"ord_12", "ord_13"}},
		}
		for _, tc := range cases {
			got := listAll(t, st, "sel_a", tc.f, true, 4)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
			}
			n, err := st.CountOrders(context.Background(), "sel_a", tc.f)
			if err != nil || n != int64(len(tc.want)) {
				t.Errorf("%s: count %d (%v), want %d", tc.name, n, err, len(tc.want))
			}
		}
	})
}

func TestStoreSortsBreakTiesByID(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		st := newTestStore(t, d, "sel_a")
		// Three orders share an instant: the id decides, in the same
		// direction as the time, so keyset pages never skip one of them.
		mustCreate(t, st,
			fixture("ord_c", "sel_a", StatusPaid, t0.Add(time.Second)),
			fixture("ord_a", "sel_a", StatusPaid, t0.Add(time.Second)),
			fixture("ord_b", "sel_a", StatusPaid, t0.Add(time.Second)),
			fixture("ord_z", "sel_a", StatusPaid, t0),
			fixture("ord_0", "sel_a", StatusPaid, t0.Add(2*time.Second)),
		)
		asc := []string{"ord_z", "ord_a", "ord_b", "ord_c", "ord_0"}
		desc := []string{"ord_0", "ord_c", "ord_b", "ord_a", "ord_z"}
		for _, limit := range []int{1, 2, 10} {
			if got := listAll(t, st, "sel_a", Filter{}, true, limit); !reflect.DeepEqual(got, asc) {
				t.Errorf("asc limit %d: %v", limit, got)
			}
			if got := listAll(t, st, "sel_a", Filter{}, false, limit); !reflect.DeepEqual(got, desc) {
				t.Errorf("desc limit %d: %v", limit, got)
			}
		}
		// Offsets walk the same order.
		for i, want := range desc {
			rows, more, err := st.ListOrders(context.Background(), "sel_a", Filter{}, Page{Limit: 1, Offset: i})
			if err != nil || len(rows) != 1 || rows[0].ID != want || more != (i < len(desc)-1) {
				t.Errorf("offset %d: %v more=%v err=%v, want %s", i, ids(rows), more, err, want)
			}
		}
	})
}

func TestStoreKeysetStableUnderConcurrentInserts(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		st := newTestStore(t, d, "sel_a")
		var initial []*Order
		for i := range 40 {
			initial = append(initial, fixture(fmt.Sprintf("ord_%03d", i), "sel_a", StatusPaid, t0.Add(time.Duration(i)*time.Minute)))
		}
		mustCreate(t, st, initial...)

		// A writer keeps adding newer orders while the readers page through.
		ctx, stop := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		var inserted atomic.Int64
		writerDone := make(chan struct{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(writerDone)
			for i := 0; ctx.Err() == nil && i < 200; i++ {
				o := fixture(fmt.Sprintf("ord_new_%03d", i), "sel_a", StatusPaid, t0.Add(24*time.Hour+time.Duration(i)*time.Second))
				if err := st.CreateOrders(context.Background(), []*Order{o}); err != nil {
					t.Errorf("concurrent insert: %v", err)
					return
				}
				inserted.Add(1)
			}
		}()
		waitFor := func(n int64) {
			for inserted.Load() < n {
				select {
				case <-writerDone:
					return
				case <-time.After(time.Millisecond):
				}
			}
		}

		walk := func(asc bool) []string {
			var out []string
			p := Page{Ascending: asc, Limit: 7}
			for {
				rows, more, err := st.ListOrders(context.Background(), "sel_a", Filter{}, p)
				if err != nil {
					t.Fatalf("list: %v", err)
				}
				out = append(out, ids(rows)...)
				// Let the writer land rows between every two pages.
				waitFor(inserted.Load() + 1)
				if !more || (asc && len(out) >= len(initial)) {
					return out
				}
				last := rows[len(rows)-1]
				p.After = &Key{CreatedAt: last.CreatedAt, ID: last.ID}
			}
		}
		want := ids(initial)
		desc := walk(false)
		asc := walk(true)
		stop()
		wg.Wait()

		// Newest first: rows inserted above the cursor never shift a page.
		var descOld []string
		for _, id := range desc {
			if len(id) < 8 || id[:8] != "ord_new_" {
				descOld = append(descOld, id)
			}
		}
		sort.Sort(sort.Reverse(sort.StringSlice(want)))
		if !reflect.DeepEqual(descOld, want) {
			t.Errorf("desc walk under inserts lost or repeated orders:\n got %v\nwant %v", descOld, want)
		}
		seen := map[string]bool{}
		for _, id := range desc {
			if seen[id] {
				t.Errorf("desc walk repeated %s", id)
			}
			seen[id] = true
		}
		// Oldest first: the original orders come first and exactly once.
		sort.Strings(want)
		if len(asc) < len(want) || !reflect.DeepEqual(asc[:len(want)], want) {
			t.Errorf("asc walk under inserts: got %v", asc)
		}
	})
}

func TestStoreLoadsChildrenInOrder(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		st := newTestStore(t, d, "sel_a")
		o := fixture("ord_multi", "sel_a", StatusDelivered, t0)
		o.Items = append(o.Items, Item{ID: "ord_multi_i0", OrderID: o.ID, ProductID: "prd_0", Title: "Third line", Quantity: 1, UnitPrice: 100, TotalPrice: 100})
		second := o.Fulfillments[0]
		second.ID, second.CreatedAt = "ord_multi_f0", t0.Add(3*time.Hour)
		o.Fulfillments = append(o.Fulfillments, second)
		mustCreate(t, st, o, fixture("ord_other", "sel_a", StatusShipped, t0.Add(time.Hour)))

		rows, _, err := st.ListOrders(context.Background(), "sel_a", Filter{}, Page{Ascending: true, Limit: 10})
		if err != nil || len(rows) != 2 {
			t.Fatalf("list: %v %v", ids(rows), err)
		}
		got := rows[0]
		var itemIDs, fulIDs []string
		for _, it := range got.Items {
			itemIDs = append(itemIDs, it.ID)
		}
		for _, f := range got.Fulfillments {
			fulIDs = append(fulIDs, f.ID)
		}
		if !reflect.DeepEqual(itemIDs, []string{"ord_multi_i1", "ord_multi_i2", "ord_multi_i0"}) {
			t.Errorf("items not in checkout order: %v", itemIDs)
		}
		if !reflect.DeepEqual(fulIDs, []string{"ord_multi_f1", "ord_multi_f0"}) {
			t.Errorf("fulfillments not oldest first: %v", fulIDs)
		}
		if len(rows[1].Items) != 2 || len(rows[1].Fulfillments) != 1 || rows[1].Items[0].OrderID != "ord_other" {
			t.Errorf("second order's children mixed up: %+v", rows[1])
		}
	})
}
