// Package calendar is the shipping calendar's rule, pure: an immutable
// Snapshot of the proclaimed days (regular holidays, special non-working
// days, special working days, national or local) answers whether a date is
// a working day for pickups at a place, and why not.
//
// The rule (docs/decisions.md, "Shipping calendar"):
//   - Monday to Saturday are working days; Sunday is not (NON_WORKING_DAY).
//   - A regular holiday or special non-working day that applies to the place
//     (national, or scoped to the place's region or province) makes the date
//     non-working (HOLIDAY, naming it), whatever else is proclaimed that day.
//   - A tentative holiday (an Islamic holiday before its proclamation)
//     counts as a holiday, flagged tentative: a pickup promised on a day
//     that turns out to be a holiday is a missed pickup, while a day freed
//     later only adds a slot.
//   - A special working day makes a Monday-to-Saturday date working (it
//     already is, unless a non-working day also applies, which wins). A
//     Sunday proclaimed working stays non-working for pickups: couriers do
//     not run Sunday pickups because offices open; a channel that does will
//     say so itself.
//
// The pickup-slot code calls Snapshot.Check with the pickup address's
// Place; the service that owns the snapshot reloads it when an operator
// edits the calendar and exposes its Version for caches to key on.
package calendar

import (
	"cmp"
	"slices"
	"time"
)

// Kind is how a proclaimed day departs from the usual week.
type Kind string

// The kinds, spelled as on the wire and in the calendar file.
const (
	RegularHoliday    Kind = "REGULAR_HOLIDAY"
	SpecialNonWorking Kind = "SPECIAL_NON_WORKING"
	SpecialWorking    Kind = "SPECIAL_WORKING"
)

// Valid reports whether k is one of the kinds.
func (k Kind) Valid() bool {
	return k == RegularHoliday || k == SpecialNonWorking || k == SpecialWorking
}

// NonWorking reports whether a day of this kind stops pickups.
func (k Kind) NonWorking() bool { return k == RegularHoliday || k == SpecialNonWorking }

// Day is one proclaimed day.
type Day struct {
	Date Date
	Kind Kind
	Name string
	// Proclamation names the act that declared the day; "" when none is
	// known yet.
	Proclamation string
	// Tentative: an Islamic holiday whose date awaits its proclamation.
	Tentative bool
	// Scope is a PSGC region or province code for a local day, "" for a
	// national one.
	Scope string
}

// National reports whether the day applies everywhere.
func (d Day) National() bool { return d.Scope == "" }

// Place is where a pickup happens, as the calendar needs it: the PSGC codes
// of the address's region and province. An empty Place sees the national
// days alone. PlaceOfCity builds one from a city code.
type Place struct {
	RegionCode string
	// ProvinceCode is the province, or the highly urbanised city that
	// stands for one; "" outside any province.
	ProvinceCode string
}

// applies reports whether a day of scope s applies at p.
func (p Place) applies(s string) bool {
	return s == "" || s == p.RegionCode || s == p.ProvinceCode
}

// Reason says why a date is not a working day.
type Reason string

// The reasons, spelled as the pickup-slot answer's reason enum.
const (
	// NonWorkingDay: a Sunday (proclaimed working or not).
	NonWorkingDay Reason = "NON_WORKING_DAY"
	// Holiday: a regular holiday or special non-working day applies;
	// Verdict.Holiday names it.
	Holiday Reason = "HOLIDAY"
)

// Verdict is Check's answer.
type Verdict struct {
	Working bool
	// Reason is "" when Working.
	Reason Reason
	// Holiday is the day that made the date a holiday (Reason Holiday): a
	// national day before a local one of the same date.
	Holiday *Day
	// Tentative: the holiday awaits its proclamation.
	Tentative bool
	// Special is the special working day proclaimed on a working date,
	// nil when none is.
	Special *Day
}

// Snapshot is the calendar at one version. It is immutable: share it freely
// across goroutines.
type Snapshot struct {
	version int64
	days    []Day          // by date, national first, then scope
	byDate  map[Date][]int // indexes into days
	years   map[int][2]int // [first, end) of each year in days
}

// NewSnapshot builds a snapshot of days at version; it copies days.
func NewSnapshot(version int64, days []Day) *Snapshot {
	s := &Snapshot{version: version, days: slices.Clone(days), byDate: map[Date][]int{}, years: map[int][2]int{}}
	slices.SortFunc(s.days, compareDays)
	for i, d := range s.days {
		s.byDate[d.Date] = append(s.byDate[d.Date], i)
		r, ok := s.years[d.Date.Year]
		if !ok {
			r[0] = i
		}
		r[1] = i + 1
		s.years[d.Date.Year] = r
	}
	return s
}

func compareDays(a, b Day) int {
	if c := a.Date.time().Compare(b.Date.time()); c != 0 {
		return c
	}
	return cmp.Compare(a.Scope, b.Scope)
}

// Version is the calendar version the snapshot holds: it moves with every
// edit, so a cache of anything derived from the calendar keys on it.
func (s *Snapshot) Version() int64 { return s.version }

// Check says whether date is a working day for pickups at p, and why not,
// under the platform's rule (a Sunday is never a pickup day).
func (s *Snapshot) Check(date Date, p Place) Verdict { return s.CheckWith(date, p, Policy{}) }

// Policy is what a channel may change in the rule.
type Policy struct {
	// WorkingSundays: the channel picks up on a Sunday proclaimed a special
	// working day.
	WorkingSundays bool
}

// CheckWith is Check under a channel's policy.
func (s *Snapshot) CheckWith(date Date, p Place, pol Policy) Verdict {
	var special *Day
	for _, i := range s.byDate[date] {
		d := s.days[i]
		if !p.applies(d.Scope) {
			continue
		}
		if d.Kind.NonWorking() {
			return Verdict{Reason: Holiday, Holiday: &d, Tentative: d.Tentative}
		}
		if special == nil {
			special = &d
		}
	}
	if date.Weekday() == time.Sunday && (special == nil || !pol.WorkingSundays) {
		return Verdict{Reason: NonWorkingDay}
	}
	return Verdict{Working: true, Special: special}
}

// Year returns the days of year that apply at p (every day, national and
// local, when p is nil), in date order, national before local. The slice is
// the caller's.
func (s *Snapshot) Year(year int, p *Place) []Day {
	r, ok := s.years[year]
	if !ok {
		return []Day{}
	}
	out := make([]Day, 0, r[1]-r[0])
	for _, d := range s.days[r[0]:r[1]] {
		if p == nil || p.applies(d.Scope) {
			out = append(out, d)
		}
	}
	return out
}
