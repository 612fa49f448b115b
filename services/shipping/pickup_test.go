package shipping_test

import (
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/services/shipping"
	"github.com/mallplatform/partnerapi/services/shipping/calendar"
	"github.com/mallplatform/partnerapi/services/shipping/channels"
)

// Places of the tests: Imus in Cavite, Santa Rosa in Laguna (the same
// region, CALABARZON), and Makati (Metro Manila).
const (
	imus      = "0402109000"
	santaRosa = "0403428000"
	makati    = "1380300000"
	cavite    = "0402100000"
)

func manila(y int, m time.Month, d, hh, mm int) time.Time {
	return time.Date(y, m, d, hh, mm, 0, 0, clock.Manila)
}

func date(y int, m time.Month, d int) calendar.Date { return calendar.NewDate(y, m, d) }

func place(t *testing.T, city string) calendar.Place {
	t.Helper()
	p, ok := calendar.PlaceOfCity(city)
	if !ok {
		t.Fatalf("city %s unknown", city)
	}
	return p
}

// testSnapshot is the shipped 2026 calendar plus what an operator would
// add: New Year's Day 2027, a Sunday proclaimed working and a Cavite-only
// holiday.
func testSnapshot(t *testing.T) *calendar.Snapshot {
	t.Helper()
	days, err := calendar.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	days = append(days,
		calendar.Day{Date: date(2027, 1, 1), Kind: calendar.RegularHoliday, Name: "New Year's Day"},
		calendar.Day{Date: date(2026, 3, 15), Kind: calendar.SpecialWorking, Name: "Make-up working day"},
		calendar.Day{Date: date(2026, 3, 11), Kind: calendar.SpecialNonWorking, Name: "Cavite Day (local)", Scope: cavite},
	)
	return calendar.NewSnapshot(1, days)
}

// jnt is the seeded J&T channel: cut-off 16:00, window 09:00-17:00.
func jnt(t *testing.T) *channels.Channel {
	t.Helper()
	chs, err := channels.Default()
	if err != nil {
		t.Fatal(err)
	}
	for i := range chs {
		if chs[i].ID == "JNT_STANDARD" {
			return &chs[i]
		}
	}
	t.Fatal("JNT_STANDARD is not seeded")
	return nil
}

type slotCase struct {
	name   string
	now    time.Time
	date   calendar.Date
	shipBy *time.Time
	city   string
	want   shipping.SlotReason // "" = available
	// holiday is the name the answer must give (reason HOLIDAY).
	holiday string
}

func TestSlotRule(t *testing.T) {
	snap, ch := testSnapshot(t), jnt(t)
	shipBy := manila(2026, 3, 4, 23, 59).UTC() // stored in UTC, judged in Manila
	pastShipBy := manila(2026, 2, 27, 23, 59)
	mon := manila(2026, 3, 2, 10, 0) // Monday 2 March 2026
	cases := []slotCase{
		// The cut-off, on the business clock.
		{name: "today a minute before the cut-off", now: manila(2026, 3, 2, 15, 59), date: date(2026, 3, 2)},
		{name: "today at the cut-off", now: manila(2026, 3, 2, 16, 0), date: date(2026, 3, 2)},
		{name: "today a minute after the cut-off", now: manila(2026, 3, 2, 16, 1), date: date(2026, 3, 2), want: shipping.SlotPastCutoff},
		{name: "tomorrow after today's cut-off", now: manila(2026, 3, 2, 16, 1), date: date(2026, 3, 3)},
		{name: "now given in UTC is read in Manila", now: manila(2026, 3, 2, 16, 1).UTC(), date: date(2026, 3, 2), want: shipping.SlotPastCutoff},
		{name: "just after midnight Manila, still the UTC day before", now: manila(2026, 3, 2, 0, 30).UTC(), date: date(2026, 3, 1), want: shipping.SlotPastDate},
		// The window.
		{name: "yesterday", now: mon, date: date(2026, 3, 1), want: shipping.SlotPastDate},
		{name: "14 days ahead", now: mon, date: date(2026, 3, 16)},
		{name: "15 days ahead", now: mon, date: date(2026, 3, 17), want: shipping.SlotBeyondWindow},
		// The calendar.
		{name: "a Sunday", now: mon, date: date(2026, 3, 8), want: shipping.SlotNonWorkingDay},
		{name: "a Sunday proclaimed working", now: mon, date: date(2026, 3, 15), want: shipping.SlotNonWorkingDay},
		{name: "the special working day", now: manila(2026, 2, 23, 9, 0), date: date(2026, 2, 25)},
		{name: "a tentative holiday", now: manila(2026, 3, 16, 9, 0), date: date(2026, 3, 20), want: shipping.SlotHoliday, holiday: "Eid'l Fitr"},
		{name: "a local holiday at the pickup address's province", now: mon, date: date(2026, 3, 11), city: imus, want: shipping.SlotHoliday, holiday: "Cavite Day (local)"},
		{name: "a local holiday of another province of the region", now: mon, date: date(2026, 3, 11), city: santaRosa},
		{name: "a local holiday elsewhere", now: mon, date: date(2026, 3, 11), city: makati},
		// Holy Week.
		{name: "Holy Wednesday, the day before a holiday", now: manila(2026, 3, 30, 9, 0), date: date(2026, 4, 1)},
		{name: "Maundy Thursday", now: manila(2026, 3, 30, 9, 0), date: date(2026, 4, 2), want: shipping.SlotHoliday, holiday: "Maundy Thursday"},
		{name: "Good Friday", now: manila(2026, 3, 30, 9, 0), date: date(2026, 4, 3), want: shipping.SlotHoliday, holiday: "Good Friday"},
		{name: "Black Saturday", now: manila(2026, 3, 30, 9, 0), date: date(2026, 4, 4), want: shipping.SlotHoliday, holiday: "Black Saturday"},
		{name: "Easter Sunday", now: manila(2026, 3, 30, 9, 0), date: date(2026, 4, 5), want: shipping.SlotNonWorkingDay},
		{name: "Easter Monday", now: manila(2026, 3, 30, 9, 0), date: date(2026, 4, 6)},
		// Precedence.
		{name: "after the ship-by date", now: mon, date: date(2026, 3, 5), shipBy: &shipBy, want: shipping.SlotAfterShipBy},
		{name: "on the ship-by date", now: mon, date: date(2026, 3, 4), shipBy: &shipBy},
		{name: "a Sunday after the ship-by date", now: mon, date: date(2026, 3, 8), shipBy: &shipBy, want: shipping.SlotAfterShipBy},
		{name: "past the ship-by date and past", now: mon, date: date(2026, 3, 1), shipBy: &pastShipBy, want: shipping.SlotPastDate},
		{name: "beyond the window and after the ship-by date", now: mon, date: date(2026, 3, 20), shipBy: &shipBy, want: shipping.SlotBeyondWindow},
		{name: "a holiday today after the cut-off", now: manila(2026, 4, 2, 17, 0), date: date(2026, 4, 2), want: shipping.SlotHoliday, holiday: "Maundy Thursday"},
	}
	// 24 December to 2 January, seen from Tuesday 22 December.
	yearEnd := manila(2026, 12, 22, 9, 0)
	for _, c := range []struct {
		d       calendar.Date
		want    shipping.SlotReason
		holiday string
	}{
		{date(2026, 12, 23), "", ""},
		{date(2026, 12, 24), shipping.SlotHoliday, "Christmas Eve"},
		{date(2026, 12, 25), shipping.SlotHoliday, "Christmas Day"},
		{date(2026, 12, 26), "", ""},
		{date(2026, 12, 27), shipping.SlotNonWorkingDay, ""},
		{date(2026, 12, 28), "", ""},
		{date(2026, 12, 29), "", ""},
		{date(2026, 12, 30), shipping.SlotHoliday, "Rizal Day"},
		{date(2026, 12, 31), shipping.SlotHoliday, "Last Day of the Year"},
		{date(2027, 1, 1), shipping.SlotHoliday, "New Year's Day"},
		{date(2027, 1, 2), "", ""},
	} {
		cases = append(cases, slotCase{name: "year end " + c.d.String(), now: yearEnd, date: c.d, want: c.want, holiday: c.holiday})
	}

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			city := c.city
			if city == "" {
				city = makati
			}
			got := shipping.Slot(c.now, c.date, c.shipBy, ch, snap, place(t, city))
			if got.Available != (c.want == "") || got.Reason != c.want {
				t.Fatalf("%s at %s: available %v, reason %q; want reason %q", c.date, c.now, got.Available, got.Reason, c.want)
			}
			if got.Date != c.date || got.Cutoff != "16:00" || got.Window != (channels.Window{Start: "09:00", End: "17:00"}) || got.Channel != "JNT_STANDARD" {
				t.Errorf("slot %+v: want the date and J&T's cut-off and window", got)
			}
			switch {
			case c.holiday != "" && (got.Holiday == nil || got.Holiday.Name != c.holiday):
				t.Errorf("holiday %+v, want %q", got.Holiday, c.holiday)
			case c.holiday == "" && got.Holiday != nil:
				t.Errorf("holiday %+v, want none", got.Holiday)
			}
		})
	}
}

func TestSlotTentativeFlag(t *testing.T) {
	got := shipping.Slot(manila(2026, 3, 16, 9, 0), date(2026, 3, 20), nil, jnt(t), testSnapshot(t), place(t, makati))
	if got.Holiday == nil || !got.Holiday.Tentative {
		t.Errorf("Eid'l Fitr: %+v, want a tentative holiday", got.Holiday)
	}
}

func TestEligibleSlots(t *testing.T) {
	snap, ch := testSnapshot(t), jnt(t)
	// Monday 30 March 2026 after the cut-off: today is gone, Tuesday and
	// Wednesday are open, then Holy Week.
	slots, rec := shipping.EligibleSlots(manila(2026, 3, 30, 16, 1), nil, ch, snap, place(t, makati))
	if len(slots) != shipping.SlotWindowDays {
		t.Fatalf("%d slots, want %d", len(slots), shipping.SlotWindowDays)
	}
	for i, s := range slots {
		if want := date(2026, 3, 30).AddDays(i); s.Date != want {
			t.Errorf("slot %d is %s, want %s", i, s.Date, want)
		}
	}
	if slots[0].Reason != shipping.SlotPastCutoff || rec != 1 || !slots[1].Available {
		t.Errorf("today %q, recommended %d: want PAST_CUTOFF and tomorrow", slots[0].Reason, rec)
	}
	if slots[3].Reason != shipping.SlotHoliday || slots[6].Reason != shipping.SlotNonWorkingDay {
		t.Errorf("Maundy Thursday %q, Easter Sunday %q", slots[3].Reason, slots[6].Reason)
	}

	// A ship-by date already behind: nothing is available, nothing is
	// recommended.
	gone := manila(2026, 3, 29, 23, 59)
	slots, rec = shipping.EligibleSlots(manila(2026, 3, 30, 9, 0), &gone, ch, snap, place(t, makati))
	if rec != -1 {
		t.Errorf("recommended %d past the ship-by date", rec)
	}
	for _, s := range slots {
		if s.Reason != shipping.SlotAfterShipBy {
			t.Errorf("%s: %q, want AFTER_SHIP_BY", s.Date, s.Reason)
		}
	}
}
