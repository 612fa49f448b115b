package platform_test

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/platform"
	"github.com/mallplatform/partnerapi/services/auth"
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

// TestDatabaseReadyAcceptsASchemaAhead: while the next release migrates, and
// after a rollback, the database carries migrations this binary does not
// know. They are additive, so this release's pods stay ready, and its migrate
// role (the init container of core's pods) finds nothing to do.
func TestDatabaseReadyAcceptsASchemaAhead(t *testing.T) {
	ctx := context.Background()
	d, err := db.Open(ctx, db.Config{Driver: db.DriverPostgres, DSN: dbtest.EmptyPostgres(t), MaxOpenConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	if err := db.Migrate(ctx, d.SQL); err != nil {
		t.Fatal(err)
	}
	_, latest, err := db.MigrationStatus(ctx, d.SQL)
	if err != nil {
		t.Fatal(err)
	}
	// The next release's migration, as goose records it.
	if _, err := d.SQL.ExecContext(ctx, "INSERT INTO goose_db_version (version_id, is_applied) VALUES ($1, true)", latest+1); err != nil {
		t.Fatal(err)
	}
	if err := platform.DatabaseReady(d)(ctx); err != nil {
		t.Fatalf("not ready on a schema one migration ahead: %v", err)
	}
	if err := db.Migrate(ctx, d.SQL); err != nil {
		t.Fatalf("migrate on a schema one migration ahead: %v", err)
	}
}

// TestCoreHealthFollowsTheSchema: the gRPC health that core's readiness probe
// asks answers NOT_SERVING on an unmigrated database and turns SERVING once
// the migrate role has run, without a restart.
func TestCoreHealthFollowsTheSchema(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a bound on a hang, not a measurement
	defer cancel()
	d, err := db.Open(ctx, db.Config{Driver: db.DriverPostgres, DSN: dbtest.EmptyPostgres(t), MaxOpenConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	c, err := platform.NewCore(platform.CoreConfig{DB: d, GatewayToken: "health-test-gateway-token-0123456789", SecretKey: auth.NewKey()})
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = c.Server.Serve(lis) }()
	t.Cleanup(func() { c.Server.GRPC.Stop() })
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	health := healthpb.NewHealthClient(conn)
	watch, err := health.Watch(ctx, &healthpb.HealthCheckRequest{})
	if err != nil {
		t.Fatal(err)
	}
	first, err := watch.Recv()
	if err != nil {
		t.Fatal(err)
	}
	if first.Status != healthpb.HealthCheckResponse_NOT_SERVING {
		t.Fatalf("health on an unmigrated database: %v, want NOT_SERVING", first.Status)
	}
	if err := db.Migrate(ctx, d.SQL); err != nil {
		t.Fatal(err)
	}
	for {
		got, err := watch.Recv()
		if err != nil {
			t.Fatalf("no SERVING after the migration: %v", err)
		}
		if got.Status == healthpb.HealthCheckResponse_SERVING {
			break
		}
	}
	if r, err := health.Check(ctx, &healthpb.HealthCheckRequest{}); err != nil || r.Status != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health check after the migration: %v, %v", r, err)
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
