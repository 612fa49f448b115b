// Package ordergen makes realistic sandbox orders: every stored status, every
// presence case of the partner view, Philippine addresses from the PSGC list.
// The sandbox seeds test shops with it, and its lifecycle tools will create
// orders with it at run time.
package ordergen

import (
	"context"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/psgc"
	"github.com/mallplatform/partnerapi/services/orders"
)

// MinOrders is the fewest orders Seed writes for a seller: enough
// for every status and every presence case of the partner view to appear.
const MinOrders = 25

// Product is a catalog entry that seeded order lines may reference.
type Product struct {
	ProductID string
	// VariantID is "" for a product without variants (the line then omits
	// variantId).
	VariantID string
	Title     string
	SKU       string
	// UnitPrice is in centavos.
	UnitPrice int64
	// Thumbnail is an https URL, or "" (the line then omits thumbnail).
	Thumbnail string
}

// Seed writes realistic sandbox orders for an existing seller: n of
// them (at least MinOrders) across every stored status, created over the
// 60 days before now. Lines reference products, or, when products is empty,
// a built-in list of plausible Philippine mall products with made-up ids
// (the catalog is seeded separately and need not contain them: an order line
// is a checkout snapshot, not a reference the platform resolves). The same
// rng state, seller, products, n and now give the same orders, ids included.
func Seed(ctx context.Context, st orders.Store, sellerID string, products []Product, n int, now time.Time, rng *rand.Rand) error {
	orders, err := Generate(sellerID, products, n, now, rng)
	if err != nil {
		return err
	}
	return st.CreateOrders(ctx, orders)
}

// Generate builds what Seed writes, without touching storage.
func Generate(sellerID string, products []Product, n int, now time.Time, rng *rand.Rand) ([]*orders.Order, error) {
	if sellerID == "" {
		return nil, fmt.Errorf("ordergen: seller id is required")
	}
	if rng == nil {
		return nil, fmt.Errorf("ordergen: rng is required for reproducible seeds")
	}
	n = max(n, MinOrders)
	now = now.UTC().Truncate(time.Millisecond)
	if len(products) == 0 {
		products = builtinProducts(now, rng)
	}
	for _, p := range products {
		if p.ProductID == "" || p.Title == "" || p.UnitPrice < 0 {
			return nil, fmt.Errorf("ordergen: product %q needs an id, a title and a non-negative price", p.ProductID)
		}
	}
	customers := make([]seedCustomer, max(6, n/3))
	for i := range customers {
		customers[i] = newCustomer(now, rng)
	}
	out := make([]*orders.Order, n)
	for i := range n {
		sc := scenario{status: pickStatus(rng), random: true}
		if i < len(fixedScenarios) {
			sc = fixedScenarios[i]
		}
		out[i] = generateOrder(sellerID, sc, products, customers[rng.IntN(len(customers))], now, rng)
	}
	return out, nil
}

type deadlineKind int

const (
	deadlineNone deadlineKind = iota
	deadlinePast
	deadlineFuture
)

// scenario pins what an order must show; a random one draws its deadline,
// booking and channel from the rng instead.
type scenario struct {
	status   orders.Status
	random   bool
	deadline deadlineKind
	booking  orders.BookingStatus // "" for none
	channel  bool
	// fresh: the order is placed at now, with these lines and this ship-by
	// deadline (a sandbox test order) rather than drawn from the past.
	fresh  bool
	lines  []Line
	shipBy *time.Time
}

// Line is one line of a test order: a product and a quantity.
type Line struct {
	Product  Product
	Quantity int64
}

// Fresh makes one order placed now by a new customer, in status (PENDING,
// PAID or READY_TO_SHIP) with the given lines, for the sandbox's test-order
// tool. shipBy nil gives a paid order the platform's default deadline (the
// end of the second Manila day) and a pending one none.
func Fresh(sellerID string, status orders.Status, lines []Line, shipBy *time.Time, now time.Time, rng *rand.Rand) (*orders.Order, error) {
	if sellerID == "" || len(lines) == 0 || !status.PreShipment() {
		return nil, fmt.Errorf("ordergen: a test order needs a seller, lines and a pre-shipment status")
	}
	for _, l := range lines {
		if l.Product.ProductID == "" || l.Product.Title == "" || l.Product.UnitPrice < 0 || l.Quantity < 1 {
			return nil, fmt.Errorf("ordergen: line %q needs an id, a title, a non-negative price and a quantity", l.Product.ProductID)
		}
	}
	now = now.UTC().Truncate(time.Millisecond)
	sc := scenario{status: status, fresh: true, lines: lines, shipBy: shipBy, deadline: deadlineFuture}
	if status == orders.StatusPending {
		sc.deadline = deadlineNone
	}
	if status == orders.StatusReadyToShip {
		sc.booking = orders.BookingPendingArrange
	}
	return generateOrder(sellerID, sc, nil, newCustomer(now, rng), now, rng), nil
}

// fixedScenarios open every seed so that each status, and each presence case
// of slaBreached, bookingStatus and shippingChannel, is present whatever the
// rng draws afterwards.
var fixedScenarios = []scenario{
	{status: orders.StatusPending, deadline: deadlineNone},
	{status: orders.StatusPaid, deadline: deadlineFuture},
	{status: orders.StatusReadyToShip, deadline: deadlinePast, booking: orders.BookingPendingArrange},
	{status: orders.StatusReadyToShip, deadline: deadlineFuture, booking: orders.BookingReadyForHandover, channel: true},
	{status: orders.StatusReadyToShip, deadline: deadlineNone},
	{status: orders.StatusPaid, deadline: deadlinePast},
	{status: orders.StatusShipped, deadline: deadlinePast, channel: true},
	{status: orders.StatusDelivered, deadline: deadlineNone, channel: true},
	{status: orders.StatusCancelled, deadline: deadlineNone},
	{status: orders.StatusReturnRefund, deadline: deadlineNone, channel: true},
}

// statusWeights approximate a shop's mix: most orders delivered, a working
// queue of paid orders, a tail of cancellations and returns.
var statusWeights = []struct {
	status orders.Status
	weight int
}{
	{orders.StatusPending, 5}, {orders.StatusPaid, 8}, {orders.StatusReadyToShip, 20}, {orders.StatusShipped, 15},
	{orders.StatusDelivered, 35}, {orders.StatusCancelled, 10}, {orders.StatusReturnRefund, 7},
}

func pickStatus(rng *rand.Rand) orders.Status {
	total := 0
	for _, w := range statusWeights {
		total += w.weight
	}
	r := rng.IntN(total)
	for _, w := range statusWeights {
		if r < w.weight {
			return w.status
		}
		r -= w.weight
	}
	return orders.StatusDelivered
}

// ageRange is how long ago an order in a status was placed, in hours:
// unpaid and unshipped orders are recent, returns are old.
func ageRange(s orders.Status) (lo, hi int) {
	switch s {
	case orders.StatusPending:
		return 0, 48
	case orders.StatusPaid:
		return 0, 72
	case orders.StatusReadyToShip:
		return 0, 120
	case orders.StatusShipped:
		return 48, 240
	case orders.StatusReturnRefund:
		return 240, 1440
	case orders.StatusDelivered:
		return 120, 1440
	}
	return 0, 1440
}

type courier struct {
	company string
	channel string
	track   func(rng *rand.Rand) string
}

// couriers are the seeded channels (services/shipping/channels/channels.json)
// a generated order is routed to, so its pickup slots follow its own
// channel.
var couriers = []courier{
	{"J&T Express", "JNT_STANDARD", func(r *rand.Rand) string { return "JT" + digits(r, 12) }},
	{"LBC", "LBC_EXPRESS", func(r *rand.Rand) string { return digits(r, 14) }},
	{"Flash Express", "FLASH_STANDARD", func(r *rand.Rand) string { return "PH" + digits(r, 10) + "A" }},
	{"2GO Express", "TWOGO_BULKY", func(r *rand.Rand) string { return "2GO" + upperAlnum(r, 10) }},
}

func generateOrder(sellerID string, sc scenario, products []Product, cust seedCustomer, now time.Time, rng *rand.Rand) *orders.Order {
	lo, hi := ageRange(sc.status)
	switch sc.deadline {
	case deadlinePast:
		// Placed three or more Manila days ago with a two-day window.
		lo, hi = 80, 120
	case deadlineFuture:
		// Placed within the last few hours: the deadline is days away.
		lo, hi = 0, 6
	}
	created := now.Add(-time.Duration(lo)*time.Hour - time.Duration(rng.Int64N(int64(hi-lo)*int64(time.Hour)+1))).Truncate(time.Millisecond)
	if sc.fresh {
		created = now
	}
	o := &orders.Order{
		ID:         seedID("ord", created, rng),
		SellerID:   sellerID,
		CustomerID: cust.id,
		BuyerEmail: cust.email,
		Status:     sc.status,
		Currency:   "PHP",
		CreatedAt:  created,
	}

	// Lines: one to four distinct products, mostly single units.
	lines := sc.lines
	if !sc.fresh {
		nItems := 1 + weighted(rng, 50, 25, 15, 10)
		for _, idx := range rng.Perm(len(products))[:min(nItems, len(products))] {
			lines = append(lines, Line{Product: products[idx], Quantity: int64(1 + weighted(rng, 70, 20, 10))})
		}
	}
	for _, l := range lines {
		p, qty := l.Product, l.Quantity
		it := orders.Item{
			ID:         seedID("itm", created, rng),
			OrderID:    o.ID,
			ProductID:  p.ProductID,
			Title:      p.Title,
			SKU:        p.SKU,
			Quantity:   qty,
			UnitPrice:  p.UnitPrice,
			TotalPrice: qty * p.UnitPrice,
		}
		if p.VariantID != "" {
			v := p.VariantID
			it.VariantID = &v
		}
		if p.Thumbnail != "" {
			t := p.Thumbnail
			it.Thumbnail = &t
		}
		o.Items = append(o.Items, it)
		o.Subtotal += it.TotalPrice
	}

	// Addresses: the customer's home, sometimes shipped elsewhere (a gift or
	// an office) with billing left at home.
	o.BillingAddress = cust.address
	o.ShippingAddress = cust.address
	if rng.IntN(100) < 25 {
		o.ShippingAddress = newAddress(cust.name, cust.phone, rng)
	}

	// Money, all integer centavos: free shipping above ₱999 most of the
	// time, otherwise a whole-peso fee, lower inside Metro Manila; some
	// vouchers; VAT added only for cross-border sellers (local prices are
	// VAT-inclusive).
	switch {
	case o.Subtotal >= 99900 && rng.IntN(100) < 60:
		o.Shipping = 0
	case o.ShippingAddress.Province == "National Capital Region (NCR)":
		o.Shipping = 100 * (38 + rng.Int64N(18))
	default:
		o.Shipping = 100 * (70 + rng.Int64N(96))
	}
	if rng.IntN(100) < 30 {
		voucher := []int64{5000, 10000, 15000, 20000}[rng.IntN(4)]
		o.Discount = min(voucher, o.Subtotal/2/100*100)
	}
	if rng.IntN(100) < 10 {
		o.Tax = o.Subtotal * 12 / 100
	}
	o.Total = o.Subtotal + o.Shipping + o.Tax - o.Discount

	// Ship-by deadline: the end of the second Manila calendar day after the
	// order, for paid orders (checkout sets it at payment).
	hasDeadline := sc.deadline != deadlineNone
	if sc.random {
		switch {
		case sc.status == orders.StatusPending:
		case sc.status.PreShipment():
			hasDeadline = rng.IntN(100) < 80
		case sc.status == orders.StatusCancelled:
			hasDeadline = rng.IntN(100) < 20
		default:
			hasDeadline = rng.IntN(100) < 50
		}
	}
	if hasDeadline {
		m := created.In(clock.Manila)
		d := time.Date(m.Year(), m.Month(), m.Day()+2, 23, 59, 59, 0, clock.Manila).UTC()
		o.ShipByDate = &d
	}
	if sc.shipBy != nil {
		d := sc.shipBy.UTC().Truncate(time.Millisecond)
		o.ShipByDate = &d
	}

	// Booking and channel for the seller's working queue.
	c := couriers[rng.IntN(len(couriers))]
	booking := sc.booking
	if sc.random && sc.status == orders.StatusReadyToShip {
		switch rng.IntN(10) {
		case 0, 1, 2, 3:
			booking = orders.BookingPendingArrange
		case 4, 5, 6, 7:
			booking = orders.BookingReadyForHandover
		}
	}
	if booking != "" {
		b := booking
		o.BookingStatus = &b
	}
	channel := sc.channel || booking == orders.BookingReadyForHandover ||
		(booking == orders.BookingPendingArrange && rng.IntN(2) == 0) ||
		sc.status == orders.StatusShipped || sc.status == orders.StatusDelivered || sc.status == orders.StatusReturnRefund
	if channel {
		ch := c.channel
		o.ShippingChannel = &ch
	}

	// Payment, fulfillment state and shipments, in time order.
	paidAt := created.Add(time.Duration(1+rng.IntN(30)) * time.Minute)
	updated := created
	switch sc.status {
	case orders.StatusPending:
		o.PaymentStatus, o.FulfillmentStatus = "pending", "unfulfilled"
	case orders.StatusPaid, orders.StatusReadyToShip:
		o.PaymentStatus, o.FulfillmentStatus = "paid", "unfulfilled"
		updated = paidAt
		if booking == orders.BookingReadyForHandover {
			booked := paidAt.Add(time.Duration(1+rng.IntN(12)) * time.Hour)
			o.Fulfillments = shipments(o, c, orders.FulfillmentPending, booked, booked, rng)
			updated = booked
		}
	case orders.StatusShipped, orders.StatusDelivered, orders.StatusReturnRefund:
		o.PaymentStatus = "paid"
		shipped := paidAt.Add(time.Duration(12+rng.IntN(48)) * time.Hour)
		o.ShippedAt = &shipped
		updated = shipped
		fs := orders.FulfillmentShipped
		o.FulfillmentStatus = "shipped"
		if sc.status != orders.StatusShipped {
			fs = orders.FulfillmentDelivered
			updated = shipped.Add(time.Duration(24+rng.IntN(96)) * time.Hour)
			o.FulfillmentStatus = "delivered"
		}
		o.Fulfillments = shipments(o, c, fs, shipped, updated, rng)
		if sc.status == orders.StatusReturnRefund {
			o.PaymentStatus, o.FulfillmentStatus = "refunded", "returned"
			updated = updated.Add(time.Duration(48+rng.IntN(120)) * time.Hour)
		}
	case orders.StatusCancelled:
		o.FulfillmentStatus = "cancelled"
		o.PaymentStatus = "voided"
		if rng.IntN(2) == 0 {
			o.PaymentStatus = "refunded"
		}
		updated = paidAt.Add(time.Duration(rng.IntN(24)) * time.Hour)
	}
	o.UpdatedAt = clampTime(updated, created, now)
	for i := range o.Fulfillments {
		f := &o.Fulfillments[i]
		f.CreatedAt = clampTime(f.CreatedAt, created, now)
		f.UpdatedAt = clampTime(f.UpdatedAt, f.CreatedAt, now)
	}
	if o.ShippedAt != nil {
		s := clampTime(*o.ShippedAt, created, now)
		o.ShippedAt = &s
	}
	return o
}

// shipments covers every item: one parcel, or two when a larger order was
// split across warehouses.
func shipments(o *orders.Order, c courier, st orders.FulfillmentStatus, at, updated time.Time, rng *rand.Rand) []orders.Fulfillment {
	groups := [][]orders.Item{o.Items}
	if len(o.Items) >= 3 && rng.IntN(3) == 0 {
		cut := 1 + rng.IntN(len(o.Items)-1)
		groups = [][]orders.Item{o.Items[:cut], o.Items[cut:]}
	}
	out := make([]orders.Fulfillment, len(groups))
	for i, g := range groups {
		items := make([]orders.FulfillmentItem, len(g))
		for j, it := range g {
			items[j] = orders.FulfillmentItem{ItemID: it.ID, Quantity: it.Quantity}
		}
		created := at.Add(time.Duration(i) * time.Hour).Truncate(time.Millisecond)
		out[i] = orders.Fulfillment{
			ID:              seedID("ful", created, rng),
			OrderID:         o.ID,
			Status:          st,
			TrackingNumber:  c.track(rng),
			TrackingCompany: c.company,
			Items:           items,
			CreatedAt:       created,
			UpdatedAt:       updated.Truncate(time.Millisecond),
		}
	}
	return out
}

func clampTime(t, lo, hi time.Time) time.Time {
	if t.Before(lo) {
		t = lo
	}
	if t.After(hi) {
		t = hi
	}
	return t.Truncate(time.Millisecond)
}

// weighted returns an index drawn with the given weights.
func weighted(rng *rand.Rand, weights ...int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	r := rng.IntN(total)
	for i, w := range weights {
		if r < w {
			return i
		}
		r -= w
	}
	return len(weights) - 1
}

type seedCustomer struct {
	id      string
	name    string
	email   string
	phone   string
	address orders.Address
}

var (
	firstNames = []string{
		"Maria", "Jose", "Juan", "Ana", "Mark", "Angelica", "John Paul", "Kristine", "Jerome", "Patricia",
		"Rommel", "Mary Grace", "Christian", "Jessa", "Paolo", "Camille", "Jericho", "Bea", "Rafael", "Nicole",
		"Aldrin", "Joy", "Renato", "Divina", "Carlo", "Lovely", "Miguel", "Princess", "Arnel", "Rowena",
	}
	lastNames = []string{
		"Santos", "Reyes", "Cruz", "Bautista", "Ocampo", "Garcia", "Mendoza", "Torres", "Tomas", "Andrada",
		"Castillo", "Flores", "Villanueva", "Ramos", "Castro", "Rivera", "Aquino", "Navarro", "Salazar", "Mercado",
		"Dela Cruz", "De Guzman", "Gonzales", "Lopez", "Pascual", "Dizon", "Manalo", "Soriano", "Aguilar", "Macaraeg",
	}
	emailDomains = []string{"gmail.com", "gmail.com", "gmail.com", "yahoo.com", "yahoo.com.ph", "outlook.com", "icloud.com"}
	streets      = []string{
		"Rizal St.", "Mabini St.", "Bonifacio Ave.", "Luna St.", "Burgos St.", "Quezon Ave.", "Del Pilar St.",
		"Magsaysay Blvd.", "Aguinaldo Hwy.", "Osmeña Blvd.", "Lapu-Lapu St.", "Roxas Ave.", "Sampaguita St.",
		"Narra St.", "Acacia Ave.", "Gen. Luna St.", "P. Burgos St.", "Kalayaan Ave.",
	}
	barangays = []string{
		"Poblacion", "San Isidro", "San Roque", "Santo Niño", "Bagong Silang", "San Jose", "Mabini",
		"San Antonio", "Bagumbayan", "Malinis", "Santa Cruz", "San Vicente", "Magsaysay", "Carmen",
	}
	subdivisions = []string{"Villa Verde Subd.", "Greenfields Subd.", "Camella Homes", "Lessandra Homes", "BF Homes", "Mountview Subd."}
	secondLines  = []string{
		"Unit 12B, Tower 2", "3rd Floor, Rm. 305", "Near the barangay hall", "Beside the sari-sari store",
		"Gate 2, guardhouse", "Back of the chapel", "Unit 7, Apartment C", "Look for the blue gate",
	}
	mobilePrefixes = []string{"17", "15", "16", "26", "27", "35", "05", "06", "18", "19", "20", "21", "28", "29", "47", "61", "98", "99", "91", "92", "93", "94", "95", "97"}
)

func newCustomer(now time.Time, rng *rand.Rand) seedCustomer {
	first := firstNames[rng.IntN(len(firstNames))]
	last := lastNames[rng.IntN(len(lastNames))]
	name := first + " " + last
	phone := "+639" + mobilePrefixes[rng.IntN(len(mobilePrefixes))] + digits(rng, 7)
	c := seedCustomer{
		id:    seedID("cus", now.Add(-time.Duration(90+rng.IntN(700))*24*time.Hour), rng),
		name:  name,
		phone: phone,
	}
	// Most buyers check out with an email; a few phone-only accounts have none.
	if rng.IntN(100) < 92 {
		local := emailLocal(first) + "." + emailLocal(last)
		if rng.IntN(2) == 0 {
			local += strconv.Itoa(1 + rng.IntN(99))
		}
		c.email = local + "@" + emailDomains[rng.IntN(len(emailDomains))]
	}
	c.address = newAddress(name, phone, rng)
	return c
}

func emailLocal(s string) string {
	s = strings.NewReplacer("ñ", "n", "Ñ", "n", " ", "").Replace(strings.ToLower(s))
	return s
}

// urbanPlaces are the highly urbanized cities. A uniform draw over the
// country's 1,600-odd municipalities would make nearly every buyer rural,
// while online orders concentrate in Metro Manila and the big cities.
var urbanPlaces = sync.OnceValue(func() []psgc.Place {
	var out []psgc.Place
	for _, c := range psgc.Cities() {
		if c.Class == "HUC" {
			out = append(out, psgc.PlaceOf(c))
		}
	}
	return out
})

func newAddress(name, phone string, rng *rand.Rand) orders.Address {
	var place psgc.Place
	if urban := urbanPlaces(); rng.IntN(100) < 45 && len(urban) > 0 {
		place = urban[rng.IntN(len(urban))]
	} else {
		place = psgc.RandomCity(rng)
	}
	brgy := "Brgy. " + barangays[rng.IntN(len(barangays))]
	var line1 string
	if rng.IntN(3) == 0 {
		line1 = fmt.Sprintf("Blk %d Lot %d, %s, %s", 1+rng.IntN(40), 1+rng.IntN(30), subdivisions[rng.IntN(len(subdivisions))], brgy)
	} else {
		line1 = fmt.Sprintf("%d %s, %s", 1+rng.IntN(2500), streets[rng.IntN(len(streets))], brgy)
	}
	a := orders.Address{
		Name:       name,
		Line1:      line1,
		City:       place.City.Name,
		Province:   place.Province,
		PostalCode: place.City.PostalCode,
		Country:    "PH",
		Phone:      phone,
	}
	if a.PostalCode == "" {
		a.PostalCode = regionalPostalCode(place.Region.Code, rng)
	}
	if rng.IntN(100) < 35 {
		l2 := secondLines[rng.IntN(len(secondLines))]
		a.Line2 = &l2
	}
	return a
}

// regionPostalRanges are the PHLPost ZIP ranges each region's codes fall in,
// for the few PSGC places without an indicative code of their own.
var regionPostalRanges = map[string][2]int{
	"1300000000": {1000, 1799}, // NCR
	"1400000000": {2600, 2899}, // CAR
	"0100000000": {2400, 2999}, // Ilocos
	"0200000000": {3300, 3599}, // Cagayan Valley
	"0300000000": {2000, 3199}, // Central Luzon
	"0400000000": {4000, 4399}, // CALABARZON
	"1700000000": {5100, 5399}, // MIMAROPA
	"0500000000": {4400, 4899}, // Bicol
	"0600000000": {5000, 5799}, // Western Visayas
	"1800000000": {6100, 6299}, // Negros Island
	"0700000000": {6000, 6399}, // Central Visayas
	"0800000000": {6500, 6899}, // Eastern Visayas
	"0900000000": {7000, 7199}, // Zamboanga Peninsula
	"1000000000": {8700, 9299}, // Northern Mindanao
	"1100000000": {8000, 8199}, // Davao
	"1200000000": {9400, 9899}, // SOCCSKSARGEN
	"1600000000": {8400, 8699}, // Caraga
	"1900000000": {7300, 7599}, // BARMM
}

func regionalPostalCode(region string, rng *rand.Rand) string {
	r, ok := regionPostalRanges[region]
	if !ok {
		r = [2]int{1000, 9999}
	}
	return fmt.Sprintf("%04d", r[0]+rng.IntN(r[1]-r[0]+1))
}

func digits(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + rng.IntN(10))
	}
	return string(b)
}

func upperAlnum(rng *rand.Rand, n int) string {
	const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

// seedIDs follow internal/ids' layout (prefix, 48 bits of milliseconds, 80
// random bits, same alphabet) with the random part drawn from the seed's
// rng, so a seed is reproducible down to its ids.
var seedIDEncoding = base32.NewEncoding("0123456789abcdefghjkmnpqrstvwxyz").WithPadding(base32.NoPadding)

func seedID(prefix string, t time.Time, rng *rand.Rand) string {
	var b [16]byte
	var ms [8]byte
	binary.BigEndian.PutUint64(ms[:], uint64(t.UnixMilli()))
	copy(b[:6], ms[2:])
	binary.BigEndian.PutUint64(b[6:14], rng.Uint64())
	binary.BigEndian.PutUint16(b[14:], uint16(rng.Uint32()))
	return prefix + "_" + seedIDEncoding.EncodeToString(b[:])
}

// builtinProducts is a plausible mall assortment; prices are centavos.
func builtinProducts(now time.Time, rng *rand.Rand) []Product {
	list := []struct {
		title, sku string
		price      int64
		variant    bool
		thumb      bool
	}{
		{"Samsung Galaxy A15 5G 8GB/256GB Blue Black", "SM-A156E-BLK-256", 1199000, true, true},
		{"Xiaomi Redmi Note 13 8GB/256GB Midnight Black", "RDM-N13-BLK-256", 1099900, true, true},
		{"Apple AirPods (3rd generation)", "APL-MME73", 1049000, false, true},
		{"Anker PowerCore 10000mAh Power Bank", "ANK-A1263-BLK", 129900, true, true},
		{"Baseus 65W GaN USB-C Charger", "BSU-GAN65-WHT", 169900, false, true},
		{"JBL Tune 520BT Wireless On-Ear Headphones", "JBL-T520BT-BLU", 299900, true, true},
		{"Logitech M331 Silent Plus Wireless Mouse", "LGT-M331-GRY", 99500, true, true},
		{"Xiaomi Smart Band 8 Graphite Black", "XMI-SB8-BLK", 229900, false, true},
		{"Uniqlo AIRism Cotton Oversized T-Shirt (M, White)", "UNQ-AIR-TS-M-WHT", 59000, true, true},
		{"Bench Men's Slim Fit Denim Jeans (32)", "BNH-DNM-SLM-32", 149900, true, true},
		{"Penshoppe Women's Relaxed Hoodie (S, Oatmeal)", "PNS-HD-S-OAT", 99900, true, false},
		{"Havaianas Top Slippers Black (39/40)", "HAV-TOP-BLK-3940", 109500, true, true},
		{"Nike Revolution 7 Running Shoes (US 9)", "NKE-REV7-US9", 359500, true, true},
		{"Adidas Essentials Backpack", "ADS-ESS-BP-BLK", 180000, false, true},
		{"Bear Brand Powdered Milk Drink 1.2kg", "NES-BB-1200", 43500, false, true},
		{"Lucky Me! Pancit Canton Original 80g x 10", "LMC-PC-ORG-10", 17500, false, false},
		{"Del Monte 100% Pineapple Juice 1L x 6", "DMT-PJ-1L-6", 48000, false, true},
		{"Kopiko 3-in-1 Brown Coffee 27.5g x 30", "KPK-BRN-30", 26000, false, true},
		{"Safeguard Pure White Bar Soap 135g x 4", "SFG-PW-135-4", 19900, false, false},
		{"Colgate Total Toothpaste 150g Twin Pack", "CLG-TTL-150-2", 32900, false, true},
		{"Pampers Baby Dry Pants Large 62s", "PMP-BDP-L-62", 114900, true, true},
		{"Hanabishi 16\" Stand Fan", "HNB-SF16-WHT", 159900, false, true},
		{"Imarflex 1.8L Rice Cooker", "IMX-RC18", 185000, false, true},
		{"Tefal So Chef Non-Stick Frying Pan 28cm", "TFL-SC-FP28", 149900, false, true},
		{"Lock&Lock Classic Food Container Set 6pcs", "LNL-CLS-6", 89900, false, false},
		{"Philips LED Bulb 12W Daylight 3-Pack", "PHL-LED12-DL-3", 44900, false, true},
		{"Cetaphil Gentle Skin Cleanser 500ml", "CTP-GSC-500", 109900, false, true},
		{"Belo SunExpert Tinted Sunscreen SPF50 50ml", "BLO-SE-TNT-50", 36500, false, true},
		{"Mongol No. 2 Pencil x 12", "MGL-P2-12", 12000, false, false},
		{"Rebisco Crackers 33g x 10", "RBS-CRK-10", 9500, false, true},
	}
	out := make([]Product, len(list))
	created := now.Add(-120 * 24 * time.Hour)
	for i, p := range list {
		id := seedID("prd", created, rng)
		sp := Product{ProductID: id, Title: p.title, SKU: p.sku, UnitPrice: p.price}
		if p.variant {
			sp.VariantID = seedID("var", created, rng)
		}
		if p.thumb {
			sp.Thumbnail = "https://cdn.mall.ph/sandbox/products/" + id + "/thumb.jpg"
		}
		out[i] = sp
	}
	return out
}

// Generated is one of the built-in products, for a test order of a seller
// whose catalog is empty.
func Generated(now time.Time, rng *rand.Rand) Product {
	ps := builtinProducts(now.UTC().Truncate(time.Millisecond), rng)
	return ps[rng.IntN(len(ps))]
}

// Parcel is a courier and tracking number for a shipment handed over now.
func Parcel(rng *rand.Rand) (company, tracking string) {
	c := couriers[rng.IntN(len(couriers))]
	return c.company, c.track(rng)
}
