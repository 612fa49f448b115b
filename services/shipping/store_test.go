package shipping_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/shipping"
	"github.com/mallplatform/partnerapi/services/shipping/calendar"
)

func day(t testing.TB, date string, kind calendar.Kind, name, scope string) calendar.Day {
	t.Helper()
	d, err := calendar.ParseDate(date)
	if err != nil {
		t.Fatal(err)
	}
	return calendar.Day{Date: d, Kind: kind, Name: name, Scope: scope}
}

// The store's contract, on PostgreSQL and SQLite.
func TestCalendarStore(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		st := shipping.NewEntStore(d)
		if v, err := st.CalendarVersion(ctx); err != nil || v != 0 {
			t.Fatalf("fresh version = %d, %v; want 0", v, err)
		}
		seeded, err := shipping.SeedCalendar(ctx, st)
		if err != nil || !seeded {
			t.Fatalf("seed = %v, %v", seeded, err)
		}
		days, v, err := st.CalendarDays(ctx)
		if err != nil || v != 1 || len(days) != 21 {
			t.Fatalf("after seeding: %d days at version %d, %v; want 21 at 1", len(days), v, err)
		}
		if again, err := shipping.SeedCalendar(ctx, st); err != nil || again {
			t.Fatalf("second seed = %v, %v; want nothing written", again, err)
		}

		// Replacing a day keeps one row per date and scope; a local day of
		// the same date is a row of its own.
		fitr := day(t, "2026-03-20", calendar.RegularHoliday, "Eid'l Fitr", "")
		fitr.Proclamation = "Proclamation No. 1189 (2026)"
		local := day(t, "2026-03-20", calendar.SpecialNonWorking, "Cebu day", "0702200000")
		v2, err := st.PutCalendarDays(ctx, []calendar.Day{fitr, local})
		if err != nil || v2 != 2 {
			t.Fatalf("put = %d, %v; want version 2", v2, err)
		}
		days, _, _ = st.CalendarDays(ctx)
		var got []calendar.Day
		for _, x := range days {
			if x.Date == fitr.Date {
				got = append(got, x)
			}
		}
		if len(got) != 2 || got[0] != fitr || got[1] != local {
			t.Fatalf("2026-03-20 = %+v; want the confirmed national day then the local one", got)
		}

		v3, err := st.DeleteCalendarDay(ctx, local.Date, local.Scope)
		if err != nil || v3 != 3 {
			t.Fatalf("delete = %d, %v; want version 3", v3, err)
		}
		if _, err := st.DeleteCalendarDay(ctx, local.Date, local.Scope); !errors.Is(err, shipping.ErrNotFound) {
			t.Fatalf("second delete: %v, want ErrNotFound", err)
		}
		if v, _ := st.CalendarVersion(ctx); v != 3 {
			t.Fatalf("a refused delete moved the version to %d", v)
		}
	})
}

// Concurrent edits each move the version once: the version row is
// created and bumped by one upsert.
func TestCalendarVersionConcurrentEdits(t *testing.T) {
	d := dbtest.Postgres(t)
	st := shipping.NewEntStore(d)
	ctx := context.Background()
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := []string{"a", "b", "c", "d", "e", "f", "g", "h"}[i]
			_, err := st.PutCalendarDays(ctx, []calendar.Day{day(t, "2026-07-0"+string(rune('1'+i)), calendar.SpecialNonWorking, name, "")})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if v, err := st.CalendarVersion(ctx); err != nil || v != n {
		t.Fatalf("version = %d, %v; want %d", v, err, n)
	}
}
