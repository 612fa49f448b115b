package db_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
)

// River's schema is versioned apart from the goose set: a freshly migrated
// core database has none of it, MigrateRiver brings it to the version the
// binary carries (also when two migrate jobs overlap), and a second run is a
// no-op.
func TestMigrateRiver(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		current, latest, err := db.RiverMigrationStatus(ctx, d)
		if err != nil {
			t.Fatalf("status before: %v", err)
		}
		if current != 0 || latest == 0 {
			t.Fatalf("before MigrateRiver: current %d, latest %d; want 0 and >0", current, latest)
		}
		runs := 1
		if d.Driver() == db.DriverPostgres {
			runs = 3 // overlapping migrate jobs wait on the advisory lock
		}
		var wg sync.WaitGroup
		errs := make(chan error, runs)
		for range runs {
			wg.Go(func() { errs <- db.MigrateRiver(ctx, d) })
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("MigrateRiver: %v", err)
			}
		}
		if err := db.MigrateRiver(ctx, d); err != nil {
			t.Fatalf("second MigrateRiver: %v", err)
		}
		current, latest2, err := db.RiverMigrationStatus(ctx, d)
		if err != nil {
			t.Fatalf("status after: %v", err)
		}
		if current != latest || latest2 != latest {
			t.Fatalf("after MigrateRiver: current %d, latest %d; want both %d", current, latest2, latest)
		}
		var n int
		if err := d.SQL.QueryRowContext(ctx, "SELECT count(*) FROM river_job").Scan(&n); err != nil {
			t.Fatalf("river_job is not there: %v", err)
		}
	})
}

// River's modules move together: mixing versions of river, its drivers and
// rivershared is what the module proxy lets slip (some drivers are missing at
// some versions), and River does not promise it works.
func TestRiverFamilyOnOneVersion(t *testing.T) {
	b, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.Parse("go.mod", b, nil)
	if err != nil {
		t.Fatal(err)
	}
	versions := map[string][]string{}
	for _, r := range f.Require {
		if strings.HasPrefix(r.Mod.Path, "github.com/riverqueue/") {
			versions[r.Mod.Version] = append(versions[r.Mod.Version], r.Mod.Path)
		}
	}
	if len(versions) != 1 {
		t.Fatalf("River modules on several versions: %v", versions)
	}
}
