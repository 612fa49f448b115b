package psgc

import (
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// fold reduces a place name to the key it is matched by: accents dropped
// (NFD, then the combining marks removed: "Las Piñas" and "Las Pinas" meet),
// lower case, and every run of other characters (spaces, dots, hyphens,
// parentheses) one space, trimmed. "Lapu-Lapu" and "lapu lapu" meet too.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(unicode.ToLower(r))
		default:
			space = true
		}
	}
	return b.String()
}

// cityAliases are the other keys a city is known by. The PSA writes most
// cities "City of X" and a few "X City" (Quezon City, Pasay City, Batangas
// City); people write either, or "X" alone, so each form finds the city.
// These rank below the exact name: "Santiago" is first the municipalities
// of that name, and only when the province rules those out the City of
// Santiago.
func cityAliases(key string) []string {
	switch {
	case strings.HasPrefix(key, "city of "):
		x := strings.TrimPrefix(key, "city of ")
		return []string{x + " city", x}
	case strings.HasSuffix(key, " city"):
		x := strings.TrimSuffix(key, " city")
		return []string{"city of " + x, x}
	}
	return nil
}

// regionAliases are the keys a region is known by besides its full name:
// "National Capital Region (NCR)" is also "NCR", "National Capital Region"
// and "Metro Manila"; "Region VII (Central Visayas)" is also "Region VII"
// and "Central Visayas"; "MIMAROPA Region" is also "MIMAROPA".
func regionAliases(key, code string) []string {
	var out []string
	if open := strings.Index(key, "("); open >= 0 {
		out = append(out, fold(key[:open]), fold(key[open:]))
	}
	if x, ok := strings.CutSuffix(key, " region"); ok {
		out = append(out, x)
	}
	if code == ncrCode {
		out = append(out, "metro manila")
	}
	return out
}

const ncrCode = "1300000000"

// nameIndex finds places by folded name; built on first use.
type nameIndex struct {
	regions map[string]int // key → index in regions
	// provinces holds provinces proper only: an HUC is named as a city.
	provinces map[string]int
	// cities and cityAliases map a key to address cities (sub-municipalities
	// left out: an address names the City of Manila, not its district).
	cities      map[string][]int
	cityAliases map[string][]int
	// provMun finds a city by the province and municipality digits of its
	// code (PPPMM), which the PSA keeps when a province changes region.
	provMun map[string]int
	// provinceByDigits finds a province-level row by its three province digits.
	provinceByDigits map[string]int
}

var (
	indexOnce sync.Once
	index     *nameIndex
)

func names() *nameIndex {
	indexOnce.Do(func() {
		d := load()
		x := &nameIndex{
			regions:          map[string]int{},
			provinces:        map[string]int{},
			cities:           map[string][]int{},
			cityAliases:      map[string][]int{},
			provMun:          map[string]int{},
			provinceByDigits: map[string]int{},
		}
		for i, r := range d.regions {
			k := fold(r.Name)
			x.regions[k] = i
			for _, a := range regionAliases(strings.ToLower(r.Name), r.Code) {
				if _, taken := x.regions[a]; !taken && a != "" {
					x.regions[a] = i
				}
			}
		}
		for i, p := range d.provinces {
			x.provinceByDigits[p.Code[2:5]] = i
			if p.Class == "" {
				x.provinces[fold(p.Name)] = i
			}
		}
		for i, c := range d.cities {
			x.provMun[c.Code[2:7]] = i
			if c.Class == "SubMun" {
				continue
			}
			k := fold(c.Name)
			x.cities[k] = append(x.cities[k], i)
			for _, a := range cityAliases(k) {
				x.cityAliases[a] = append(x.cityAliases[a], i)
			}
		}
		index = x
	})
	return index
}
