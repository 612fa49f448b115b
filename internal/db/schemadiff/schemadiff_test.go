package schemadiff_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/db/schemadiff"
)

const migrationsDir = "../migrations"

// The committed migrations must produce exactly the ent schema. A failure
// here means someone changed ent/schema without `make migrations-diff`.
func TestMigrationsInStepWithSchema(t *testing.T) {
	admin := dbtest.RequirePostgres(t)
	if err := schemadiff.Check(context.Background(), admin, migrationsDir); err != nil {
		t.Fatal(err)
	}
}

func TestCheckReportsDrift(t *testing.T) {
	admin := dbtest.RequirePostgres(t)
	err := schemadiff.Check(context.Background(), admin, t.TempDir())
	var drift *schemadiff.DriftError
	if !errors.As(err, &drift) {
		t.Fatalf("Check on an empty directory = %v, want a DriftError", err)
	}
	for _, want := range []string{`CREATE TABLE "orders"`, `CONSTRAINT "orders_total_check" CHECK (total >= 0)`, "-- +goose Up"} {
		if !strings.Contains(drift.SQL, want) {
			t.Errorf("drift SQL lacks %q", want)
		}
	}
}

func copyDir(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return to
}

func TestSumDetectsEditsAndRehashAcceptsThem(t *testing.T) {
	if err := schemadiff.ValidateSum(migrationsDir); err != nil {
		t.Fatalf("committed atlas.sum: %v", err)
	}
	dir := copyDir(t, migrationsDir)
	files, _ := filepath.Glob(filepath.Join(dir, "*.sql"))
	if len(files) == 0 {
		t.Fatal("no migrations")
	}
	f, err := os.OpenFile(files[0], os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("-- edited after the fact\n")
	f.Close()
	if err := schemadiff.ValidateSum(dir); !errors.Is(err, schemadiff.ErrSumMismatch) {
		t.Fatalf("ValidateSum after an edit = %v, want ErrSumMismatch", err)
	}
	if err := schemadiff.Rehash(dir); err != nil {
		t.Fatal(err)
	}
	if err := schemadiff.ValidateSum(dir); err != nil {
		t.Fatalf("ValidateSum after Rehash: %v", err)
	}
}

// A hand-written migration that only touches data (no schema change) is
// replayed by the check and tolerated.
func TestHandWrittenDataMigrationIsTolerated(t *testing.T) {
	admin := dbtest.RequirePostgres(t)
	dir := copyDir(t, migrationsDir)
	body := "-- +goose Up\nINSERT INTO sellers (id, name, shop_name, test_shop, created_at) VALUES ('slr_seed', 'x', 'x', true, now());\n\n" +
		"-- +goose Down\nDELETE FROM sellers WHERE id = 'slr_seed';\n"
	if err := os.WriteFile(filepath.Join(dir, "29990101000000_seed.sql"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := schemadiff.Check(context.Background(), admin, dir); !errors.Is(err, schemadiff.ErrSumMismatch) {
		t.Fatalf("Check with an unhashed migration = %v, want ErrSumMismatch", err)
	}
	if err := schemadiff.Rehash(dir); err != nil {
		t.Fatal(err)
	}
	if err := schemadiff.Check(context.Background(), admin, dir); err != nil {
		t.Fatalf("Check with a rehashed data migration: %v", err)
	}
}

func TestDiffWritesNothingWhenInStep(t *testing.T) {
	admin := dbtest.RequirePostgres(t)
	dir := copyDir(t, migrationsDir)
	files, err := schemadiff.Diff(context.Background(), admin, dir, "noop")
	if err != nil || len(files) != 0 {
		t.Fatalf("Diff = %v, %v; want no files", files, err)
	}
	if _, err := schemadiff.Diff(context.Background(), admin, dir, "bad name"); err == nil {
		t.Error("a name with a space was accepted")
	}
}

func TestWithDatabase(t *testing.T) {
	tests := []struct{ in, want string }{
		{"postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "postgres://postgres@127.0.0.1:5432/test_x?sslmode=disable"},
		{"postgresql://u:p@h/", "postgresql://u:p@h/test_x"},
		{"host=127.0.0.1 user=postgres dbname=postgres", "host=127.0.0.1 user=postgres dbname=postgres dbname=test_x"},
	}
	for _, tt := range tests {
		got, err := schemadiff.WithDatabase(tt.in, "test_x")
		if err != nil || got != tt.want {
			t.Errorf("WithDatabase(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}
