package calendar_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/services/shipping/calendar"
)

func TestDateStringIsYYYYMMDD(t *testing.T) {
	for d := calendar.NewDate(1999, time.December, 25); d.Before(calendar.NewDate(2031, time.January, 10)); d = d.AddDays(1) {
		if got, want := d.String(), fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day); got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
	for _, d := range []calendar.Date{{Year: 7, Month: time.March, Day: 4}, {Year: 12026, Month: time.May, Day: 1}} {
		if got, want := d.String(), fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
