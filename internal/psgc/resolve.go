package psgc

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Location is what a query named: always a region, a province-level row and
// a city when the query reached them. A region alone is enough to tell
// the island group, which is what shipping zones need.
type Location struct {
	Region Region
	// Province is the province, or the highly urbanized city's own row,
	// when a province or a city was named; nil for a region alone and for
	// a city outside any province (Pateros, the City of Isabela).
	Province *Province
	// City is nil unless a city or municipality was named.
	City *City
}

// FieldError is a query field the resolution refused, with a message fit
// for the client (it quotes the client's own value, shortened).
type FieldError struct {
	Field   string
	Message string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Message }

// Resolve finds the place a query names with up to three fields, each a
// PSGC code (10 digits, or a legacy 9-digit one: see legacy.go) or a name
// matched without case, accents or punctuation. prefix is the query's
// field prefix ("origin_", "destination_"): errors name prefix+"region",
// prefix+"province" or prefix+"city".
//
// Rules:
//   - Nothing given: ok is false and the error nil (the caller decides what
//     a missing location means).
//   - The province may be a province or, by the address rule of the package
//     doc, the region's name for a city outside any province; a highly
//     urbanized city needs no province, and its geographic province (Cebu
//     for the City of Cebu, as people write it) is accepted too.
//   - A value that names nothing is refused on its own field; a province
//     outside the given region on the province field; a city outside the
//     given province or region on the city field.
//   - A city name that several places share (San Jose, Santa Cruz) is
//     refused on the city field unless the province (or region) leaves one.
func Resolve(prefix, region, province, city string) (loc Location, ok bool, err error) {
	region, province, city = strings.TrimSpace(region), strings.TrimSpace(province), strings.TrimSpace(city)
	if region == "" && province == "" && city == "" {
		return Location{}, false, nil
	}
	d := load()
	var r *Region
	if region != "" {
		i, found := findRegion(region)
		if !found {
			return Location{}, false, fieldErr(prefix+"region", "%q is not a PSGC region", region)
		}
		r = &d.regions[i]
	}
	var p *Province // a province proper, or an HUC's row given by code
	var pRegion *Region
	if province != "" {
		var found bool
		p, pRegion, found = findProvince(province)
		if !found {
			return Location{}, false, fieldErr(prefix+"province", "%q is not a PSGC province", province)
		}
		if p != nil {
			pr := &d.regions[d.regionBy[p.RegionCode]]
			if r != nil && r.Code != pr.Code {
				return Location{}, false, fieldErr(prefix+"province", "%s is not in %s", p.Name, r.Name)
			}
			r = pr
		} else {
			if r != nil && r.Code != pRegion.Code {
				return Location{}, false, fieldErr(prefix+"province", "%s is not %s", pRegion.Name, r.Name)
			}
			r = pRegion
		}
	}
	if city == "" {
		return Location{Region: *r, Province: p}, true, nil
	}
	c, err := findCity(prefix+"city", city, r, p)
	if err != nil {
		return Location{}, false, err
	}
	return LocationOf(c), true, nil
}

// LocationOf is the location of a known city (a stored address's psgcCode,
// say: the seller's default pickup address as a quote's origin).
func LocationOf(c *City) Location {
	d := load()
	loc := Location{Region: d.regions[d.regionBy[c.RegionCode]], City: c}
	if i, has := d.provinceBy[c.ProvinceCode]; has {
		loc.Province = &d.provinces[i]
	}
	return loc
}

// isCode tells a code from a name: only digits.
func isCode(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func findRegion(v string) (int, bool) {
	d := load()
	if isCode(v) {
		code, ok := tenDigits(v, legacyRegion)
		if !ok {
			return 0, false
		}
		i, ok := d.regionBy[code]
		return i, ok
	}
	i, ok := names().regions[fold(v)]
	return i, ok
}

// findProvince resolves the province field: a province (by code or name),
// an HUC's row (by code), or a region (its code or name, the address rule).
func findProvince(v string) (*Province, *Region, bool) {
	d := load()
	if isCode(v) {
		if code, ok := tenDigits(v, legacyProvince); ok {
			if i, ok := d.provinceBy[code]; ok {
				return &d.provinces[i], nil, true
			}
		}
		if i, ok := findRegion(v); ok {
			return nil, &d.regions[i], true
		}
		return nil, nil, false
	}
	k := fold(v)
	if i, ok := names().provinces[k]; ok {
		return &d.provinces[i], nil, true
	}
	if i, ok := names().regions[k]; ok {
		return nil, &d.regions[i], true
	}
	return nil, nil, false
}

// findCity resolves the city field within what the region and province
// fields already fixed (either may be nil).
func findCity(field, v string, r *Region, p *Province) (*City, error) {
	d := load()
	fits := func(c *City) bool {
		if r != nil && c.RegionCode != r.Code {
			return false
		}
		return p == nil || c.ProvinceCode == p.Code || geographicProvince[c.Code] == p.Code
	}
	if isCode(v) {
		code, ok := tenDigits(v, legacyCity)
		if !ok {
			return nil, fieldErr(field, "%q is not a PSGC city or municipality", v)
		}
		i, ok := d.cityBy[code]
		if !ok {
			return nil, fieldErr(field, "%q is not a PSGC city or municipality", v)
		}
		c := &d.cities[i]
		if !fits(c) {
			return nil, contradiction(field, c, r, p)
		}
		return c, nil
	}
	k := fold(v)
	x := names()
	var seen *City
	for _, candidates := range [2][]int{x.cities[k], x.cityAliases[k]} {
		var match *City
		n := 0
		for _, i := range candidates {
			c := &d.cities[i]
			if seen == nil {
				seen = c
			}
			if fits(c) {
				match = c
				n++
			}
		}
		switch {
		case n == 1:
			return match, nil
		case n > 1 && p == nil:
			return nil, fieldErr(field, "%q names %d cities or municipalities; add the %s to tell which", v, n, provinceField(field))
		case n > 1:
			return nil, fieldErr(field, "%q names %d cities or municipalities in %s", v, n, p.Name)
		}
	}
	if seen == nil {
		return nil, fieldErr(field, "%q is not a PSGC city or municipality", v)
	}
	return nil, contradiction(field, seen, r, p)
}

// contradiction explains a city that exists but not where the query put it.
func contradiction(field string, c *City, r *Region, p *Province) error {
	if p != nil {
		return fieldErr(field, "%s is not in %s", c.Name, p.Name)
	}
	return fieldErr(field, "%s is not in %s", c.Name, r.Name)
}

func provinceField(cityField string) string {
	return strings.TrimSuffix(cityField, "city") + "province"
}

// tenDigits returns a 10-digit code as given and maps a 9-digit one with
// legacy; any other length is no code.
func tenDigits(v string, legacy func(string) (string, bool)) (string, bool) {
	switch len(v) {
	case 10:
		return v, true
	case 9:
		return legacy(v)
	}
	return "", false
}

// maxEcho bounds how much of a client's value an error message repeats.
const maxEcho = 60

func fieldErr(field, format string, args ...any) error {
	for i, a := range args {
		if s, ok := a.(string); ok && len(s) > maxEcho {
			cut := maxEcho
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
			args[i] = s[:cut] + "…"
		}
	}
	return &FieldError{Field: field, Message: fmt.Sprintf(format, args...)}
}
