package channels

import (
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/mallplatform/partnerapi/internal/psgc"
)

// Currency of every price: centavos of the Philippine peso.
const Currency = "PHP"

// RateStatus tells a quoted option from an unavailable one.
type RateStatus string

const (
	RateQuoted      RateStatus = "quoted"
	RateUnavailable RateStatus = "unavailable"
)

// Reason says why a channel gives no price. When several apply the first
// in this order is given: the questions a partner can answer, from where
// to what.
type Reason string

const (
	// ReasonMissingOrigin: no origin was given and no seller default pickup
	// address stands in for it.
	ReasonMissingOrigin Reason = "MISSING_ORIGIN"
	// ReasonMissingDestination: no destination was given.
	ReasonMissingDestination Reason = "MISSING_DESTINATION"
	// ReasonRouteNotServiced: the channel does not carry from the origin's
	// zone to the destination's (same-day outside Metro Manila).
	ReasonRouteNotServiced Reason = "ROUTE_NOT_SERVICED"
	// ReasonMissingWeight: no actual weight was given.
	ReasonMissingWeight Reason = "MISSING_WEIGHT"
	// ReasonOverweight: the actual weight is above the channel's maximum.
	ReasonOverweight Reason = "OVERWEIGHT"
	// ReasonOversize: a side is longer than the channel takes, or the
	// volumetric weight is above the channel's maximum weight.
	ReasonOversize Reason = "OVERSIZE"
)

// Reasons lists every reason, in precedence order (for documentation and
// the API's enum).
var Reasons = []Reason{ReasonMissingOrigin, ReasonMissingDestination, ReasonRouteNotServiced, ReasonMissingWeight, ReasonOverweight, ReasonOversize}

// Request is a parcel to quote. A zero (or non-positive, or NaN) weight or
// side is "not given"; the route layer has already refused malformed
// values.
type Request struct {
	// Origin and Destination are resolved locations; nil when not given.
	// Zones go by region, so a region alone is enough.
	Origin, Destination *psgc.Location
	WeightGrams         float64
	// LengthCm, WidthCm, HeightCm: the volumetric weight counts only when
	// all three are given; each given side is held to the channel's sides.
	LengthCm, WidthCm, HeightCm float64
	// Insurance adds cover when OrderAmount is given too.
	Insurance   bool
	OrderAmount *int64
}

// Option is one channel's answer, the fields of the API's ShippingOption.
type Option struct {
	ID, Name, Provider, Description string
	Currency                        string
	Status                          RateStatus
	// PriceAmount is the price in centavos, insurance included; meaningful
	// only when Status is quoted.
	PriceAmount int64
	// EstimatedDays is "min-max" whenever the channel serves the zone pair
	// (also when the parcel itself is refused), "" when the route is
	// unknown or not serviced.
	EstimatedDays string
	// Reason is set when Status is unavailable.
	Reason Reason
}

// Quote prices the request on every active channel: quoted options by price
// (then id), unavailable ones after them by id. It allocates the result and
// nothing else.
func Quote(t *Tables, r Request) []Option {
	active := 0
	for i := range t.channels {
		if t.channels[i].ch.Active {
			active++
		}
	}
	out := make([]Option, 0, active)
	p := measure(r)
	for i := range t.channels {
		cc := &t.channels[i]
		if !cc.ch.Active {
			continue
		}
		out = append(out, cc.quote(r, p))
	}
	slices.SortFunc(out, func(a, b Option) int {
		if a.Status != b.Status {
			if a.Status == RateQuoted {
				return -1
			}
			return 1
		}
		if a.Status == RateQuoted && a.PriceAmount != b.PriceAmount {
			if a.PriceAmount < b.PriceAmount {
				return -1
			}
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

// parcel is the request's figures in whole units, computed once per quote.
type parcel struct {
	weight int64      // actual grams, rounded up; 0 when not given
	sides  [3]float64 // longest first; 0 for a side not given
	volume float64    // cm³ when all three sides are given, else 0
}

func measure(r Request) parcel {
	var p parcel
	if r.WeightGrams > 0 {
		p.weight = ceilGrams(r.WeightGrams)
	}
	sides := [3]float64{given(r.LengthCm), given(r.WidthCm), given(r.HeightCm)}
	if sides[0] > 0 && sides[1] > 0 && sides[2] > 0 {
		p.volume = sides[0] * sides[1] * sides[2]
	}
	p.sides = sortDesc(sides)
	return p
}

func given(v float64) float64 {
	if v > 0 { // false for NaN too
		return v
	}
	return 0
}

// ceilGrams rounds a weight up to the gram (a carrier's scale does), held
// below overflow: anything that large is over every maximum anyway.
func ceilGrams(g float64) int64 {
	if g >= math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(math.Ceil(g))
}

func (cc *compiled) quote(r Request, p parcel) Option {
	c := cc.ch
	o := Option{ID: c.ID, Name: c.Name, Provider: c.Provider, Description: c.Description, Currency: Currency, Status: RateUnavailable}
	switch {
	case r.Origin == nil:
		o.Reason = ReasonMissingOrigin
		return o
	case r.Destination == nil:
		o.Reason = ReasonMissingDestination
		return o
	}
	from, to := cc.zone(r.Origin), cc.zone(r.Destination)
	if from < 0 || to < 0 || cc.routes[from*cc.zones+to].prices == nil {
		o.Reason = ReasonRouteNotServiced
		return o
	}
	route := &cc.routes[from*cc.zones+to]
	o.EstimatedDays = route.days
	switch {
	case p.weight == 0:
		o.Reason = ReasonMissingWeight
		return o
	case p.weight > c.MaxWeightGrams:
		o.Reason = ReasonOverweight
		return o
	case p.sides[0] > float64(cc.sides[0]) || p.sides[1] > float64(cc.sides[1]) || p.sides[2] > float64(cc.sides[2]):
		o.Reason = ReasonOversize
		return o
	}
	chargeable := p.weight
	if p.volume > 0 {
		// grams = cm³ / (cm³ per kg) × 1000, rounded up to the gram.
		if vol := ceilGrams(p.volume * 1000 / float64(c.VolumetricDivisor)); vol > chargeable {
			chargeable = vol
		}
	}
	if chargeable > c.MaxWeightGrams {
		o.Reason = ReasonOversize
		return o
	}
	band := 0
	for c.WeightBandsGrams[band] < chargeable {
		band++
	}
	price := route.prices[band]
	if r.Insurance && r.OrderAmount != nil {
		price = addSaturating(price, insurance(c.Insurance, *r.OrderAmount))
	}
	o.Status, o.PriceAmount, o.Reason = RateQuoted, price, ""
	return o
}

func (cc *compiled) zone(l *psgc.Location) int {
	code := l.Region.Code
	if len(code) < 2 || code[0] < '0' || code[0] > '9' || code[1] < '0' || code[1] > '9' {
		return -1
	}
	return int(cc.zoneOf[int(code[0]-'0')*10+int(code[1]-'0')])
}

// insurance is max(amount × rate, minimum) in centavos, the product rounded
// half up to the centavo. The product is computed in 128 bits, so no order
// amount overflows it (the rate is at most 100%, so the result fits).
func insurance(in Insurance, amount int64) int64 {
	if amount < 0 {
		amount = 0
	}
	hi, lo := bits.Mul64(uint64(amount), uint64(in.RateBasisPoints))
	lo, carry := bits.Add64(lo, maxBasisPoints/2, 0)
	hi += carry
	q, _ := bits.Div64(hi, lo, maxBasisPoints)
	return max(int64(q), in.MinimumAmount)
}

// addSaturating adds non-negative amounts, stopping at the largest int64
// rather than wrapping (only an absurd order amount gets there).
func addSaturating(a, b int64) int64 {
	if b > math.MaxInt64-a {
		return math.MaxInt64
	}
	return a + b
}
