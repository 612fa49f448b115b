package shipping

import (
	"context"
	"errors"

	"github.com/mallplatform/partnerapi/services/shipping/calendar"
)

// ErrNotFound is a store's answer for a row that does not exist.
var ErrNotFound = errors.New("shipping: not found")

// Store is the shipping service's storage. Every edit of the calendar bumps
// its version in the edit's transaction (the transaction in the context
// when there is one).
type Store interface {
	// CalendarVersion is the calendar's version: 0 until the first edit.
	// It is one primary-key read, cheap enough to poll.
	CalendarVersion(ctx context.Context) (int64, error)
	// CalendarDays is every day of the calendar and the version read just
	// before them: an edit landing in between is served at the next poll.
	CalendarDays(ctx context.Context) ([]calendar.Day, int64, error)
	// PutCalendarDays adds days, replacing those of the same date and
	// scope, and returns the new version.
	PutCalendarDays(ctx context.Context, days []calendar.Day) (int64, error)
	// DeleteCalendarDay removes the day of date and scope ("" national)
	// and returns the new version; ErrNotFound when there is none.
	DeleteCalendarDay(ctx context.Context, date calendar.Date, scope string) (int64, error)
	// SeedCalendar stores days when the calendar holds none, and reports
	// whether it did.
	SeedCalendar(ctx context.Context, days []calendar.Day) (bool, error)
}
