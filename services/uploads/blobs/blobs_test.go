package blobs

import (
	"context"
	"net/url"
	"strings"
	"testing"
)

func TestOpen(t *testing.T) {
	ctx := context.Background()
	if b, err := Open(ctx, ""); b != nil || err != nil {
		t.Fatalf("no URL: %v %v", b, err)
	}
	dir := t.TempDir() + "/uploads"
	b, err := Open(ctx, (&url.URL{Scheme: "file", Path: dir, RawQuery: "create_dir=true&no_tmp_dir=true"}).String())
	if err != nil {
		t.Fatal(err)
	}
	if err := b.WriteAll(ctx, "a.png", []byte("x"), nil); err != nil {
		t.Fatal(err)
	}
	_ = b.Close()
	// Every production scheme has its driver linked; opening makes no call.
	for _, u := range []string{"s3://bucket?region=ap-southeast-1", "gs://bucket"} {
		b, err := Open(ctx, u)
		if err != nil {
			// gs:// needs default credentials to open; their absence is
			// not a missing driver.
			if strings.Contains(err.Error(), "no driver registered") {
				t.Fatalf("%s: %v", u, err)
			}
			continue
		}
		_ = b.Close()
	}
	if _, err := Open(ctx, "ftp://bucket"); err == nil || !strings.Contains(err.Error(), "ftp://bucket") {
		t.Fatalf("an unknown scheme: %v", err)
	}
}
