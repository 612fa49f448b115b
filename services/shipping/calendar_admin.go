package shipping

import (
	"context"
	"errors"
	"fmt"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/services/shipping/calendar"
)

// CalendarEdit is what an operator's edit did.
type CalendarEdit struct {
	// Days written or removed.
	Days int
	// Version is the calendar's version after the edit.
	Version int64
}

// SetCalendarDay adds a day or replaces the one of its date and scope.
func (s *Service) SetCalendarDay(ctx context.Context, in calendar.FileDay) (CalendarEdit, error) {
	return s.ImportCalendar(ctx, []calendar.FileDay{in})
}

// ImportCalendar adds or replaces days in one transaction; any invalid day
// (or one listed twice) refuses the whole import.
func (s *Service) ImportCalendar(ctx context.Context, in []calendar.FileDay) (CalendarEdit, error) {
	days := make([]calendar.Day, 0, len(in))
	seen := map[string]bool{}
	for i, fd := range in {
		d, err := fd.Day()
		if err != nil {
			return CalendarEdit{}, apierr.New(apierr.ValidationError, fmt.Sprintf("days[%d]: %v", i, err))
		}
		key := dayID(d.Date, d.Scope)
		if seen[key] {
			return CalendarEdit{}, apierr.New(apierr.ValidationError, fmt.Sprintf("days[%d]: %s is listed twice for scope %q", i, d.Date, d.Scope))
		}
		seen[key] = true
		days = append(days, d)
	}
	v, err := s.store.PutCalendarDays(ctx, days)
	if err != nil {
		return CalendarEdit{}, err
	}
	s.invalidate()
	return CalendarEdit{Days: len(days), Version: v}, nil
}

// DeleteCalendarDay removes the day of date and scope ("" national).
func (s *Service) DeleteCalendarDay(ctx context.Context, date, scope string) (CalendarEdit, error) {
	d, err := calendar.ParseDate(date)
	if err != nil {
		return CalendarEdit{}, apierr.New(apierr.ValidationError, "date: "+err.Error())
	}
	v, err := s.store.DeleteCalendarDay(ctx, d, scope)
	if errors.Is(err, ErrNotFound) {
		return CalendarEdit{}, apierr.Newf(apierr.NotFound, "no calendar day on %s for scope %q", d, scope)
	}
	if err != nil {
		return CalendarEdit{}, err
	}
	s.invalidate()
	return CalendarEdit{Days: 1, Version: v}, nil
}

// SeedCalendar stores the shipped calendar files on a store whose calendar
// is empty and reports whether it did: the migrate step runs it on every
// deploy, and a calendar an operator has edited is never overwritten.
func SeedCalendar(ctx context.Context, store Store) (bool, error) {
	days, err := calendar.Shipped()
	if err != nil {
		return false, err
	}
	return store.SeedCalendar(ctx, days)
}
