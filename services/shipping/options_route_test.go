package shipping_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"google.golang.org/grpc/metadata"

	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/sdk/signing"
)

// wireOption is a ShippingOption as the wire carries it, every member kept.
type wireOption map[string]any

func getOptions(t *testing.T, c *sdk.Client, query string, header http.Header) (*sdk.Response, []wireOption) {
	t.Helper()
	resp, err := c.DoSigned(context.Background(), sdk.Request{Method: http.MethodGet, Path: "/open/v1/shipping/options", RawQuery: query, ExtraHeaders: header})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != http.StatusOK {
		return resp, nil
	}
	var env struct {
		Success bool         `json:"success"`
		Data    []wireOption `json:"data"`
	}
	if err := json.Unmarshal(resp.Body, &env); err != nil || !env.Success || env.Data == nil {
		t.Fatalf("%s: body %s: %v", query, resp.Body, err)
	}
	return resp, env.Data
}

// options is the answer of a query that must succeed.
func options(t *testing.T, c *sdk.Client, query string) []wireOption {
	t.Helper()
	resp, opts := getOptions(t, c, query, nil)
	if resp.Status != http.StatusOK {
		t.Fatalf("%s: %d %s", query, resp.Status, resp.Body)
	}
	return opts
}

func ids(opts []wireOption) []string {
	out := make([]string, len(opts))
	for i, o := range opts {
		out[i], _ = o["id"].(string)
	}
	return out
}

func optionOf(t *testing.T, opts []wireOption, id string) wireOption {
	t.Helper()
	for _, o := range opts {
		if o["id"] == id {
			return o
		}
	}
	t.Fatalf("no option %s in %v", id, ids(opts))
	return nil
}

// wantReason checks that every listed channel is unavailable for reason,
// with a null price.
func wantReason(t *testing.T, opts []wireOption, reason string, channels ...string) {
	t.Helper()
	for _, id := range channels {
		o := optionOf(t, opts, id)
		if o["rateStatus"] != "unavailable" || o["rateUnavailableReason"] != reason || o["priceAmount"] != nil {
			t.Errorf("%s: %v, want unavailable for %s with a null price", id, o, reason)
		}
	}
}

func wantPrice(t *testing.T, opts []wireOption, id string, price float64, days string) {
	t.Helper()
	o := optionOf(t, opts, id)
	if o["rateStatus"] != "quoted" || o["priceAmount"] != price || o["rateUnavailableReason"] != nil || o["estimatedDays"] != days {
		t.Errorf("%s: %v, want quoted at %v in %s days", id, o, price, days)
	}
}

var everyChannel = []string{"FLASH_STANDARD", "JNT_STANDARD", "LALAMOVE_SAMEDAY", "LBC_EXPRESS", "TWOGO_BULKY"}

func TestShippingOptionsRoute(t *testing.T) {
	for _, db := range []struct {
		name     string
		postgres bool
	}{{"sqlite", false}, {"postgres", true}} {
		t.Run(db.name, func(t *testing.T) {
			env := testenv.Start(t, testenv.Options{Postgres: db.postgres})
			c := env.Client(t, "limited", -1) // orders:read, no seller token
			testOptionsReasons(t, c)
			testOptionsQuote(t, c)
			testOptionsPlaces(t, c)
			testOptionsRefused(t, c)
			testOptionsSeller(t, env)
		})
	}
}

func testOptionsReasons(t *testing.T, c *sdk.Client) {
	// Nothing given: every active channel, each missing its origin, by id.
	opts := options(t, c, "")
	if !slices.Equal(ids(opts), everyChannel) {
		t.Errorf("order %v, want every active channel by id %v", ids(opts), everyChannel)
	}
	// Exactly the spec's fields, none else; the reason and the price are
	// null rather than absent, so every option has the same members.
	want := []string{"currency", "description", "estimatedDays", "id", "name", "priceAmount", "provider", "rateStatus", "rateUnavailableReason"}
	for _, o := range opts {
		keys := make([]string, 0, len(o))
		for k := range o {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, want) {
			t.Errorf("%v: members %v, want %v", o["id"], keys, want)
		}
		if o["currency"] != "PHP" || o["estimatedDays"] != "" || o["name"] == "" || o["provider"] == "" || o["description"] == "" {
			t.Errorf("%v", o)
		}
	}
	wantReason(t, opts, "MISSING_ORIGIN", everyChannel...)

	wantReason(t, options(t, c, "origin_city=Quezon+City&actual_weight=500"), "MISSING_DESTINATION", everyChannel...)
	wantReason(t, options(t, c, "destination_city=Makati&actual_weight=500"), "MISSING_ORIGIN", everyChannel...)
	// The origin comes first: where from, then where to.
	wantReason(t, options(t, c, "actual_weight=500"), "MISSING_ORIGIN", everyChannel...)

	opts = options(t, c, "origin_city=Quezon+City&destination_city=Makati")
	wantReason(t, opts, "MISSING_WEIGHT", everyChannel...)
	if o := optionOf(t, opts, "JNT_STANDARD"); o["estimatedDays"] != "1-2" {
		t.Errorf("a served route refused for its parcel still tells its days: %v", o)
	}
	// Sides alone are not a weight.
	wantReason(t, options(t, c, "origin_city=Quezon+City&destination_city=Makati&length=10&width=10&height=10"), "MISSING_WEIGHT", everyChannel...)

	opts = options(t, c, "origin_city=Quezon+City&destination_city=Makati&actual_weight=16000")
	wantReason(t, opts, "OVERWEIGHT", "FLASH_STANDARD", "LBC_EXPRESS")
	wantPrice(t, opts, "JNT_STANDARD", 69700, "1-2")

	opts = options(t, c, "origin_city=Quezon+City&destination_city=Makati&actual_weight=500&length=70")
	wantReason(t, opts, "OVERSIZE", "LBC_EXPRESS", "LALAMOVE_SAMEDAY")
	wantPrice(t, opts, "FLASH_STANDARD", 7600, "2-3")

	// Same-day is Metro Manila only; its reason outranks the parcel's.
	opts = options(t, c, "origin_city=Quezon+City&destination_city=Cebu+City&actual_weight=60000")
	wantReason(t, opts, "ROUTE_NOT_SERVICED", "LALAMOVE_SAMEDAY")
	if o := optionOf(t, opts, "LALAMOVE_SAMEDAY"); o["estimatedDays"] != "" {
		t.Errorf("a route not serviced has no days: %v", o)
	}
	wantReason(t, opts, "OVERWEIGHT", "FLASH_STANDARD", "JNT_STANDARD", "LBC_EXPRESS", "TWOGO_BULKY")
}

// One quote worked by hand: Quezon City (Metro Manila) to Santa Rosa,
// Laguna (rest of Luzon), 1,200 g in a 30×20×20 cm box (12,000 cm³),
// insured for ₱2,500.00.
//
//	FLASH  12000/5000 kg = 2,400 g  → band ≤3,000 g: 18,000 + max(0.5% × 250,000 = 1,250; 500)   = 19,250
//	JNT    12000/3500 kg → 3,429 g  → band ≤5,000 g: 29,400 + max(1% × 250,000 = 2,500; 1,000)   = 31,900
//	TWOGO  12000/6000 kg = 2,000 g  → band ≤5,000 g: 34,700 + max(2,500; 2,500)                   = 37,200
//	LBC    12000/3500 kg → 3,429 g  → band ≤5,000 g: 52,100 + max(1.5% × 250,000 = 3,750; 2,000) = 55,850
//	same-day: not serviced outside Metro Manila, listed last.
func testOptionsQuote(t *testing.T, c *sdk.Client) {
	q := "origin_city=Quezon+City&destination_city=Santa+Rosa&destination_province=Laguna&actual_weight=1200&length=30&width=20&height=20"
	opts := options(t, c, q+"&insurance_enabled=true&order_amount=250000")
	if got, want := ids(opts), []string{"FLASH_STANDARD", "JNT_STANDARD", "TWOGO_BULKY", "LBC_EXPRESS", "LALAMOVE_SAMEDAY"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want by price, unavailable last %v", got, want)
	}
	wantPrice(t, opts, "FLASH_STANDARD", 19250, "3-5")
	wantPrice(t, opts, "JNT_STANDARD", 31900, "2-4")
	wantPrice(t, opts, "TWOGO_BULKY", 37200, "4-7")
	wantPrice(t, opts, "LBC_EXPRESS", 55850, "1-2")
	wantReason(t, opts, "ROUTE_NOT_SERVICED", "LALAMOVE_SAMEDAY")
	// priceAmount is a JSON integer, not a string or a fraction.
	resp, _ := getOptions(t, c, q+"&insurance_enabled=true&order_amount=250000", nil)
	if !strings.Contains(string(resp.Body), `"priceAmount":19250,`) {
		t.Errorf("priceAmount is not written as an integer: %s", resp.Body)
	}
	// Insurance needs both: the flag and the amount.
	for _, partial := range []string{q, q + "&insurance_enabled=true", q + "&order_amount=250000", q + "&insurance_enabled=false&order_amount=250000"} {
		wantPrice(t, options(t, c, partial), "FLASH_STANDARD", 18000, "3-5")
	}
	// An integer-valued amount may be written with a fraction of zeros.
	wantPrice(t, options(t, c, q+"&insurance_enabled=true&order_amount=250000.0"), "FLASH_STANDARD", 19250, "3-5")
}

func testOptionsPlaces(t *testing.T, c *sdk.Client) {
	base := "origin_city=Makati&actual_weight=500&"
	same := func(a, b string) {
		t.Helper()
		x, y := options(t, c, base+a), options(t, c, base+b)
		if !reflect.DeepEqual(x, y) {
			t.Errorf("%s and %s answer differently:\n%v\n%v", a, b, x, y)
		}
		wantPrice(t, x, "JNT_STANDARD", 8500, "1-2") // Metro Manila to Metro Manila
	}
	same("destination_city="+url.QueryEscape("Las Piñas"), "destination_city=Las+Pinas")
	same("destination_city=LAS+PIÑAS", "destination_city=las+pinas")
	same("destination_city=Quezon+City", "destination_city=quezon+city&destination_region=NCR")
	same("destination_city=Quezon+City", "destination_region=Metro+Manila")
	// A highly urbanised city needs no province: Cebu City is in Visayas.
	opts := options(t, c, base+"destination_city=Cebu+City")
	wantPrice(t, opts, "JNT_STANDARD", 15000, "3-6")
	// Ten-digit and nine-digit (legacy) codes: Agoncillo, Batangas.
	for _, code := range []string{"0401001000", "041001000"} {
		wantPrice(t, options(t, c, base+"destination_city="+code), "JNT_STANDARD", 10500, "2-4")
	}
}

func testOptionsRefused(t *testing.T, c *sdk.Client) {
	for _, tc := range []struct{ query, field string }{
		{"destination_city=Quezon+City&destination_province=Batangas", "destination_city"},
		{"origin_city=Quezon+City&origin_region=Central+Visayas", "origin_city"},
		{"origin_province=Cebu&origin_region=NCR", "origin_province"},
		{"origin_city=Atlantis", "origin_city"},
		{"destination_region=Narnia", "destination_region"},
		{"destination_province=1234567890", "destination_province"},
		{"destination_city=12345", "destination_city"},
		{"actual_weight=abc", "actual_weight"},
		{"actual_weight=0", "actual_weight"},
		{"actual_weight=-5", "actual_weight"},
		{"actual_weight=NaN", "actual_weight"},
		{"actual_weight=Infinity", "actual_weight"},
		{"length=0", "length"},
		{"width=-1", "width"},
		{"height=x", "height"},
		{"insurance_enabled=yes", "insurance_enabled"},
		{"insurance_enabled=1", "insurance_enabled"},
		{"order_amount=12.5", "order_amount"},
		{"order_amount=-1", "order_amount"},
		{"order_amount=ten", "order_amount"},
		{"weight=500", "weight"}, // unknown parameters are refused, as on every route
		{"originCity=Makati", "originCity"},
	} {
		resp, _ := getOptions(t, c, tc.query, nil)
		wantError(t, resp, http.StatusBadRequest, "VALIDATION_ERROR")
		var env struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		_ = json.Unmarshal(resp.Body, &env)
		if !strings.HasPrefix(env.Error.Message, tc.field+":") {
			t.Errorf("%s: message %q does not name %s", tc.query, env.Error.Message, tc.field)
		}
	}
}

// With a seller token and no origin, the seller's default pickup address
// (the test shop's Makati warehouse) is the origin; a token sent is
// verified as on any seller route.
func testOptionsSeller(t *testing.T, env *testenv.Env) {
	seller := env.Client(t, "limited", 0)
	opts := options(t, seller, "destination_city=Quezon+City&actual_weight=400")
	wantPrice(t, opts, "JNT_STANDARD", 8500, "1-2")
	wantPrice(t, opts, "LALAMOVE_SAMEDAY", 14900, "0-0")
	// A named origin wins over the default: Cebu City to Quezon City is
	// not same-day.
	wantReason(t, options(t, seller, "origin_city=Cebu+City&destination_city=Quezon+City&actual_weight=400"), "ROUTE_NOT_SERVICED", "LALAMOVE_SAMEDAY")

	// Another seller's id with this token, or half the pair: refused, not
	// read as "no seller".
	other := env.Creds.Sellers[1].SellerID
	resp, _ := getOptions(t, env.Client(t, "limited", -1).WithSeller(other, env.Creds.Sellers[0].Tokens["limited"].AccessToken), "", nil)
	wantError(t, resp, http.StatusNotFound, "NOT_FOUND")
	resp, _ = getOptions(t, env.Client(t, "limited", -1), "", http.Header{signing.HeaderSellerID: {other}})
	wantError(t, resp, http.StatusUnauthorized, "SELLER_TOKEN_REQUIRED")
}

// An internal caller names the seller it acts for, or none: the optional
// seller token reads its x-seller-id the same way.
func TestShippingOptionsInternalCaller(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	client := shippingv1.NewShippingServiceClient(env.DialCore(t, env.InternalCaller(t, "checkout")))
	dest, weight := "Quezon City", 400.0
	req := &shippingv1.ListShippingOptionsRequest{DestinationCity: &dest, ActualWeight: &weight}

	none, err := client.ListShippingOptions(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range none.GetData() {
		if o.GetRateUnavailableReason() != shippingv1.ShippingRateUnavailableReason_SHIPPING_RATE_UNAVAILABLE_REASON_MISSING_ORIGIN || o.PriceAmount != nil {
			t.Errorf("no seller: %v", o)
		}
	}
	ctx := metadata.AppendToOutgoingContext(context.Background(), principal.KeySellerID, env.Creds.Sellers[0].SellerID)
	withSeller, err := client.ListShippingOptions(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if first := withSeller.GetData()[0]; first.GetId() != "FLASH_STANDARD" || first.GetPriceAmount() != 7600 {
		t.Errorf("from the seller's Makati address: cheapest %v, want FLASH_STANDARD at 7600", first)
	}
}
