package calendar

import (
	"fmt"
	"time"
)

// Date is a civil date in Asia/Manila: no time of day, no zone. Build one
// with NewDate, ParseDate or DateOf.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// NewDate returns the date, normalised (February 30 is March 2).
func NewDate(year int, month time.Month, day int) Date {
	return DateOf(time.Date(year, month, day, 0, 0, 0, 0, time.UTC))
}

// DateOf is the date t falls on in t's own location: pass a time in
// Asia/Manila (the business clock's zone) to get the Manila date.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// ParseDate reads YYYY-MM-DD and refuses anything else (a date that does
// not exist included).
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return Date{}, fmt.Errorf("calendar: %q is not a YYYY-MM-DD date", s)
	}
	return DateOf(t), nil
}

// String is YYYY-MM-DD. It is written byte by byte (one allocation, not
// fmt's three): every pickup slot of every eligible-dates answer has one.
func (d Date) String() string {
	if d.Year < 0 || d.Year > 9999 || d.Month < 1 || d.Month > 12 || d.Day < 1 || d.Day > 31 {
		return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day)
	}
	m, day := int(d.Month), d.Day
	b := [10]byte{
		byte('0' + d.Year/1000), byte('0' + d.Year/100%10), byte('0' + d.Year/10%10), byte('0' + d.Year%10), '-',
		byte('0' + m/10), byte('0' + m%10), '-', byte('0' + day/10), byte('0' + day%10),
	}
	return string(b[:])
}

// Weekday is the day of the week.
func (d Date) Weekday() time.Weekday { return d.time().Weekday() }

// AddDays moves by n days (negative: back).
func (d Date) AddDays(n int) Date { return DateOf(d.time().AddDate(0, 0, n)) }

// Before reports whether d is earlier than o.
func (d Date) Before(o Date) bool { return d.time().Before(o.time()) }

func (d Date) time() time.Time { return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC) }
