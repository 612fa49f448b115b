package calendar

import "github.com/mallplatform/partnerapi/internal/psgc"

// PlaceOfCity is the Place of an address's city or municipality (a 10-digit
// PSGC code): its region and its province (or the highly urbanised city
// that stands for one). ok is false for an unknown code.
func PlaceOfCity(code string) (p Place, ok bool) {
	c, ok := psgc.CityByCode(code)
	if !ok {
		return Place{}, false
	}
	return Place{RegionCode: c.RegionCode, ProvinceCode: c.ProvinceCode}, true
}

// PlaceOfScope is the Place a region or province code (a day's scope, or
// the calendar route's region filter) stands for: a region sees the
// national days and its own; a province sees those and its region's. ok is
// false for a code that is neither.
func PlaceOfScope(code string) (p Place, ok bool) {
	if r, ok := psgc.RegionByCode(code); ok {
		return Place{RegionCode: r.Code}, true
	}
	if pr, ok := psgc.ProvinceByCode(code); ok {
		return Place{RegionCode: pr.RegionCode, ProvinceCode: pr.Code}, true
	}
	return Place{}, false
}

// ValidScope reports whether s may scope a day: "" (national) or a PSGC
// region or province code.
func ValidScope(s string) bool {
	if s == "" {
		return true
	}
	_, ok := PlaceOfScope(s)
	return ok
}
