// Package channels holds the platform's shipping channels as data and the
// quote engine that prices a parcel on them. A channel (carrier service) is a
// JSON document: who carries, how a parcel is handed over, the daily cut-off
// and pickup window, size and weight limits, its zones (sets of PSGC
// regions), a price per zone pair and weight band in centavos, insurance and
// the estimated days per zone pair. The built-in set is channels.json; an
// operator replaces the stored set with "mpserver admin load-channels".
// Quotes are computed in memory from compiled Tables: no storage is touched
// per option. docs/decisions.md ("Shipping channels and quotes") records
// the rules.
package channels

// File is the shape of channels.json and of the files load-channels reads:
// the zones every channel uses unless it declares its own, and the channels.
type File struct {
	Zones    []Zone    `json:"zones"`
	Channels []Channel `json:"channels"`
}

// Zone is a set of PSGC regions priced alike (Metro Manila, the rest of
// Luzon, Visayas, Mindanao). Regions are 10-digit PSGC region codes.
type Zone struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Regions []string `json:"regions"`
}

// Handover is how a seller hands a parcel to the carrier.
type Handover string

const (
	// HandoverPickup: the carrier collects at the seller's pickup address
	// within the pickup window.
	HandoverPickup Handover = "PICKUP"
	// HandoverDropoff: the seller brings the parcel to a carrier branch.
	HandoverDropoff Handover = "DROPOFF"
)

// Channel is one shipping channel as stored: a self-contained document
// (its zones are copied in from the file's when it declares none).
type Channel struct {
	// ID is the channel code orders carry as shippingChannel
	// (uppercase letters, digits and underscores).
	ID          string `json:"id"`
	Name        string `json:"name"`
	Provider    string `json:"provider"`
	Description string `json:"description"`
	// Active channels are offered; inactive ones stay stored (orders name
	// them) but are not quoted.
	Active   bool       `json:"active"`
	Handover []Handover `json:"handover"`
	// Cutoff is the latest time of day (HH:mm, Asia/Manila) at which a
	// parcel is taken the same day.
	Cutoff       string `json:"cutoff"`
	PickupWindow Window `json:"pickupWindow"`
	// MaxWeightGrams is the heaviest actual weight taken; the last weight
	// band ends there.
	MaxWeightGrams int64 `json:"maxWeightGrams"`
	// MaxSidesCm are the largest sides taken, any order; a parcel fits when
	// its sides, longest first, are each within these, longest first.
	MaxSidesCm [3]int64 `json:"maxSidesCm"`
	// VolumetricDivisor is cubic centimetres per kilogram:
	// volumetric grams = L×W×H / divisor × 1000.
	VolumetricDivisor int64 `json:"volumetricDivisor"`
	// WeightBandsGrams are the inclusive upper bounds of the weight bands,
	// increasing; every route has one price per band.
	WeightBandsGrams []int64   `json:"weightBandsGrams"`
	Insurance        Insurance `json:"insurance"`
	Zones            []Zone    `json:"zones,omitempty"`
	// Routes are the zone pairs served (from the origin's zone to the
	// destination's); a pair not listed is not serviced.
	Routes []Route `json:"routes"`
}

// Window is a time range of a day, HH:mm to HH:mm, Asia/Manila.
type Window struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// Insurance is what declared-value cover costs: RateBasisPoints of the
// order amount (100 = 1%), at least MinimumAmount centavos.
type Insurance struct {
	RateBasisPoints int64 `json:"rateBasisPoints"`
	MinimumAmount   int64 `json:"minimumAmount"`
}

// Route is one served zone pair: a price in centavos per weight band and the
// estimated days in transit.
type Route struct {
	From   string  `json:"from"`
	To     string  `json:"to"`
	Prices []int64 `json:"prices"`
	Days   Days    `json:"days"`
}

// Days is an estimate in whole days after handover, shown as "min-max".
type Days struct {
	Min int `json:"min"`
	Max int `json:"max"`
}
