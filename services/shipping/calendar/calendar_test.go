package calendar_test

import (
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/services/shipping/calendar"
)

const (
	cebuProvince = "0702200000" // Cebu (province)
	cebuRegion   = "0700000000" // Central Visayas
	boholProv    = "0701200000" // Bohol, same region
	ncr          = "1300000000"
)

func date(t *testing.T, s string) calendar.Date {
	t.Helper()
	d, err := calendar.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// shipped is the 2026 file plus New Year's Day 2027 (for the span across
// the year's end) and a local holiday of the province of Cebu.
func shipped(t *testing.T, extra ...calendar.Day) *calendar.Snapshot {
	t.Helper()
	days, err := calendar.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	days = append(days, calendar.Day{Date: date(t, "2027-01-01"), Kind: calendar.RegularHoliday, Name: "New Year's Day"})
	return calendar.NewSnapshot(7, append(days, extra...))
}

func TestCheck(t *testing.T) {
	snap := shipped(t,
		calendar.Day{Date: date(t, "2026-08-06"), Kind: calendar.SpecialNonWorking, Name: "Cebu Provincial Charter Day", Scope: cebuProvince},
		calendar.Day{Date: date(t, "2026-09-13"), Kind: calendar.SpecialWorking, Name: "A Sunday proclaimed working"},
	)
	cebu := calendar.Place{RegionCode: cebuRegion, ProvinceCode: cebuProvince}
	bohol := calendar.Place{RegionCode: cebuRegion, ProvinceCode: boholProv}
	manila := calendar.Place{RegionCode: ncr}
	type want struct {
		working   bool
		reason    calendar.Reason
		holiday   string
		tentative bool
	}
	cases := []struct {
		name  string
		date  string
		place calendar.Place
		want  want
	}{
		{"a plain Tuesday", "2026-03-10", manila, want{working: true}},
		{"a plain Saturday", "2026-03-14", manila, want{working: true}},
		{"a Sunday", "2026-03-15", manila, want{reason: calendar.NonWorkingDay}},
		{"the special working day (a Wednesday)", "2026-02-25", manila, want{working: true}},
		{"a Sunday proclaimed working stays non-working", "2026-09-13", manila, want{reason: calendar.NonWorkingDay}},
		{"Chinese New Year", "2026-02-17", manila, want{reason: calendar.Holiday, holiday: "Chinese New Year"}},
		// Holy Week 2026: Maundy Thursday to Easter Sunday in a row.
		{"Holy Wednesday works", "2026-04-01", manila, want{working: true}},
		{"Maundy Thursday", "2026-04-02", manila, want{reason: calendar.Holiday, holiday: "Maundy Thursday"}},
		{"Good Friday", "2026-04-03", manila, want{reason: calendar.Holiday, holiday: "Good Friday"}},
		{"Black Saturday", "2026-04-04", manila, want{reason: calendar.Holiday, holiday: "Black Saturday"}},
		{"Easter Sunday", "2026-04-05", manila, want{reason: calendar.NonWorkingDay}},
		{"Easter Monday works", "2026-04-06", manila, want{working: true}},
		{"All Saints' Day on a Sunday is a holiday first", "2026-11-01", manila, want{reason: calendar.Holiday, holiday: "All Saints' Day"}},
		{"Eid'l Fitr is a tentative holiday", "2026-03-20", manila, want{reason: calendar.Holiday, holiday: "Eid'l Fitr", tentative: true}},
		{"a local holiday in its province", "2026-08-06", cebu, want{reason: calendar.Holiday, holiday: "Cebu Provincial Charter Day"}},
		{"not in another province of the region", "2026-08-06", bohol, want{working: true}},
		{"not in another region", "2026-08-06", manila, want{working: true}},
		{"not for a place with no codes", "2026-08-06", calendar.Place{}, want{working: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := snap.Check(date(t, c.date), c.place)
			got := want{working: v.Working, reason: v.Reason, tentative: v.Tentative}
			if v.Holiday != nil {
				got.holiday = v.Holiday.Name
			}
			if got != c.want {
				t.Errorf("Check(%s) = %+v, want %+v", c.date, got, c.want)
			}
		})
	}
}

// From Christmas Eve to the second of January only the 28th, 29th and the
// 2nd are pickup days (the 26th is a Saturday, the 27th a Sunday).
func TestYearEnd(t *testing.T) {
	snap := shipped(t)
	var working []string
	for d := date(t, "2026-12-24"); !date(t, "2027-01-02").Before(d); d = d.AddDays(1) {
		if snap.Check(d, calendar.Place{}).Working {
			working = append(working, d.String())
		}
	}
	want := []string{"2026-12-26", "2026-12-28", "2026-12-29", "2027-01-02"}
	if len(working) != len(want) {
		t.Fatalf("working days %v, want %v", working, want)
	}
	for i := range want {
		if working[i] != want[i] {
			t.Fatalf("working days %v, want %v", working, want)
		}
	}
}

func TestSpecialWorkingDay(t *testing.T) {
	sunday := calendar.Day{Date: date(t, "2026-09-13"), Kind: calendar.SpecialWorking, Name: "Sunday working"}
	snap := calendar.NewSnapshot(1, []calendar.Day{sunday,
		{Date: date(t, "2026-02-25"), Kind: calendar.SpecialWorking, Name: "EDSA"},
		// A local holiday on the national special working day wins there.
		{Date: date(t, "2026-02-25"), Kind: calendar.SpecialNonWorking, Name: "Local fiesta", Scope: cebuProvince},
	})
	if v := snap.Check(date(t, "2026-02-25"), calendar.Place{}); !v.Working || v.Special == nil || v.Special.Name != "EDSA" {
		t.Errorf("EDSA day: %+v, want working, special EDSA", v)
	}
	if v := snap.Check(date(t, "2026-02-25"), calendar.Place{RegionCode: cebuRegion, ProvinceCode: cebuProvince}); v.Working || v.Holiday.Name != "Local fiesta" {
		t.Errorf("EDSA day in Cebu: %+v, want the local holiday", v)
	}
	if v := snap.CheckWith(date(t, "2026-09-13"), calendar.Place{}, calendar.Policy{WorkingSundays: true}); !v.Working {
		t.Errorf("a channel with working Sundays: %+v, want working", v)
	}
	if v := snap.CheckWith(date(t, "2026-09-20"), calendar.Place{}, calendar.Policy{WorkingSundays: true}); v.Working {
		t.Errorf("an ordinary Sunday under working Sundays: %+v, want non-working", v)
	}
}

func TestYearAndPlace(t *testing.T) {
	snap := shipped(t, calendar.Day{Date: date(t, "2026-08-06"), Kind: calendar.SpecialNonWorking, Name: "Cebu day", Scope: cebuProvince})
	if got := len(snap.Year(2026, nil)); got != 22 {
		t.Errorf("2026, every day: %d, want 22", got)
	}
	p, ok := calendar.PlaceOfScope(ncr)
	if !ok || len(snap.Year(2026, &p)) != 21 {
		t.Errorf("2026 in NCR: want the 21 national days")
	}
	p, ok = calendar.PlaceOfScope(cebuProvince)
	if !ok || len(snap.Year(2026, &p)) != 22 {
		t.Errorf("2026 in Cebu: want the national days and Cebu's")
	}
	if got := snap.Year(1999, nil); got == nil || len(got) != 0 {
		t.Errorf("a year without data: %v, want an empty list", got)
	}
	if _, ok := calendar.PlaceOfScope("9999999999"); ok {
		t.Error("an unknown code names a place")
	}
	city, ok := calendar.PlaceOfCity("0730600000") // City of Cebu, a highly urbanised city
	if !ok || city.RegionCode != cebuRegion || city.ProvinceCode != "0730600000" {
		t.Errorf("City of Cebu: %+v", city)
	}
	if snap.Version() != 7 {
		t.Errorf("version %d", snap.Version())
	}
}

func TestParseRefuses(t *testing.T) {
	for name, body := range map[string]string{
		"empty":          `{"days":[]}`,
		"unknown field":  `{"days":[{"date":"2026-01-01","kind":"REGULAR_HOLIDAY","name":"x","colour":"red"}]}`,
		"bad date":       `{"days":[{"date":"2026-02-30","kind":"REGULAR_HOLIDAY","name":"x"}]}`,
		"bad kind":       `{"days":[{"date":"2026-01-01","kind":"HOLIDAY","name":"x"}]}`,
		"no name":        `{"days":[{"date":"2026-01-01","kind":"REGULAR_HOLIDAY","name":" "}]}`,
		"bad scope":      `{"days":[{"date":"2026-01-01","kind":"REGULAR_HOLIDAY","name":"x","scope":"123"}]}`,
		"twice":          `{"days":[{"date":"2026-01-01","kind":"REGULAR_HOLIDAY","name":"x"},{"date":"2026-01-01","kind":"SPECIAL_WORKING","name":"y"}]}`,
		"tentative work": `{"days":[{"date":"2026-01-01","kind":"SPECIAL_WORKING","name":"x","tentative":true}]}`,
	} {
		if _, err := calendar.Parse([]byte(body)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if d := calendar.NewDate(2026, time.February, 30); d.String() != "2026-03-02" {
		t.Errorf("NewDate normalises: %s", d)
	}
}
