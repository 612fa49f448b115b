package main

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

// label writes the document's bytes to standard output, flags before or
// after the order; an order without a booking is the error on standard
// error and exit 1.
func TestLabelWritesTheDocument(t *testing.T) {
	clearEnv(t)
	env := testenv.Start(t, testenv.Options{})
	path := filepath.Join(t.TempDir(), "creds.json")
	if err := env.Creds.Save(path); err != nil {
		t.Fatal(err)
	}
	var orders []struct{ ID string }
	if _, err := env.Client(t, "full", 0).Call(context.Background(), http.MethodGet, "/open/v1/orders?status=READY_TO_SHIP&limit=2", nil, &orders); err != nil || len(orders) != 2 {
		t.Fatalf("orders: %v %v", orders, err)
	}
	booked, unbooked := orders[0].ID, orders[1].ID
	resp, err := env.Client(t, "full", 0).DoSigned(context.Background(), sdk.Request{Method: http.MethodPost,
		Path: "/open/v1/orders/" + booked + "/shipment", Body: []byte(`{"method":"DROPOFF","channelId":"JNT_STANDARD"}`),
		ExtraHeaders: http.Header{sdk.HeaderIdempotencyKey: {"label-" + booked}}})
	if err != nil || resp.Status != http.StatusCreated {
		t.Fatalf("booking: %v %v", resp, err)
	}

	code, out, errOut := runCLI(t, "", "--credentials", path, "label", booked)
	if code != exitOK || !strings.HasPrefix(out, "%PDF-") || !strings.Contains(errOut, "application/pdf") {
		t.Fatalf("pdf: exit %d, stdout %.40q, stderr %s", code, out, errOut)
	}
	for _, args := range [][]string{{"label", booked, "--format", "zpl", "--size", "4x6"}, {"label", "--format", "zpl", booked}} {
		code, out, errOut = runCLI(t, "", append([]string{"--credentials", path}, args...)...)
		if code != exitOK || !strings.HasPrefix(out, "^XA") {
			t.Errorf("%q: exit %d, stdout %.40q, stderr %s", args, code, out, errOut)
		}
	}
	code, out, errOut = runCLI(t, "", "--credentials", path, "label", unbooked)
	if code != exitFail || out != "" || !strings.Contains(errOut, "SHIPPING_LABEL_UNAVAILABLE") {
		t.Errorf("unbooked: exit %d, stdout %q, stderr %s", code, out, errOut)
	}
	for _, args := range [][]string{{"label"}, {"label", booked, unbooked}, {"label", booked, "--size"}} {
		if code, _, _ := runCLI(t, "", append([]string{"--credentials", path}, args...)...); code != exitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, exitUsage)
		}
	}
}
