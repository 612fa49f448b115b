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

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/shipping/channels"
)

// An operator replaces the shipping channels with the built-in set or an
// edited file, without the key that seals app secrets; a file that fails
// the checks changes nothing.
func TestAdminLoadsChannels(t *testing.T) {
	path := sqliteFile(t)
	out, err := admin(t, path, "load-channels")
	if err != nil {
		t.Fatal(err)
	}
	builtIn, _ := channels.Default()
	if out["source"] != "built-in" || len(out["channels"].([]any)) != len(builtIn) || out["version"] == "" {
		t.Fatalf("built-in load: %v", out)
	}
	first := out["version"]

	var f channels.File
	if err := json.Unmarshal(mustRead(t, "../../services/shipping/channels/channels.json"), &f); err != nil {
		t.Fatal(err)
	}
	f.Channels = f.Channels[:1]
	f.Channels[0].Active = false
	edited := writeJSON(t, f)
	out, err = admin(t, path, "load-channels", "--file", edited)
	if err != nil || out["active"] != float64(0) || len(out["channels"].([]any)) != 1 || out["version"] == first {
		t.Fatalf("edited load: %v %v", out, err)
	}
	second := out["version"]

	f.Channels[0].Cutoff = "5pm"
	if _, err := admin(t, path, "load-channels", "--file", writeJSON(t, f)); err == nil || !strings.Contains(err.Error(), "cutoff") {
		t.Fatalf("a bad cut-off: %v", err)
	}
	d, err := db.Open(context.Background(), db.Config{Driver: db.DriverSQLite, DSN: path})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if v, err := channels.NewEntStore(d).Version(context.Background()); err != nil || v != second {
		t.Errorf("a refused file changed the stored set: %v %v", v, err)
	}
}

// The migrate role stores the built-in channels on an empty table, and
// leaves an operator's set alone on the next run.
func TestMigrateSeedsChannels(t *testing.T) {
	dsn := dbtest.EmptyPostgres(t)
	var out bytes.Buffer
	if err := run(context.Background(), []string{"migrate", "--database-url", dsn}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "stored the built-in shipping channels") {
		t.Fatalf("migrate said %q", out.String())
	}
	d, err := db.Open(context.Background(), db.Config{Driver: db.DriverPostgres, DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	store := channels.NewEntStore(d)
	set, _ := channels.Default()
	mine, err := store.Replace(context.Background(), set[:1])
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := run(context.Background(), []string{"migrate", "--database-url", dsn}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if v, err := store.Version(context.Background()); err != nil || v != mine || strings.Contains(out.String(), "shipping channels") {
		t.Errorf("a second migrate touched the operator's channels: %q, %v", out.String(), err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "channels.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
