package main

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/db"
)

// The dev role migrates River's schema on its SQLite file and runs the
// worker in-process: River's client elects itself leader there (the leader
// enqueues the periodic purge), and the role stops cleanly.
func TestDevRunsTheWorkerOnItsSQLiteFile(t *testing.T) {
	dir := t.TempDir()
	internal := freeLocalAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"dev", "--data-dir", dir, "--http-addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0", "--metrics-addr", internal, "--log-level", "error"}, io.Discard, io.Discard)
	}()
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
	deadline := time.Now().Add(30 * time.Second)
	for {
		var leaders int
		if err := d.SQL.QueryRow("SELECT count(*) FROM river_leader").Scan(&leaders); err != nil {
			t.Fatal(err)
		}
		if leaders == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no River client became leader on the dev file: the worker is not running")
		}
		time.Sleep(50 * time.Millisecond)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("dev role: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the dev role did not stop")
	}
}
