package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/ent/product"
	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/platform"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/sdk/webhook"
)

// adminMaintenance runs mpserver admin maintenance and decodes its JSON.
func adminMaintenance(t *testing.T, coreAddr, token string, args ...string) map[string]any {
	t.Helper()
	var out bytes.Buffer
	args = append(args, "--core-addr", coreAddr, "--token", token)
	if err := runAdminMaintenance(context.Background(), args, &out, io.Discard); err != nil {
		t.Fatalf("admin maintenance %v: %v", args, err)
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatalf("%s: %v", out.String(), err)
	}
	return m
}

// An operator switches the dev platform's sandbox into maintenance and out
// of it with the command: the gateway follows each switch, partner calls
// answer 503 MAINTENANCE meanwhile, and webhook deliveries keep flowing (a
// trust and safety reviewer approves a product on core during maintenance,
// and the subscriber receives the change).
func TestAdminMaintenanceOnTheDevPlatform(t *testing.T) {
	dir := t.TempDir()
	internal, grpcAddr := freeLocalAddr(t), freeLocalAddr(t)
	stop := startRole(t, "dev", "--data-dir", dir, "--http-addr", "127.0.0.1:0", "--grpc-addr", grpcAddr, "--metrics-addr", internal, "--log-level", "error")
	defer stop()
	waitStatusWithin(t, "http://"+internal+"/readyz", http.StatusOK, time.Minute)
	ctx := context.Background()
	dbPath := filepath.Join(dir, "dev.db")
	created, err := admin(t, dbPath, "create-internal-caller", "--name", "ops",
		"--services", "mp.maintenance.v1.MaintenanceAdminService,mp.catalog.v1.ProductReviewService")
	if err != nil {
		t.Fatal(err)
	}
	token, _ := created["token"].(string)
	creds, err := sdk.LoadCredentials(filepath.Join(dir, "sandbox-credentials.json"))
	if err != nil {
		t.Fatal(err)
	}
	app, err := creds.Client("full", -1)
	if err != nil {
		t.Fatal(err)
	}

	got := make(chan []byte, 8)
	var sub struct{ Secret string }
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if err := webhook.Verify(sub.Secret, r.Header, body, time.Now(), 0); err != nil {
			t.Errorf("a delivery does not verify: %v", err)
		}
		got <- body
	})}
	go func() { _ = srv.Serve(lis) }()
	defer srv.Close()
	if _, err := app.Call(ctx, "POST", "/open/v1/webhooks",
		map[string]string{"eventType": "product.status_changed", "callbackUrl": "http://" + lis.Addr().String() + "/hooks"}, &sub); err != nil || sub.Secret == "" {
		t.Fatalf("subscribe: %v", err)
	}

	on := adminMaintenance(t, grpcAddr, token, "on", "--environment", "sandbox", "--until", "30m", "--message", "Upgrading the sandbox")
	if on["on"] != true || on["until"] == nil || !strings.Contains(on["setBy"].(string), "ops") {
		t.Fatalf("on answered %v", on)
	}
	waitPartnerStatus(t, app, http.StatusServiceUnavailable)

	// Core and the worker go on: a reviewer approves a proposed product.
	d, err := db.Open(ctx, db.Config{Driver: db.DriverSQLite, DSN: dbPath})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	p, err := d.Ent.Product.Query().Where(product.StatusEQ(product.StatusProposed)).First(ctx)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := platform.DialCore(grpcAddr, token)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	review := catalogv1.NewProductReviewServiceClient(conn)
	if _, err := review.StartReview(ctx, &catalogv1.StartReviewRequest{Id: p.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := review.ApproveProduct(ctx, &catalogv1.ApproveProductRequest{Id: p.ID}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		select {
		case body := <-got:
			if !strings.Contains(string(body), p.ID) {
				t.Errorf("delivered %s", body)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("no delivery during maintenance")
		}
	}
	if r, err := app.Do(ctx, "GET", "/open/v1/usage", nil); err != nil || r.Status != http.StatusServiceUnavailable ||
		r.Header.Get("Retry-After") == "" || !strings.Contains(string(r.Body), `"code":"MAINTENANCE"`) {
		t.Fatalf("still in maintenance after the deliveries: %v %v", r, err)
	}

	off := adminMaintenance(t, grpcAddr, token, "off", "--environment", "sandbox")
	if off["on"] != false {
		t.Fatalf("off answered %v", off)
	}
	waitPartnerStatus(t, app, http.StatusOK)
}

// waitPartnerStatus waits, with a bound, until a signed partner call
// answers status (the dev gateway reads the switch every second).
func waitPartnerStatus(t *testing.T, app *sdk.Client, status int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r, err := app.Do(context.Background(), "GET", "/open/v1/usage", nil)
		if err == nil && r.Status == status {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the partner route never answered %d (last: %v %v)", status, r, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// --until takes a time or a duration from now; nothing else.
func TestAdminMaintenanceFlags(t *testing.T) {
	now := time.Date(2026, 11, 27, 3, 0, 0, 0, time.UTC)
	if u, err := parseUntil("90m", now); err != nil || !u.Equal(now.Add(90*time.Minute)) {
		t.Errorf("90m: %v %v", u, err)
	}
	if u, err := parseUntil("2026-11-27T13:00:00+08:00", now); err != nil || !u.Equal(now.Add(2*time.Hour)) {
		t.Errorf("RFC 3339: %v %v", u, err)
	}
	for _, bad := range []string{"-5m", "0s", "tomorrow", "2026-11-27 13:00"} {
		if _, err := parseUntil(bad, now); err == nil {
			t.Errorf("--until %q accepted", bad)
		}
	}
	for _, args := range [][]string{
		{"on", "--token", "x"},
		{"on", "--environment", "staging", "--token", "x"},
		{"on", "--environment", "sandbox"},
		{"off", "--environment", "sandbox", "--token", "x", "--message", "m"},
		{"pause", "--environment", "sandbox", "--token", "x"},
	} {
		if err := runAdminMaintenance(context.Background(), args, io.Discard, io.Discard); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}
