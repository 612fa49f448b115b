package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/services/shipping"
	"github.com/mallplatform/partnerapi/services/shipping/calendar"
)

// adminCalendar runs mpserver admin calendar against env's core with token
// and decodes its JSON.
func adminCalendar(t *testing.T, env *testenv.Env, token string, args ...string) (map[string]any, error) {
	t.Helper()
	var out bytes.Buffer
	// Flags before the arguments: import's FILE ends the flags.
	args = append([]string{args[0], "--core-addr", "passthrough:///core", "--token", token}, args[1:]...)
	err := runAdminCalendar(context.Background(), args, &out, io.Discard, env.CoreDialer())
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatalf("%s: %v", out.String(), err)
	}
	return m, nil
}

// An operator sets, imports and deletes calendar days through core as an
// internal caller granted the calendar admin service; the edits land in
// the calendar, refusals come back with the platform's code, and a token
// not granted the service is refused.
func TestAdminCalendar(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	ctx := context.Background()
	ops := env.InternalCaller(t, "logistics-ops", "mp.shipping.v1.CalendarAdminService")
	svc := shipping.NewService(shipping.Config{Store: shipping.NewEntStore(env.DB)})

	set, err := adminCalendar(t, env, ops, "set", "--date", "2026-08-06", "--kind", "SPECIAL_NON_WORKING",
		"--name", "Cebu Provincial Charter Day", "--proclamation", "Proclamation No. 1200 (2026)", "--scope", "0702200000")
	if err != nil {
		t.Fatal(err)
	}
	if set["command"] != "set" || set["days"] != float64(1) || set["version"].(float64) < 2 {
		t.Errorf("set answered %v", set)
	}

	file := filepath.Join(t.TempDir(), "eid.json")
	body := `{"days":[{"date":"2026-03-20","kind":"REGULAR_HOLIDAY","name":"Eid'l Fitr","proclamation":"Proclamation No. 1190 (2026)"},
		{"date":"2026-05-27","kind":"REGULAR_HOLIDAY","name":"Eid'l Adha","tentative":true}]}`
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	imported, err := adminCalendar(t, env, ops, "import", file)
	if err != nil || imported["days"] != float64(2) {
		t.Fatalf("import: %v %v", imported, err)
	}

	snap, err := svc.Calendar(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cebu := calendar.Place{RegionCode: "0700000000", ProvinceCode: "0702200000"}
	if v := snap.Check(calendar.NewDate(2026, 8, 6), cebu); v.Reason != calendar.Holiday || v.Holiday.Name != "Cebu Provincial Charter Day" {
		t.Errorf("the set day in Cebu: %+v", v)
	}
	if v := snap.Check(calendar.NewDate(2026, 3, 20), calendar.Place{}); v.Tentative || v.Holiday.Proclamation != "Proclamation No. 1190 (2026)" {
		t.Errorf("Eid'l Fitr after its proclamation: %+v", v)
	}

	if _, err := adminCalendar(t, env, ops, "delete", "--date", "2026-08-06", "--scope", "0702200000"); err != nil {
		t.Fatal(err)
	}
	_, err = adminCalendar(t, env, ops, "delete", "--date", "2026-08-06", "--scope", "0702200000")
	if err == nil || !strings.Contains(err.Error(), "NOT_FOUND") {
		t.Errorf("deleting it again: %v, want NOT_FOUND", err)
	}
	_, err = adminCalendar(t, env, ops, "set", "--date", "2026-08-06", "--kind", "SPECIAL_NON_WORKING", "--name", "x", "--scope", "0701201000")
	if err == nil || !strings.Contains(err.Error(), "scope") {
		t.Errorf("a municipality as scope: %v, want refused", err)
	}

	other := env.InternalCaller(t, "orders-only", "mp.orders.v1.OrdersService")
	_, err = adminCalendar(t, env, other, "delete", "--date", "2026-03-20")
	if err == nil || !strings.Contains(err.Error(), "FORBIDDEN") {
		t.Errorf("a caller not granted the calendar service: %v, want FORBIDDEN", err)
	}
}
