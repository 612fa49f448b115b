package main

import (
	"context"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/ent/event"
	"github.com/mallplatform/partnerapi/ent/product"
	"github.com/mallplatform/partnerapi/internal/db"
)

// With MP_SANDBOX_REVIEW_DELAY, the dev role's worker approves the seeded
// test shops' proposed products once they are that old: they go live, with
// a product.status_changed event for each review step.
func TestDevApprovesTestShopsProductsAfterTheReviewDelay(t *testing.T) {
	dir := t.TempDir()
	internal := freeLocalAddr(t)
	t.Setenv("MP_SANDBOX_REVIEW_DELAY", "1s")
	stop := startRole(t, "dev", "--data-dir", dir, "--http-addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0", "--metrics-addr", internal, "--log-level", "error")
	defer stop()
	waitStatusWithin(t, "http://"+internal+"/readyz", http.StatusOK, time.Minute)

	d, err := db.Open(context.Background(), db.Config{Driver: db.DriverSQLite, DSN: filepath.Join(dir, "dev.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx := context.Background()
	seeded, err := d.Ent.Product.Query().Count(ctx)
	if err != nil || seeded == 0 {
		t.Fatalf("seeded products: %d (%v)", seeded, err)
	}
	deadline := time.Now().Add(45 * time.Second)
	for {
		live, err := d.Ent.Product.Query().Where(product.StatusEQ(product.StatusLive)).Count(ctx)
		if err == nil && live == seeded {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d seeded products live (%v)", live, seeded, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	n, err := d.Ent.Event.Query().Where(event.Type("product.status_changed")).Count(ctx)
	if err != nil || n != 2*seeded {
		t.Errorf("%d product.status_changed events (%v), want %d (start review and approve of each)", n, err, 2*seeded)
	}
}
