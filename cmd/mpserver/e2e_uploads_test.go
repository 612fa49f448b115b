package main_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/sdk"
)

// TestCoreStoresUploads runs core and the gateway as separate processes
// with an upload bucket by URL (a directory here; s3:// or gs:// in
// production) and a public prefix of its own: the upload lands in the
// bucket under its digest and answers a url on that prefix. The gateway,
// given no bucket, serves no files.
func TestCoreStoresUploads(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the binaries")
	}
	dir := filepath.Join(t.TempDir(), "bucket")
	bucket := (&url.URL{Scheme: "file", Path: dir, RawQuery: "create_dir=true&no_tmp_dir=true"}).String()
	pl := startPlatform(t, "MP_UPLOAD_BUCKET="+bucket, "MP_UPLOAD_PUBLIC_URL=https://img.sandbox.example.ph/p")
	seller, err := pl.creds.Client("full", 0)
	if err != nil {
		t.Fatal(err)
	}
	var photo bytes.Buffer
	if err := png.Encode(&photo, image.NewGray(image.Rect(0, 0, 30, 20))); err != nil {
		t.Fatal(err)
	}
	hr, err := seller.NewRequest(context.Background(), sdk.Request{Method: http.MethodPost, Path: "/open/v1/admin/uploads", Body: photo.Bytes(),
		ExtraHeaders: http.Header{"Content-Type": {"image/png"}}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := seller.Send(hr)
	var up struct {
		URL, SHA256 string
	}
	if err != nil || r.Status != http.StatusCreated || r.Decode(&up) != nil || up.URL != "https://img.sandbox.example.ph/p/"+up.SHA256+".png" {
		t.Fatalf("upload: %v %d %s", err, r.Status, r.Body)
	}
	stored, err := os.ReadFile(filepath.Join(dir, path.Base(up.URL)))
	if err != nil || !bytes.Equal(stored, photo.Bytes()) {
		t.Fatalf("the bucket holds %d bytes (%v), want the %d sent", len(stored), err, photo.Len())
	}
	resp, err := http.Get(strings.TrimSuffix(pl.creds.BaseURL, "/") + "/uploads/" + path.Base(up.URL))
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("the production gateway served a file: %d", resp.StatusCode)
	}
}
