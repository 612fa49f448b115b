package calendar_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/services/shipping/calendar"
)

// listHolidays prints date-holidays' Philippine days of a year as JSON:
// [{date, type, name}], type "public" (a regular holiday), "optional" (a
// special non-working day) or "observance".
const listHolidays = `
const Holidays = require("date-holidays");
const h = new Holidays("PH");
const out = h.getHolidays(Number(process.argv[1])).map(x => ({date: x.date.slice(0, 10), type: x.type, name: x.name}));
process.stdout.write(JSON.stringify(out));
`

type refDay struct {
	Date string `json:"date"`
	Type string `json:"type"`
	Name string `json:"name"`
}

// Where the shipped file and the data set are known to part, and why.
var knownDifferences = map[string]string{
	// Not a proclaimed day: a Sunday the data set lists as public.
	"2026-04-05": "Easter Sunday",
}

// The shipped 2026 file agrees with date-holidays (pinned in
// tools/dateholidays): each national holiday is there on the same date and
// of the same kind (public: regular holiday; optional: special non-working
// day), the special working day is an observance of that date, the
// tentative Islamic holidays sit on the data set's computed dates, and the
// data set has no public or optional day the file lacks.
func TestShippedCalendarAgreesWithDateHolidays(t *testing.T) {
	ref := referenceDays(t, "2026")
	byDate := map[string]refDay{}
	for _, r := range ref {
		byDate[r.Date] = r
	}
	days, err := calendar.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	mine := map[string]bool{}
	for _, d := range days {
		if d.Date.Year != 2026 || !d.National() {
			continue
		}
		key := d.Date.String()
		mine[key] = true
		r, ok := byDate[key]
		if !ok {
			t.Errorf("%s %s: not in date-holidays", key, d.Name)
			continue
		}
		want := map[calendar.Kind]string{calendar.RegularHoliday: "public", calendar.SpecialNonWorking: "optional", calendar.SpecialWorking: "observance"}[d.Kind]
		if r.Type != want {
			t.Errorf("%s %s (%s): date-holidays has %q %s, want type %q", key, d.Name, d.Kind, r.Name, r.Type, want)
		}
	}
	for _, r := range ref {
		if r.Type == "observance" || mine[r.Date] {
			continue
		}
		if _, known := knownDifferences[r.Date]; known {
			continue
		}
		t.Errorf("date-holidays lists %s %s (%s), the shipped file does not", r.Date, r.Name, r.Type)
	}
}

// referenceDays installs the pinned data set (once per lock file, under
// .cache/) and lists its days of year. Under CI=true a missing node or npm
// fails the test.
func referenceDays(t *testing.T, year string) []refDay {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = exec.LookPath("npm")
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("node and npm are required under CI=true: %v", err)
		}
		t.Skipf("node or npm not installed: %v", err)
	}
	script, _ := filepath.Abs("../../../tools/scripts/dateholidays.sh")
	install := exec.Command(script)
	var stderr bytes.Buffer
	install.Stderr = &stderr
	dir, err := install.Output()
	if err != nil {
		t.Fatalf("installing date-holidays: %v\n%s", err, stderr.String())
	}
	run := exec.Command(node, "-e", listHolidays, year)
	run.Dir = strings.TrimSpace(string(dir))
	stderr.Reset()
	run.Stderr = &stderr
	out, err := run.Output()
	if err != nil {
		t.Fatalf("date-holidays: %v\n%s", err, stderr.String())
	}
	var days []refDay
	if err := json.Unmarshal(out, &days); err != nil {
		t.Fatalf("date-holidays answered %q: %v", out, err)
	}
	if len(days) == 0 {
		t.Fatal("date-holidays lists no Philippine day in " + year)
	}
	return days
}
