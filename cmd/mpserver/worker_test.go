package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/auth"
)

// The worker role comes up unready on a database the migrate role has not
// prepared, becomes ready by itself once migrate has applied River's schema,
// runs the retention purges against the real stores, and stops cleanly.
func TestWorkerRoleReadyOnlyAfterMigrate(t *testing.T) {
	dsn := dbtest.EmptyPostgres(t)
	internal := freeLocalAddr(t)
	stop := startRole(t, "worker", "--database-url", dsn, "--secret-key", auth.NewKey(), "--metrics-addr", internal, "--concurrency", "2")
	waitStatus(t, "http://"+internal+"/healthz", http.StatusOK)
	resp, err := http.Get("http://" + internal + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("readyz before migrations = %d, want 503", resp.StatusCode)
	}

	var out bytes.Buffer
	if err := run(context.Background(), []string{"migrate", "--database-url", dsn}, &out, io.Discard); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	var current, latest int
	if _, err := fmt.Sscanf(out.String()[strings.Index(out.String(), "job queue schema"):], "job queue schema at version %d (latest %d)", &current, &latest); err != nil || current != latest || latest == 0 {
		t.Fatalf("migrate said %q; want the job queue schema at its latest version", out.String())
	}
	waitStatusWithin(t, "http://"+internal+"/readyz", http.StatusOK, 30*time.Second)
	d, err := db.Open(context.Background(), db.Config{Driver: db.DriverPostgres, DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	waitPurgeCompleted(t, d.SQL)

	stop()
}

// The worker reads the database URL and core's secret key (webhook signing
// secrets are sealed with it) among the secrets: it has no gateway token or
// Redis flag, so its Deployment needs nothing else.
func TestWorkerRoleSecrets(t *testing.T) {
	fs := newFlagSet("worker", io.Discard)
	var wf workerFlags
	wf.register(fs)
	if fs.Lookup("secret-key") == nil {
		t.Error("the worker role lacks --secret-key")
	}
	for _, name := range []string{"gateway-token", "redis-url"} {
		if fs.Lookup(name) != nil {
			t.Errorf("the worker role has a --%s flag", name)
		}
	}
	if fs.Lookup("database-url") == nil || fs.Lookup("concurrency") == nil {
		t.Fatal("the worker role lacks --database-url or --concurrency")
	}
}

func waitStatusWithin(t *testing.T, url string, want int, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == want {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never answered %d (last: %v %v)", url, want, resp, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
