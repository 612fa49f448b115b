package channels

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mallplatform/partnerapi/internal/psgc"
)

var (
	channelID = regexp.MustCompile(`^[A-Z][A-Z0-9_]{0,39}$`)
	zoneID    = regexp.MustCompile(`^[A-Z][A-Z0-9_]{0,39}$`)
	hhmm      = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)
)

// Limits a channel must keep so that a quote can never overflow or mislead.
const (
	// maxPrice bounds one price cell (₱1,000,000): with insurance added in
	// int64 centavos nothing overflows short of absurd order amounts.
	maxPrice = 100_000_000
	// maxDays bounds an estimate: a longer one is a typo.
	maxDays = 60
	// maxBasisPoints is 100%: cover never costs more than the goods.
	maxBasisPoints = 10_000
)

// Check refuses a channel the quote engine could not use faithfully: a
// missing or malformed field, a price cell missing, a bad HH:mm, a
// non-positive divisor or limit, weight bands that do not rise to the
// maximum weight, a zone with an unknown region or a region in two zones,
// a route between unknown zones or listed twice. The error names the
// channel and the field.
func Check(c Channel) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("channels: channel %s: %s", c.ID, fmt.Sprintf(format, args...))
	}
	if !channelID.MatchString(c.ID) {
		return fmt.Errorf("channels: channel id %q: want uppercase letters, digits and underscores (at most 40)", c.ID)
	}
	if strings.TrimSpace(c.Name) == "" || strings.TrimSpace(c.Provider) == "" || strings.TrimSpace(c.Description) == "" {
		return bad("name, provider and description are required")
	}
	if len(c.Handover) == 0 {
		return bad("handover: at least one of PICKUP, DROPOFF")
	}
	methods := map[Handover]bool{}
	for _, h := range c.Handover {
		if h != HandoverPickup && h != HandoverDropoff || methods[h] {
			return bad("handover: %q is not PICKUP or DROPOFF, or is repeated", h)
		}
		methods[h] = true
	}
	if !hhmm.MatchString(c.Cutoff) {
		return bad("cutoff %q is not HH:mm", c.Cutoff)
	}
	if !hhmm.MatchString(c.PickupWindow.Start) || !hhmm.MatchString(c.PickupWindow.End) || c.PickupWindow.Start >= c.PickupWindow.End {
		return bad("pickupWindow %s-%s: want HH:mm to a later HH:mm", c.PickupWindow.Start, c.PickupWindow.End)
	}
	if c.MaxWeightGrams <= 0 {
		return bad("maxWeightGrams must be positive")
	}
	for _, s := range c.MaxSidesCm {
		if s <= 0 {
			return bad("maxSidesCm: every side must be positive")
		}
	}
	if c.VolumetricDivisor <= 0 {
		return bad("volumetricDivisor must be positive")
	}
	if len(c.WeightBandsGrams) == 0 {
		return bad("weightBandsGrams: at least one band")
	}
	for i, b := range c.WeightBandsGrams {
		if b <= 0 || i > 0 && b <= c.WeightBandsGrams[i-1] {
			return bad("weightBandsGrams must be positive and increasing")
		}
	}
	if last := c.WeightBandsGrams[len(c.WeightBandsGrams)-1]; last != c.MaxWeightGrams {
		return bad("the last weight band (%d g) must end at maxWeightGrams (%d g)", last, c.MaxWeightGrams)
	}
	if ins := c.Insurance; ins.RateBasisPoints < 0 || ins.RateBasisPoints > maxBasisPoints || ins.MinimumAmount < 0 || ins.MinimumAmount > maxPrice {
		return bad("insurance: rateBasisPoints 0..%d and minimumAmount 0..%d", maxBasisPoints, maxPrice)
	}
	zones, err := checkZones(c.Zones)
	if err != nil {
		return bad("%v", err)
	}
	if len(c.Routes) == 0 {
		return bad("routes: at least one zone pair")
	}
	pairs := map[[2]string]bool{}
	for _, r := range c.Routes {
		if !zones[r.From] || !zones[r.To] {
			return bad("route %s→%s: unknown zone", r.From, r.To)
		}
		if pairs[[2]string{r.From, r.To}] {
			return bad("route %s→%s listed twice", r.From, r.To)
		}
		pairs[[2]string{r.From, r.To}] = true
		if len(r.Prices) != len(c.WeightBandsGrams) {
			return bad("route %s→%s: %d prices for %d weight bands", r.From, r.To, len(r.Prices), len(c.WeightBandsGrams))
		}
		for _, p := range r.Prices {
			if p < 0 || p > maxPrice {
				return bad("route %s→%s: price %d outside 0..%d centavos", r.From, r.To, p, maxPrice)
			}
		}
		if r.Days.Min < 0 || r.Days.Max < r.Days.Min || r.Days.Max > maxDays {
			return bad("route %s→%s: days %d-%d: want 0 <= min <= max <= %d", r.From, r.To, r.Days.Min, r.Days.Max, maxDays)
		}
	}
	return nil
}

// checkZones returns the zone ids, refusing an unknown region, a region in
// two zones and a repeated or malformed id.
func checkZones(zs []Zone) (map[string]bool, error) {
	if len(zs) == 0 {
		return nil, fmt.Errorf("zones: none")
	}
	ids := map[string]bool{}
	regionZone := map[string]string{}
	for _, z := range zs {
		if !zoneID.MatchString(z.ID) || ids[z.ID] || strings.TrimSpace(z.Name) == "" {
			return nil, fmt.Errorf("zone %q: want a unique uppercase id and a name", z.ID)
		}
		ids[z.ID] = true
		if len(z.Regions) == 0 {
			return nil, fmt.Errorf("zone %s: no region", z.ID)
		}
		for _, code := range z.Regions {
			if _, ok := psgc.RegionByCode(code); !ok {
				return nil, fmt.Errorf("zone %s: %q is not a PSGC region code", z.ID, code)
			}
			if other, dup := regionZone[code]; dup {
				return nil, fmt.Errorf("region %s is in zones %s and %s", code, other, z.ID)
			}
			regionZone[code] = z.ID
		}
	}
	return ids, nil
}
