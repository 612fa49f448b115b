package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/sdk"
)

// The dev role alone is the whole image path on one machine: an upload
// stored in the data directory, a product created with its url (plain
// http, the gateway's own address), the same bytes fetched back.
func TestDevUploadCreateFetch(t *testing.T) {
	dir := t.TempDir()
	internal := freeLocalAddr(t)
	stop := startRole(t, "dev", "--data-dir", dir, "--http-addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0", "--metrics-addr", internal, "--log-level", "error")
	waitStatusWithin(t, "http://"+internal+"/readyz", http.StatusOK, time.Minute)
	creds, err := sdk.LoadCredentials(filepath.Join(dir, "sandbox-credentials.json"))
	if err != nil {
		t.Fatal(err)
	}
	seller, err := creds.Client("full", 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	img := image.NewRGBA(image.Rect(0, 0, 640, 480))
	img.Set(10, 10, color.RGBA{R: 255, A: 255})
	var photo bytes.Buffer
	if err := jpeg.Encode(&photo, img, nil); err != nil {
		t.Fatal(err)
	}
	hr, err := seller.NewRequest(ctx, sdk.Request{Method: http.MethodPost, Path: "/open/v1/admin/uploads", Body: photo.Bytes(),
		ExtraHeaders: http.Header{"Content-Type": {"image/jpeg"}}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := seller.Send(hr)
	var up struct {
		URL           string
		Width, Height int
	}
	if err != nil || r.Status != http.StatusCreated || r.Decode(&up) != nil || up.Width != 640 || up.Height != 480 ||
		!strings.HasPrefix(up.URL, creds.BaseURL+"/uploads/") {
		t.Fatalf("upload: %v %d %s", err, r.Status, r.Body)
	}
	// In the data directory, under its name.
	if _, err := os.Stat(filepath.Join(dir, "uploads", filepath.Base(up.URL))); err != nil {
		t.Fatalf("the file is not in DATA_DIR/uploads: %v", err)
	}

	body, err := os.ReadFile("../../examples/product-create.json")
	if err != nil {
		t.Fatal(err)
	}
	var product map[string]any
	if err := json.Unmarshal(body, &product); err != nil {
		t.Fatal(err)
	}
	product["images"] = []string{up.URL}
	var created struct{ Images []string }
	if r, err := seller.Call(ctx, http.MethodPost, "/open/v1/products", product, &created); err != nil || len(created.Images) != 1 || created.Images[0] != up.URL {
		t.Fatalf("create with the upload's url: %v %s", err, r.Body)
	}

	resp, err := http.Get(created.Images[0])
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || !bytes.Equal(got, photo.Bytes()) || resp.Header.Get("Content-Type") != "image/jpeg" ||
		resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("GET %s: %d %v, %d bytes of %d", created.Images[0], resp.StatusCode, resp.Header, len(got), photo.Len())
	}
	stop()
}
