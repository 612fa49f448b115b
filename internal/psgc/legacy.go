package psgc

// Nine-digit (legacy) PSGC codes.
//
// Until the PSA moved to ten digits, a code was RRPPMMBBB: region, province,
// city or municipality, barangay. The ten-digit code is RRPPPMMBBB: the
// province part grew to three digits, a province keeping its number behind a
// leading zero (Batangas 10 → 010, so Agoncillo 041001000 → 0401001000).
// Two things are not mechanical:
//
//   - A province keeps its number when it changes region (the PSA's rule),
//     so the region digits of an old code may be out of date: Negros
//     Occidental's cities were region 06 and are now the Negros Island
//     Region (18). The mapping therefore finds the city by its province
//     and municipality digits alone and takes the region from today's row.
//   - Highly urbanized cities were given province-level codes of their own
//     (3xx, and 8xx in Metro Manila). In the old scheme the Metro Manila ones
//     sat in the City of Manila (39) and three districts (74, 75, 76), listed
//     below; the City of Manila's districts kept their order (133902000
//     Binondo → 1380602000). The other HUCs' old codes named a place in their
//     geographic province that no longer exists in the ten-digit list: they
//     are reported unknown, and the ten-digit code or the name finds them.
//
// A code that maps to nothing is unknown, as any other unknown code.

// metroManilaLegacy maps the old district and city digits (PPMM) of Metro
// Manila's cities and Pateros to today's codes.
var metroManilaLegacy = map[string]string{
	// Second district.
	"7401": "1380500000", // Mandaluyong
	"7402": "1380700000", // Marikina
	"7403": "1381200000", // Pasig
	"7404": "1381300000", // Quezon City
	"7405": "1381400000", // San Juan
	// Third district.
	"7501": "1380100000", // Caloocan
	"7502": "1380400000", // Malabon
	"7503": "1380900000", // Navotas
	"7504": "1381600000", // Valenzuela
	// Fourth district.
	"7601": "1380200000", // Las Piñas
	"7602": "1380300000", // Makati
	"7603": "1380800000", // Muntinlupa
	"7604": "1381000000", // Parañaque
	"7605": "1381100000", // Pasay
	"7606": "1381701000", // Pateros
	"7607": "1381500000", // Taguig
}

const manilaCode = "1380600000"

// legacyRegion maps RR0000000 to the region's ten-digit code.
func legacyRegion(code string) (string, bool) {
	if code[2:] != "0000000" {
		return "", false
	}
	return code[:2] + "00000000", true
}

// legacyProvince maps RRPP00000 to a province-level code: the province
// whose three digits are 0PP in whichever region it is now, or the City of
// Manila for its old code 39.
func legacyProvince(code string) (string, bool) {
	if code[4:] != "00000" {
		return "", false
	}
	if code[:2] == "13" {
		// Metro Manila's old province-level codes were the City of Manila
		// and three districts; a district is no province today.
		if code[2:4] == "39" {
			return manilaCode, true
		}
		return "", false
	}
	i, ok := names().provinceByDigits["0"+code[2:4]]
	if !ok {
		return "", false
	}
	return load().provinces[i].Code, true
}

// legacyCity maps RRPPMM000 to a city or municipality (see the file
// comment); RRPP00000 names the province-level row, which is a city for the
// City of Manila only.
func legacyCity(code string) (string, bool) {
	if code[6:] != "000" {
		return "", false
	}
	if code[:2] == "13" {
		if code[2:4] == "39" {
			return "13806" + code[4:6] + "000", true
		}
		c, ok := metroManilaLegacy[code[2:6]]
		return c, ok
	}
	i, ok := names().provMun["0"+code[2:6]]
	if !ok {
		return "", false
	}
	return load().cities[i].Code, true
}
