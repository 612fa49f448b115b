package platform_test

import (
	"context"
	"testing"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/platform"
)

// TestDatabaseReadyNeedsMigratedSchema: core is not ready on an empty
// PostgreSQL database, and is once the migrations have run.
func TestDatabaseReadyNeedsMigratedSchema(t *testing.T) {
	ctx := context.Background()
	d, err := db.Open(ctx, db.Config{Driver: db.DriverPostgres, DSN: dbtest.EmptyPostgres(t), MaxOpenConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	ready := platform.DatabaseReady(d)
	if err := ready(ctx); err == nil {
		t.Fatal("ready on an unmigrated database")
	}
	if err := db.Migrate(ctx, d.SQL); err != nil {
		t.Fatal(err)
	}
	if err := ready(ctx); err != nil {
		t.Fatalf("not ready on a migrated database: %v", err)
	}
}

// TestDatabaseReadyFollowsTheConnection: a cut database is not ready, and
// ready again once it is back.
func TestDatabaseReadyFollowsTheConnection(t *testing.T) {
	ctx := context.Background()
	d, proxy := dbtest.PostgresThroughProxy(t)
	ready := platform.DatabaseReady(d)
	if err := ready(ctx); err != nil {
		t.Fatal(err)
	}
	proxy.Cut()
	if err := ready(ctx); err == nil {
		t.Fatal("ready with the database cut off")
	}
	proxy.Resume()
	var err error
	for range 20 {
		if err = ready(ctx); err == nil {
			return
		}
	}
	t.Fatalf("not ready after the database came back: %v", err)
}
