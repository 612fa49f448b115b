package channels

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestDefaultChannels(t *testing.T) {
	chs, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if len(chs) < 4 || len(chs) > 5 {
		t.Fatalf("%d built-in channels, want 4 or 5", len(chs))
	}
	var sameDay, bulky, express bool
	for _, c := range chs {
		if len(c.Zones) == 0 {
			t.Errorf("%s: zones not filled from the file", c.ID)
		}
		switch {
		case len(c.Routes) == 1 && c.Routes[0].From == "METRO_MANILA" && c.Routes[0].To == "METRO_MANILA" && c.Routes[0].Days.Max == 0:
			sameDay = true
		case c.MaxWeightGrams >= 50000:
			bulky = true
		case strings.Contains(c.ID, "EXPRESS"):
			express = true
		}
	}
	if !sameDay || !bulky || !express {
		t.Errorf("built-in set lacks a kind: same-day %v, bulky %v, express %v", sameDay, bulky, express)
	}
	if _, err := Build(chs); err != nil {
		t.Fatal(err)
	}
}

// Every region of the PSGC is in exactly one zone of the shared set.
func TestDefaultZonesCoverEveryRegion(t *testing.T) {
	var f File
	if err := json.Unmarshal(defaultJSON, &f); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, z := range f.Zones {
		n += len(z.Regions)
	}
	if n != 18 {
		t.Errorf("zones list %d regions, want the 18 of the PSGC", n)
	}
	if _, err := checkZones(f.Zones); err != nil {
		t.Error(err)
	}
}

// edit returns the built-in file with one channel changed by fn, encoded.
func edit(t *testing.T, fn func(f *File)) []byte {
	t.Helper()
	var f File
	if err := json.Unmarshal(defaultJSON, &f); err != nil {
		t.Fatal(err)
	}
	fn(&f)
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseRefuses(t *testing.T) {
	cases := []struct {
		name string
		fn   func(f *File)
		want string
	}{
		{"missing price cell", func(f *File) { f.Channels[0].Routes[3].Prices = f.Channels[0].Routes[3].Prices[1:] }, "5 prices for 6 weight bands"},
		{"bad cutoff", func(f *File) { f.Channels[0].Cutoff = "24:00" }, "cutoff"},
		{"cutoff without colon", func(f *File) { f.Channels[0].Cutoff = "1600" }, "cutoff"},
		{"window backwards", func(f *File) { f.Channels[0].PickupWindow = Window{"17:00", "09:00"} }, "pickupWindow"},
		{"zero divisor", func(f *File) { f.Channels[0].VolumetricDivisor = 0 }, "volumetricDivisor"},
		{"negative divisor", func(f *File) { f.Channels[0].VolumetricDivisor = -5000 }, "volumetricDivisor"},
		{"zero side", func(f *File) { f.Channels[0].MaxSidesCm[2] = 0 }, "maxSidesCm"},
		{"bands not increasing", func(f *File) { f.Channels[0].WeightBandsGrams[2] = 900 }, "increasing"},
		{"bands short of the maximum", func(f *File) { f.Channels[0].MaxWeightGrams = 30000 }, "must end at maxWeightGrams"},
		{"negative price", func(f *File) { f.Channels[0].Routes[0].Prices[0] = -1 }, "price"},
		{"days backwards", func(f *File) { f.Channels[0].Routes[0].Days = Days{4, 2} }, "days"},
		{"unknown handover", func(f *File) { f.Channels[0].Handover = []Handover{"COURIER"} }, "handover"},
		{"repeated handover", func(f *File) { f.Channels[0].Handover = []Handover{"PICKUP", "PICKUP"} }, "handover"},
		{"no handover", func(f *File) { f.Channels[0].Handover = nil }, "handover"},
		{"route to unknown zone", func(f *File) { f.Channels[0].Routes[0].To = "LUNA" }, "unknown zone"},
		{"route twice", func(f *File) { f.Channels[0].Routes[1] = f.Channels[0].Routes[0] }, "listed twice"},
		{"no routes", func(f *File) { f.Channels[0].Routes = nil }, "routes"},
		{"unknown region", func(f *File) { f.Zones[0].Regions = append(f.Zones[0].Regions, "9900000000") }, "not a PSGC region"},
		{"region in two zones", func(f *File) { f.Zones[1].Regions = append(f.Zones[1].Regions, "1300000000") }, "in zones"},
		{"bad id", func(f *File) { f.Channels[0].ID = "jnt standard" }, "channel id"},
		{"duplicate id", func(f *File) { f.Channels[1].ID = f.Channels[0].ID }, "twice"},
		{"no name", func(f *File) { f.Channels[0].Name = " " }, "required"},
		{"insurance above 100%", func(f *File) { f.Channels[0].Insurance.RateBasisPoints = 10001 }, "insurance"},
		{"no channels", func(f *File) { f.Channels = nil }, "no channel"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(bytes.NewReader(edit(t, tc.fn)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Parse = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestParseIsStrict(t *testing.T) {
	if _, err := Parse(strings.NewReader(`{"zones":[],"channels":[],"extra":1}`)); err == nil {
		t.Error("unknown field accepted")
	}
	if _, err := Parse(strings.NewReader(string(defaultJSON) + `{}`)); err == nil {
		t.Error("trailing document accepted")
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	chs, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chs {
		doc, err := Encode(c)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(doc)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := Encode(back)
		if !bytes.Equal(doc, again) {
			t.Errorf("%s: round trip changed the document", c.ID)
		}
	}
	if _, err := Decode([]byte(`{"id":"X"}`)); err == nil {
		t.Error("an incomplete stored document was accepted")
	}
}
