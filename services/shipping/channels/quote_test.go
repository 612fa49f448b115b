package channels

import (
	"math"
	"testing"

	"github.com/mallplatform/partnerapi/internal/psgc"
)

func defaultTables(t testing.TB) *Tables {
	t.Helper()
	chs, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	tb, err := Build(chs)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func place(t testing.TB, province, city string) *psgc.Location {
	t.Helper()
	loc, ok, err := psgc.Resolve("test_", "", province, city)
	if err != nil || !ok {
		t.Fatalf("%s, %s: %v", city, province, err)
	}
	return &loc
}

func byID(opts []Option) map[string]Option {
	m := map[string]Option{}
	for _, o := range opts {
		m[o.ID] = o
	}
	return m
}

func amount(v int64) *int64 { return &v }

func TestQuoteMetroManila(t *testing.T) {
	tb := defaultTables(t)
	opts := Quote(tb, Request{
		Origin:      place(t, "", "Quezon City"),
		Destination: place(t, "", "Makati"),
		WeightGrams: 400,
	})
	if len(opts) != 5 {
		t.Fatalf("%d options, want every active channel (5)", len(opts))
	}
	m := byID(opts)
	if o := m["JNT_STANDARD"]; o.Status != RateQuoted || o.PriceAmount != 8500 || o.EstimatedDays != "1-2" || o.Reason != "" || o.Currency != "PHP" {
		t.Errorf("JNT: %+v", o)
	}
	if o := m["LALAMOVE_SAMEDAY"]; o.Status != RateQuoted || o.PriceAmount != 14900 || o.EstimatedDays != "0-0" {
		t.Errorf("same-day: %+v", o)
	}
	for i := 1; i < len(opts); i++ {
		if opts[i].PriceAmount < opts[i-1].PriceAmount {
			t.Errorf("not sorted by price: %+v", opts)
		}
	}
	if opts[0].ID != "FLASH_STANDARD" {
		t.Errorf("cheapest first: %s", opts[0].ID)
	}
}

func TestQuoteChargeableWeightAndBands(t *testing.T) {
	tb := defaultTables(t)
	mm := place(t, "", "Pasig")
	cases := []struct {
		name      string
		weight    float64
		l, w, h   float64
		wantPrice int64 // JNT_STANDARD, Metro Manila to Metro Manila
	}{
		{"exactly a band's bound", 500, 0, 0, 0, 8500},
		{"a fraction above rounds up to the next band", 500.1, 0, 0, 0, 10600},
		{"actual weight beats a small volume", 2500, 10, 10, 10, 16200},
		// 30×30×30 cm / 3500 cm³ per kg = 7714.3 g → 7715 g → the 10 kg band.
		{"volumetric beats actual", 400, 30, 30, 30, 39100},
		{"volumetric needs all three sides", 400, 30, 30, 0, 8500},
		{"last band", 20000, 0, 0, 0, 69700},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := byID(Quote(tb, Request{Origin: mm, Destination: mm, WeightGrams: tc.weight, LengthCm: tc.l, WidthCm: tc.w, HeightCm: tc.h}))["JNT_STANDARD"]
			if o.Status != RateQuoted || o.PriceAmount != tc.wantPrice {
				t.Errorf("got %+v, want %d", o, tc.wantPrice)
			}
		})
	}
}

func TestQuoteInsurance(t *testing.T) {
	tb := defaultTables(t)
	mm := place(t, "", "Manila")
	base := Request{Origin: mm, Destination: mm, WeightGrams: 400}
	jnt := func(r Request) int64 { return byID(Quote(tb, r))["JNT_STANDARD"].PriceAmount }
	r := base
	r.Insurance, r.OrderAmount = true, amount(250_000) // 1% of ₱2,500 = ₱25
	if got := jnt(r); got != 8500+2500 {
		t.Errorf("insured: %d", got)
	}
	r.OrderAmount = amount(20_000) // 1% of ₱200 = ₱2, below the ₱10 minimum
	if got := jnt(r); got != 8500+1000 {
		t.Errorf("minimum: %d", got)
	}
	r.OrderAmount = nil // enabled without an amount: nothing to insure
	if got := jnt(r); got != 8500 {
		t.Errorf("no amount: %d", got)
	}
	r = base
	r.OrderAmount = amount(250_000) // an amount without insurance_enabled
	if got := jnt(r); got != 8500 {
		t.Errorf("not enabled: %d", got)
	}
}

func TestInsuranceRounding(t *testing.T) {
	cases := []struct {
		bp, min, amount, want int64
	}{
		{150, 0, 100, 2},     // 1.5 → 2 (half up)
		{150, 0, 30, 0},      // 0.45 → 0
		{100, 0, 150, 2},     // 1.5 → 2
		{100, 0, 149, 1},     // 1.49 → 1
		{100, 1000, 0, 1000}, // a zero amount still pays the minimum
		{100, 0, -5, 0},      // a negative amount counts as zero
		{10000, 0, math.MaxInt64, math.MaxInt64},
		{5000, 0, math.MaxInt64, math.MaxInt64/2 + 1},
	}
	for _, tc := range cases {
		if got := insurance(Insurance{RateBasisPoints: tc.bp, MinimumAmount: tc.min}, tc.amount); got != tc.want {
			t.Errorf("insurance(%d bp, min %d, %d) = %d, want %d", tc.bp, tc.min, tc.amount, got, tc.want)
		}
	}
	if got := addSaturating(100, math.MaxInt64); got != math.MaxInt64 {
		t.Errorf("addSaturating = %d", got)
	}
}

func TestQuoteReasons(t *testing.T) {
	tb := defaultTables(t)
	mm := place(t, "", "Taguig")
	cebu := place(t, "Cebu", "Cebu City")
	cases := []struct {
		name    string
		r       Request
		channel string
		want    Reason
		days    string
	}{
		{"no origin", Request{Destination: mm, WeightGrams: 100}, "JNT_STANDARD", ReasonMissingOrigin, ""},
		{"no destination", Request{Origin: mm, WeightGrams: 100}, "JNT_STANDARD", ReasonMissingDestination, ""},
		{"origin before destination", Request{WeightGrams: 100}, "JNT_STANDARD", ReasonMissingOrigin, ""},
		{"same-day outside Metro Manila", Request{Origin: mm, Destination: cebu, WeightGrams: 100}, "LALAMOVE_SAMEDAY", ReasonRouteNotServiced, ""},
		{"route before weight", Request{Origin: mm, Destination: cebu}, "LALAMOVE_SAMEDAY", ReasonRouteNotServiced, ""},
		{"no weight", Request{Origin: mm, Destination: cebu}, "JNT_STANDARD", ReasonMissingWeight, "3-6"},
		{"dimensions without weight", Request{Origin: mm, Destination: cebu, LengthCm: 10, WidthCm: 10, HeightCm: 10}, "JNT_STANDARD", ReasonMissingWeight, "3-6"},
		{"overweight", Request{Origin: mm, Destination: cebu, WeightGrams: 20001}, "JNT_STANDARD", ReasonOverweight, "3-6"},
		{"a side too long", Request{Origin: mm, Destination: cebu, WeightGrams: 100, LengthCm: 101}, "JNT_STANDARD", ReasonOversize, "3-6"},
		{"sides compared longest first", Request{Origin: mm, Destination: cebu, WeightGrams: 100, LengthCm: 10, WidthCm: 61, HeightCm: 61}, "JNT_STANDARD", ReasonOversize, "3-6"},
		// 100×60×60 fits the sides, but weighs 102.9 kg volumetric.
		{"volumetric over the maximum", Request{Origin: mm, Destination: cebu, WeightGrams: 100, LengthCm: 100, WidthCm: 60, HeightCm: 60}, "JNT_STANDARD", ReasonOversize, "3-6"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := byID(Quote(tb, tc.r))[tc.channel]
			if o.Status != RateUnavailable || o.Reason != tc.want || o.PriceAmount != 0 || o.EstimatedDays != tc.days {
				t.Errorf("got %+v, want %s", o, tc.want)
			}
		})
	}
	// The bulky channel takes what the standard one refuses.
	o := byID(Quote(tb, Request{Origin: mm, Destination: cebu, WeightGrams: 30000, LengthCm: 100, WidthCm: 60, HeightCm: 40}))["TWOGO_BULKY"]
	if o.Status != RateQuoted {
		t.Errorf("bulky: %+v", o)
	}
}

func TestQuoteRegionAloneIsEnough(t *testing.T) {
	tb := defaultTables(t)
	ncr, _, err := psgc.Resolve("origin_", "NCR", "", "")
	if err != nil {
		t.Fatal(err)
	}
	mindanao, _, _ := psgc.Resolve("destination_", "Davao Region", "", "")
	o := byID(Quote(tb, Request{Origin: &ncr, Destination: &mindanao, WeightGrams: 800}))["JNT_STANDARD"]
	if o.Status != RateQuoted || o.PriceAmount != 20600 || o.EstimatedDays != "4-7" {
		t.Errorf("got %+v", o)
	}
}

func TestQuoteOrderAndInactive(t *testing.T) {
	chs, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	chs[0].Active = false // JNT_STANDARD
	tb, err := Build(chs)
	if err != nil {
		t.Fatal(err)
	}
	opts := Quote(tb, Request{Origin: place(t, "", "Makati"), Destination: place(t, "Cebu", "Cebu City"), WeightGrams: 1500})
	if _, listed := byID(opts)["JNT_STANDARD"]; listed || len(opts) != 4 {
		t.Fatalf("inactive channel listed: %+v", opts)
	}
	last := opts[len(opts)-1]
	if last.ID != "LALAMOVE_SAMEDAY" || last.Status != RateUnavailable {
		t.Errorf("unavailable not last: %+v", opts)
	}
	for i := 1; i < len(opts)-1; i++ {
		if opts[i].Status != RateQuoted || opts[i].PriceAmount < opts[i-1].PriceAmount {
			t.Errorf("quoted options out of order: %+v", opts)
		}
	}
	if _, ok := tb.Channel("JNT_STANDARD"); !ok {
		t.Error("an inactive channel is still found by id (orders name it)")
	}
}

func TestQuoteTiesBreakByID(t *testing.T) {
	chs, _ := Default()
	twin := chs[0]
	twin.ID = "AAA_TWIN"
	tb, err := Build(append(chs, twin))
	if err != nil {
		t.Fatal(err)
	}
	mm := place(t, "", "Makati")
	opts := Quote(tb, Request{Origin: mm, Destination: mm, WeightGrams: 900})
	var ids []string
	for _, o := range opts {
		if o.PriceAmount == 10600 {
			ids = append(ids, o.ID)
		}
	}
	if len(ids) != 2 || ids[0] != "AAA_TWIN" {
		t.Errorf("equal prices by id: %v", ids)
	}
}

func TestQuoteHostileFigures(t *testing.T) {
	tb := defaultTables(t)
	mm := place(t, "", "Makati")
	for _, w := range []float64{math.NaN(), math.Inf(1), -1, 1e300} {
		for _, o := range Quote(tb, Request{Origin: mm, Destination: mm, WeightGrams: w, LengthCm: w, WidthCm: 1, HeightCm: 1}) {
			if o.Status == RateQuoted {
				t.Errorf("weight %v quoted: %+v", w, o)
			}
		}
	}
}

func BenchmarkQuote(b *testing.B) {
	tb := defaultTables(b)
	r := Request{Origin: place(b, "", "Quezon City"), Destination: place(b, "Cebu", "Cebu City"),
		WeightGrams: 1200, LengthCm: 30, WidthCm: 20, HeightCm: 10, Insurance: true, OrderAmount: amount(150_000)}
	b.ReportAllocs()
	for b.Loop() {
		Quote(tb, r)
	}
}
