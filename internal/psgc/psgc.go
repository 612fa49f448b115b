// Package psgc is the Philippine Standard Geographic Code as the platform
// uses it for addresses: regions, provinces (with the highly urbanized cities
// that stand outside a province), and cities and municipalities, each with an
// indicative postal code where one is known. The data is a derived file
// embedded in the binary (psgc.tsv, whose header names the source and
// quarter); gen/ regenerates it when the PSA publishes a new quarter.
//
// Address rule: the "province" of an address is the PSGC province the city or
// municipality belongs to. Highly urbanized cities (Makati, Cebu City, Davao
// City...), Pateros, the City of Isabela and the Special Geographic Area of
// BARMM stand outside any province, so their address province is the name of
// their region ("National Capital Region (NCR)" for Metro Manila cities), as
// the Address message documents.
//
// Resolve reads a location a client names with region, province and city
// fields (codes, legacy 9-digit codes or names): see resolve.go and
// docs/decisions.md, "PSGC matching".
package psgc

import (
	_ "embed"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
)

//go:embed psgc.tsv
var raw string

// Region is one of the country's administrative regions.
type Region struct {
	// Code is the 10-digit PSGC code ("1300000000").
	Code string
	Name string
}

// Province is a province, or a highly urbanized city (Class "HUC") that the
// PSGC lists at province level.
type Province struct {
	Code       string
	RegionCode string
	Name       string
	// OldName is the former name, when the PSA records one.
	OldName string
	// Class is "HUC" for a highly urbanized city, "" for a province.
	Class string
}

// City is a city or municipality. The PSGC also lists the districts of the
// City of Manila at this level; they carry Class "SubMun" and are not
// address cities of their own.
type City struct {
	Code       string
	RegionCode string
	// ProvinceCode is the province-level row the city belongs to: its
	// province, itself for an HUC, the HUC for a sub-municipality, "" for
	// places outside any province.
	ProvinceCode string
	Name         string
	OldName      string
	// Class is "HUC", "SubMun" or "".
	Class string
	// PostalCode is an indicative 4-digit ZIP code (the city's main post
	// office), "" when the source had no unambiguous match.
	PostalCode string
}

// Place is a city with the names an address needs.
type Place struct {
	City   City
	Region Region
	// Province is the address province: the province's name, or the
	// region's name for a city outside any province (see the package doc).
	Province string
}

type dataset struct {
	regions     []Region
	provinces   []Province
	cities      []City
	addressable []int // indexes of cities that are address cities
	regionBy    map[string]int
	provinceBy  map[string]int
	cityBy      map[string]int
}

var (
	loadOnce sync.Once
	data     *dataset
)

func load() *dataset {
	loadOnce.Do(func() {
		d, err := parse(raw)
		if err != nil {
			// The file is embedded and tested: a parse failure is a build defect.
			panic("psgc: " + err.Error())
		}
		data = d
	})
	return data
}

func parse(text string) (*dataset, error) {
	d := &dataset{regionBy: map[string]int{}, provinceBy: map[string]int{}, cityBy: map[string]int{}}
	for n, line := range strings.Split(text, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		bad := func() error { return fmt.Errorf("line %d: malformed %q", n+1, line) }
		switch f[0] {
		case "R":
			if len(f) != 3 {
				return nil, bad()
			}
			d.regionBy[f[1]] = len(d.regions)
			d.regions = append(d.regions, Region{Code: f[1], Name: f[2]})
		case "P":
			if len(f) != 6 {
				return nil, bad()
			}
			d.provinceBy[f[1]] = len(d.provinces)
			d.provinces = append(d.provinces, Province{Code: f[1], RegionCode: f[2], Name: f[3], OldName: f[4], Class: f[5]})
		case "C":
			if len(f) != 8 {
				return nil, bad()
			}
			c := City{Code: f[1], RegionCode: f[2], ProvinceCode: f[3], Name: f[4], OldName: f[5], Class: f[6], PostalCode: f[7]}
			if _, ok := d.regionBy[c.RegionCode]; !ok {
				return nil, fmt.Errorf("line %d: city %s names unknown region %s", n+1, c.Code, c.RegionCode)
			}
			if _, ok := d.provinceBy[c.ProvinceCode]; c.ProvinceCode != "" && !ok {
				return nil, fmt.Errorf("line %d: city %s names unknown province %s", n+1, c.Code, c.ProvinceCode)
			}
			d.cityBy[c.Code] = len(d.cities)
			if c.Class != "SubMun" {
				d.addressable = append(d.addressable, len(d.cities))
			}
			d.cities = append(d.cities, c)
		default:
			return nil, bad()
		}
	}
	if len(d.regions) == 0 || len(d.provinces) == 0 || len(d.cities) == 0 {
		return nil, fmt.Errorf("empty dataset")
	}
	return d, nil
}

// Regions returns every region in the source's order. The slice is shared:
// do not modify it.
func Regions() []Region { return load().regions }

// Provinces returns every province and highly urbanized city, by code. The
// slice is shared: do not modify it.
func Provinces() []Province { return load().provinces }

// Cities returns every city, municipality and sub-municipality, by code.
// The slice is shared: do not modify it.
func Cities() []City { return load().cities }

// RegionByCode looks a region up by its 10-digit code.
func RegionByCode(code string) (Region, bool) {
	d := load()
	i, ok := d.regionBy[code]
	if !ok {
		return Region{}, false
	}
	return d.regions[i], true
}

// ProvinceByCode looks a province or HUC up by its 10-digit code.
func ProvinceByCode(code string) (Province, bool) {
	d := load()
	i, ok := d.provinceBy[code]
	if !ok {
		return Province{}, false
	}
	return d.provinces[i], true
}

// CityByCode looks a city or municipality up by its 10-digit code.
func CityByCode(code string) (City, bool) {
	d := load()
	i, ok := d.cityBy[code]
	if !ok {
		return City{}, false
	}
	return d.cities[i], true
}

// PlaceOf resolves the region and address province of c.
func PlaceOf(c City) Place {
	d := load()
	region := d.regions[d.regionBy[c.RegionCode]]
	p := Place{City: c, Region: region, Province: region.Name}
	if i, ok := d.provinceBy[c.ProvinceCode]; ok && d.provinces[i].Class == "" {
		p.Province = d.provinces[i].Name
	}
	return p
}

// RandomCity picks a city or municipality uniformly (sub-municipalities
// excluded: an address names the City of Manila, not its district) and
// returns it with its address province and region. The same rng state gives
// the same place.
func RandomCity(rng *rand.Rand) Place {
	d := load()
	return PlaceOf(d.cities[d.addressable[rng.IntN(len(d.addressable))]])
}
