package psgc

import (
	"errors"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	cases := []struct {
		name                   string
		region, province, city string
		// want: the city code, or for a partial location the province or
		// region code.
		wantCity, wantProvince, wantRegion string
	}{
		{name: "city by name", city: "Quezon City", wantCity: "1381300000", wantProvince: "1381300000", wantRegion: ncrCode},
		{name: "lower case", city: "quezon city", wantCity: "1381300000", wantRegion: ncrCode},
		{name: "accent", city: "Las Piñas", wantCity: "1380200000", wantRegion: ncrCode},
		{name: "without accent", city: "Las Pinas", wantCity: "1380200000", wantRegion: ncrCode},
		{name: "X City for City of X", city: "Makati City", wantCity: "1380300000"},
		{name: "bare X for City of X", city: "makati", wantCity: "1380300000"},
		{name: "City of X for X City", city: "City of Pasay", wantCity: "1381100000"},
		{name: "punctuation folded", city: "lapu lapu", wantCity: "0731100000"},
		{name: "HUC with region as province", province: "National Capital Region (NCR)", city: "Makati", wantCity: "1380300000"},
		{name: "HUC with Metro Manila as province", province: "Metro Manila", city: "Taguig", wantCity: "1381500000"},
		{name: "HUC with its geographic province", province: "Cebu", city: "Cebu City", wantCity: "0730600000", wantRegion: "0700000000"},
		{name: "HUC with region", region: "Central Visayas", city: "City of Cebu", wantCity: "0730600000"},
		{name: "municipality with province", region: "CALABARZON", province: "Batangas", city: "Agoncillo", wantCity: "0401001000", wantProvince: "0401000000"},
		{name: "ambiguous name settled by province", province: "Nueva Ecija", city: "San Jose", wantCity: "0304926000"},
		{name: "exact name beats the alias", province: "Occidental Mindoro", city: "San Jose", wantCity: "1705110000"},
		{name: "10-digit city code", city: "0401001000", wantCity: "0401001000"},
		{name: "10-digit codes agree", region: "0400000000", province: "0401000000", city: "0401001000", wantCity: "0401001000"},
		{name: "legacy municipality", city: "041001000", wantCity: "0401001000"},
		{name: "legacy province, region moved", province: "064500000", wantProvince: "1804500000", wantRegion: "1800000000"},
		{name: "legacy city, region moved (Negros Occidental to NIR)", city: "064502000", wantCity: "1804502000", wantRegion: "1800000000"},
		{name: "legacy Metro Manila city", city: "137404000", wantCity: "1381300000"},
		{name: "legacy Pateros", city: "137606000", wantCity: "1381701000"},
		{name: "legacy Manila district", city: "133902000", wantCity: "1380602000"},
		{name: "legacy region", region: "070000000", wantRegion: "0700000000"},
		{name: "legacy City of Manila as province", province: "133900000", wantProvince: manilaCode},
		{name: "region alone", region: "Region VII", wantRegion: "0700000000"},
		{name: "region by short name", region: "ncr", wantRegion: ncrCode},
		{name: "province alone", province: "batangas", wantProvince: "0401000000", wantRegion: "0400000000"},
		{name: "city outside any province", city: "Pateros", wantCity: "1381701000", wantRegion: ncrCode},
		{name: "spaces trimmed", city: "  Quezon   City ", wantCity: "1381300000"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			loc, ok, err := Resolve("origin_", tc.region, tc.province, tc.city)
			if err != nil || !ok {
				t.Fatalf("Resolve: %v, %v", ok, err)
			}
			if tc.wantCity != "" && (loc.City == nil || loc.City.Code != tc.wantCity) {
				t.Errorf("city = %+v, want %s", loc.City, tc.wantCity)
			}
			if tc.wantProvince != "" && (loc.Province == nil || loc.Province.Code != tc.wantProvince) {
				t.Errorf("province = %+v, want %s", loc.Province, tc.wantProvince)
			}
			if tc.wantRegion != "" && loc.Region.Code != tc.wantRegion {
				t.Errorf("region = %+v, want %s", loc.Region, tc.wantRegion)
			}
			if loc.City != nil && loc.City.RegionCode != loc.Region.Code {
				t.Errorf("city %s in region %s", loc.City.Code, loc.Region.Code)
			}
		})
	}
}

func TestResolveRefusals(t *testing.T) {
	cases := []struct {
		name                   string
		region, province, city string
		field, message         string
	}{
		{name: "unknown city", city: "Springfield", field: "destination_city", message: "not a PSGC city"},
		{name: "unknown province", province: "Atlantis", field: "destination_province", message: "not a PSGC province"},
		{name: "unknown region", region: "Region XX", field: "destination_region", message: "not a PSGC region"},
		{name: "unknown code", city: "0000000000", field: "destination_city"},
		{name: "code of the wrong length", city: "12345", field: "destination_city"},
		{name: "barangay code", city: "0401001001", field: "destination_city"},
		{name: "legacy HUC code outside Metro Manila", city: "072217000", field: "destination_city"},
		{name: "legacy Metro Manila district is no province", province: "137600000", field: "destination_province"},
		{name: "city contradicts province", province: "Batangas", city: "Quezon City", field: "destination_city", message: "Quezon City is not in Batangas"},
		{name: "city contradicts region", region: "Region VII", city: "Makati", field: "destination_city", message: "is not in Region VII"},
		{name: "HUC in another province", province: "Leyte", city: "Cebu City", field: "destination_city"},
		{name: "province contradicts region", region: "NCR", province: "Batangas", field: "destination_province", message: "Batangas is not in National Capital Region"},
		{name: "region as province contradicts region", region: "NCR", province: "Central Visayas", field: "destination_province"},
		{name: "ambiguous city", city: "San Jose", field: "destination_city", message: "add the destination_province"},
		{name: "ambiguous Santa Cruz", city: "Santa Cruz", field: "destination_city", message: "destination_province"},
		{name: "sub-municipality by name is no address city", city: "Binondo", field: "destination_city"},
		{name: "long value is shortened", city: strings.Repeat("ñ", 200), field: "destination_city", message: "…"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, ok, err := Resolve("destination_", tc.region, tc.province, tc.city)
			var fe *FieldError
			if !errors.As(err, &fe) || ok {
				t.Fatalf("Resolve = %v, %v; want a FieldError", ok, err)
			}
			if fe.Field != tc.field || !strings.Contains(fe.Message, tc.message) {
				t.Errorf("got %s: %s; want %s containing %q", fe.Field, fe.Message, tc.field, tc.message)
			}
			if len(fe.Message) > 200 {
				t.Errorf("message of %d bytes", len(fe.Message))
			}
		})
	}
}

func TestResolveNothingGiven(t *testing.T) {
	loc, ok, err := Resolve("origin_", "", " ", "")
	if ok || err != nil || loc.City != nil {
		t.Fatalf("Resolve of nothing = %+v, %v, %v", loc, ok, err)
	}
}

// Every address city is found by its own name once its province is given,
// and by its code: the name index and the codes agree over the whole list.
func TestResolveEveryCity(t *testing.T) {
	for _, c := range Cities() {
		if c.Class == "SubMun" {
			continue
		}
		p := PlaceOf(c)
		loc, ok, err := Resolve("origin_", "", p.Province, c.Name)
		if err != nil || !ok || loc.City.Code != c.Code {
			t.Errorf("%s %q in %q: %+v, %v", c.Code, c.Name, p.Province, loc.City, err)
		}
		loc, _, err = Resolve("origin_", p.Region.Code, "", c.Code)
		if err != nil || loc.City.Code != c.Code {
			t.Errorf("%s by code: %v", c.Code, err)
		}
	}
}

// The ten-digit province part is unique nationally, as the legacy mapping
// assumes (a province keeps its number across regions).
func TestProvinceDigitsAreUnique(t *testing.T) {
	seen := map[string]string{}
	for _, p := range Provinces() {
		if other, dup := seen[p.Code[2:5]]; dup {
			t.Errorf("%s and %s share province digits", p.Code, other)
		}
		seen[p.Code[2:5]] = p.Code
	}
}

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"Las Piñas":                     "las pinas",
		"  City of  Lapu-Lapu ":         "city of lapu lapu",
		"Sto. Niño":                     "sto nino",
		"ÉCIJA":                         "ecija",
		"National Capital Region (NCR)": "national capital region ncr",
	} {
		if got := fold(in); got != want {
			t.Errorf("fold(%q) = %q, want %q", in, got, want)
		}
	}
}

func BenchmarkResolveByName(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Resolve("origin_", "", "Cebu", "Lapu-Lapu City"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResolveByCode(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Resolve("origin_", "", "", "0401001000"); err != nil {
			b.Fatal(err)
		}
	}
}

func TestLocationOf(t *testing.T) {
	c, ok := CityByCode("0401001000")
	if !ok {
		t.Fatal("Agoncillo missing")
	}
	loc := LocationOf(&c)
	if loc.Region.Code != "0400000000" || loc.Province == nil || loc.Province.Name != "Batangas" || loc.City.Code != c.Code {
		t.Errorf("LocationOf(Agoncillo) = %+v", loc)
	}
	pateros, _ := CityByCode("1381701000")
	if loc := LocationOf(&pateros); loc.Province != nil || loc.Region.Code != ncrCode {
		t.Errorf("LocationOf(Pateros) = %+v", loc)
	}
}
