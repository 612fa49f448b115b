package shipping

import (
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/services/shipping/calendar"
	"github.com/mallplatform/partnerapi/services/shipping/channels"
)

// SlotWindowDays is how far ahead a pickup may be planned: a date more than
// this many days after the shop's business today is BEYOND_WINDOW, and the
// eligible dates are this many days from today.
const SlotWindowDays = 14

// SlotReason says why a date has no pickup slot.
type SlotReason string

// The reasons, in precedence order: when several apply, Slot gives the
// first. The order goes from what no change can fix to what another
// choice can: a past date, then the planning window and the order's own
// deadline (the date is out of reach for this order whatever the
// calendar says), then the calendar (the date is closed for every order),
// and last the cut-off, which only today's slot can miss.
const (
	SlotPastDate      SlotReason = "PAST_DATE"
	SlotBeyondWindow  SlotReason = "BEYOND_WINDOW"
	SlotAfterShipBy   SlotReason = "AFTER_SHIP_BY"
	SlotNonWorkingDay SlotReason = SlotReason(calendar.NonWorkingDay)
	SlotHoliday       SlotReason = SlotReason(calendar.Holiday)
	SlotPastCutoff    SlotReason = "PAST_CUTOFF"
)

// SlotReasons lists every reason in precedence order.
var SlotReasons = []SlotReason{SlotPastDate, SlotBeyondWindow, SlotAfterShipBy, SlotNonWorkingDay, SlotHoliday, SlotPastCutoff}

// PickupSlot is Slot's answer: the fields of the API's PickupSlot.
type PickupSlot struct {
	Date      calendar.Date
	Available bool
	// Reason is "" when Available.
	Reason SlotReason
	// Holiday is the day that closed the date (Reason SlotHoliday).
	Holiday *calendar.Day
	// Channel is the channel whose cut-off and window the slot follows.
	Channel string
	Cutoff  string
	Window  channels.Window
}

// Slot is the pickup-slot rule, pure: whether ch's courier can collect on
// date a parcel that must ship by shipBy (nil: no deadline), from a pickup
// address at place, when the shop's business time is now. Every caller
// that judges a pickup date (the slot routes, the booking that refuses a
// date with INVALID_PICKUP_DATE) asks here, so they cannot disagree.
func Slot(now time.Time, date calendar.Date, shipBy *time.Time, ch *channels.Channel, snap *calendar.Snapshot,
	place calendar.Place) PickupSlot {
	s := PickupSlot{Date: date, Channel: ch.ID, Cutoff: ch.Cutoff, Window: ch.PickupWindow}
	now = now.In(clock.Manila)
	today := calendar.DateOf(now)
	switch {
	case date.Before(today):
		s.Reason = SlotPastDate
	case today.AddDays(SlotWindowDays).Before(date):
		s.Reason = SlotBeyondWindow
	case shipBy != nil && calendar.DateOf(shipBy.In(clock.Manila)).Before(date):
		s.Reason = SlotAfterShipBy
	}
	if s.Reason != "" {
		return s
	}
	if v := snap.Check(date, place); !v.Working {
		s.Reason, s.Holiday = SlotReason(v.Reason), v.Holiday
		return s
	}
	if date == today && now.After(cutoffOn(today, ch.Cutoff)) {
		s.Reason = SlotPastCutoff
		return s
	}
	s.Available = true
	return s
}

// cutoffOn is the instant of an HH:mm cut-off (checked when the channel
// was loaded) on date, in Manila.
func cutoffOn(date calendar.Date, hhmm string) time.Time {
	t, err := time.Parse("15:04", hhmm)
	if err != nil {
		// channels.Check refuses such a channel; a zero cut-off closes
		// today rather than keep it open past a cut-off we cannot read.
		t = time.Time{}
	}
	return time.Date(date.Year, date.Month, date.Day, t.Hour(), t.Minute(), 0, 0, clock.Manila)
}

// EligibleSlots are the SlotWindowDays days from the shop's business today,
// each judged by Slot, in date order. recommended is the index of the
// first available one, -1 when none is.
func EligibleSlots(now time.Time, shipBy *time.Time, ch *channels.Channel, snap *calendar.Snapshot,
	place calendar.Place) (slots []PickupSlot, recommended int) {
	today := calendar.DateOf(now.In(clock.Manila))
	slots = make([]PickupSlot, SlotWindowDays)
	recommended = -1
	for i := range slots {
		slots[i] = Slot(now, today.AddDays(i), shipBy, ch, snap, place)
		if recommended < 0 && slots[i].Available {
			recommended = i
		}
	}
	return slots, recommended
}
