package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/shipping"
	"github.com/mallplatform/partnerapi/services/shipping/calendar"
)

// migrate loads the shipped calendar on a database whose calendar is empty,
// and leaves an operator's calendar alone on the next deploy.
func TestMigrateLoadsTheCalendarOnce(t *testing.T) {
	dsn := dbtest.EmptyPostgres(t)
	ctx := context.Background()
	migrate := func() string {
		var out bytes.Buffer
		if err := run(ctx, []string{"migrate", "--database-url", dsn}, &out, io.Discard); err != nil {
			t.Fatalf("migrate: %v", err)
		}
		return out.String()
	}
	if out := migrate(); !strings.Contains(out, "shipping calendar loaded") {
		t.Fatalf("first migrate said %q; want the calendar loaded", out)
	}
	d, err := db.Open(ctx, db.Config{Driver: db.DriverPostgres, DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	st := shipping.NewEntStore(d)
	shipped, _ := calendar.Shipped()
	days, _, err := st.CalendarDays(ctx)
	if err != nil || len(days) != len(shipped) {
		t.Fatalf("after migrate: %d days, %v; want the %d shipped", len(days), err, len(shipped))
	}
	// An operator removes a day; the next deploy does not put it back.
	if _, err := st.DeleteCalendarDay(ctx, days[0].Date, days[0].Scope); err != nil {
		t.Fatal(err)
	}
	if out := migrate(); strings.Contains(out, "shipping calendar loaded") {
		t.Fatalf("second migrate said %q; want the calendar left alone", out)
	}
	if after, _, _ := st.CalendarDays(ctx); len(after) != len(shipped)-1 {
		t.Fatalf("after the second migrate: %d days, want %d", len(after), len(shipped)-1)
	}
}
