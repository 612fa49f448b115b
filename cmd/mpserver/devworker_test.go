package main

import (
	"context"
	"database/sql"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/db"
)

// The dev role migrates River's schema on its SQLite file and runs the
// worker in-process: the retention purges (idempotency keys, events, the
// webhook delivery log), enqueued when the worker becomes leader, complete
// against the real stores, and the role stops cleanly.
func TestDevRunsTheWorkerOnItsSQLiteFile(t *testing.T) {
	dir := t.TempDir()
	internal := freeLocalAddr(t)
	stop := startRole(t, "dev", "--data-dir", dir, "--http-addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0", "--metrics-addr", internal, "--log-level", "error")
	waitStatusWithin(t, "http://"+internal+"/readyz", http.StatusOK, time.Minute)

	d, err := db.Open(context.Background(), db.Config{Driver: db.DriverSQLite, DSN: filepath.Join(dir, "dev.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	current, latest, err := db.RiverMigrationStatus(context.Background(), d)
	if err != nil || current != latest || latest == 0 {
		t.Fatalf("River schema on the dev file: %d of %d (%v)", current, latest, err)
	}
	waitPurgeCompleted(t, d.SQL)

	stop()
}

// waitPurgeCompleted waits for the three retention.purge jobs to have completed in
// River's table: the worker ran them against the real stores.
func waitPurgeCompleted(t *testing.T, sqlDB *sql.DB) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var n int
		err := sqlDB.QueryRow("SELECT count(*) FROM river_job WHERE kind = 'retention.purge' AND state = 'completed'").Scan(&n)
		if err == nil && n >= 3 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("retention.purge jobs not completed (%v; jobs: %v)", err, riverJobStates(sqlDB, ""))
		}
		time.Sleep(50 * time.Millisecond)
	}
}
