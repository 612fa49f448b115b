package uploads

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"

	uploadsv1 "github.com/mallplatform/partnerapi/gen/mp/uploads/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/policy"
)

const publicURL = "http://127.0.0.1:8080/uploads/"

func dirBucket(t *testing.T) *blob.Bucket {
	t.Helper()
	b, err := fileblob.OpenBucket(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func newService(t *testing.T, b *blob.Bucket) *Service {
	t.Helper()
	s, err := NewService(Config{Bucket: b, PublicURL: publicURL})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func wantCode(t *testing.T, what string, err error, code apierr.Code) {
	t.Helper()
	if got := apierr.CodeOf(err); got != code || err == nil {
		t.Fatalf("%s: %v, want %s", what, err, apierr.Name(code))
	}
	if e, _ := apierr.As(err); strings.TrimSpace(e.Message) == "" {
		t.Fatalf("%s: no message", what)
	}
}

func TestAcceptedImagesAnswerTheirDimensions(t *testing.T) {
	b := dirBucket(t)
	s := newService(t, b)
	ctx := context.Background()
	for _, tc := range []struct {
		name, declared, ext string
		data                []byte
		w, h                int
	}{
		{"jpeg", "image/jpeg", "jpg", jpegFile(t, 320, 200), 320, 200},
		{"png", "image/png", "png", pngFile(t, 64, 48), 64, 48},
		{"webp", "image/webp", "webp", webpFile(t), 150, 100},
		{"declared type with a parameter, any case", "Image/PNG; charset=binary", "png", pngFile(t, 3, 5), 3, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, err := s.Upload(ctx, tc.declared, tc.data)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(tc.data)
			digest := hex.EncodeToString(sum[:])
			if u.Width != tc.w || u.Height != tc.h || u.Bytes != int64(len(tc.data)) || u.SHA256 != digest ||
				u.URL != publicURL+digest+"."+tc.ext || u.ContentType != formats[strings.ToLower(strings.Split(tc.declared, ";")[0])].mediaType {
				t.Fatalf("upload %+v", u)
			}
			stored, err := b.ReadAll(ctx, digest+"."+tc.ext)
			if err != nil || !bytes.Equal(stored, tc.data) {
				t.Fatalf("stored %d bytes (%v), want the %d sent", len(stored), err, len(tc.data))
			}
			attrs, err := b.Attributes(ctx, digest+"."+tc.ext)
			if err != nil || attrs.ContentType != u.ContentType || attrs.CacheControl != cacheControl {
				t.Fatalf("attributes %+v %v", attrs, err)
			}
		})
	}
}

func TestSameBytesSameURL(t *testing.T) {
	b := dirBucket(t)
	s := newService(t, b)
	ctx := context.Background()
	data := pngFile(t, 10, 10)
	first, err := s.Upload(ctx, "image/png", data)
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.Upload(ctx, "image/png", data)
	if err != nil || *again != *first {
		t.Fatalf("second upload %+v %v, first %+v", again, err, first)
	}
	other, err := s.Upload(ctx, "image/png", pngFile(t, 11, 10))
	if err != nil || other.URL == first.URL {
		t.Fatalf("other bytes %+v %v", other, err)
	}
	var names []string
	iter := b.List(nil)
	for {
		obj, err := iter.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, obj.Key)
	}
	if len(names) != 2 {
		t.Fatalf("stored %v, want one file per content", names)
	}
}

func TestRefusals(t *testing.T) {
	s := newService(t, dirBucket(t))
	ctx := context.Background()
	png := pngFile(t, 20, 20)
	for _, tc := range []struct {
		name, declared string
		data           []byte
		code           apierr.Code
	}{
		{"no Content-Type", "", png, invalidFileType},
		{"a type not accepted", "image/gif", []byte("GIF89a"), invalidFileType},
		{"JSON", "application/json", []byte(`{}`), invalidFileType},
		{"a malformed type", "image/", png, invalidFileType},
		{"PNG bytes declared JPEG", "image/jpeg", png, invalidFileContent},
		{"JPEG bytes declared PNG", "image/png", jpegFile(t, 8, 8), invalidFileContent},
		{"text declared PNG", "image/png", []byte("hello, this is not an image"), invalidFileContent},
		{"empty body", "image/webp", nil, invalidFileContent},
		{"PNG cut inside its header", "image/png", png[:20], invalidFileContent},
		{"JPEG cut inside its header", "image/jpeg", jpegHeader(100, 100)[:9], invalidFileContent},
		{"WebP cut inside its header", "image/webp", webpFile(t)[:24], invalidFileContent},
		{"PNG header with a wrong checksum", "image/png", corruptCRC(pngHeader(10, 10)), invalidFileContent},
		{"PNG of zero width", "image/png", pngHeader(0, 10), invalidFileContent},
		{"PNG wider than 8000", "image/png", pngHeader(8001, 10), fileTooLarge},
		{"JPEG taller than 8000", "image/jpeg", jpegHeader(100, 8001), fileTooLarge},
		{"WebP wider than 8000", "image/webp", webpHeader(9000, 10), fileTooLarge},
		{"PNG over 40 megapixels within 8000 a side", "image/png", pngHeader(7000, 6000), fileTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Upload(ctx, tc.declared, tc.data)
			wantCode(t, tc.name, err, tc.code)
		})
	}
	// The limits themselves pass.
	for _, data := range [][]byte{pngHeader(8000, 5000), jpegHeader(5000, 8000), webpHeader(8000, 5000)} {
		if _, err := sniff(map[byte]string{0x89: "image/png", 0xff: "image/jpeg", 'R': "image/webp"}[data[0]], data); err != nil {
			t.Fatalf("an image of 8000 x 5000 (40 megapixels): %v", err)
		}
	}
}

func corruptCRC(b []byte) []byte {
	out := slices.Clone(b)
	out[8+8+13+3] ^= 0xff // the last byte of IHDR's CRC
	return out
}

// A PNG whose header declares 100,000 x 100,000 pixels (40 GB as RGBA) is
// refused from its header: the refusal allocates a few kilobytes, not the
// image.
func TestDecompressionBombRefusedFromItsHeader(t *testing.T) {
	s := newService(t, dirBucket(t))
	bomb := pngHeader(100_000, 100_000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := s.Upload(context.Background(), "image/png", bomb)
	runtime.ReadMemStats(&after)
	wantCode(t, "a 100,000 x 100,000 PNG header", err, fileTooLarge)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Fatalf("refusing it allocated %d bytes", grew)
	}
}

func TestStorageFailingAndNotConfigured(t *testing.T) {
	ctx := context.Background()
	off, err := NewService(Config{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = off.Upload(ctx, "image/png", pngFile(t, 4, 4))
	wantCode(t, "no bucket", err, uploadNotConfigured)
	if off.ImagePrefix() != "" {
		t.Fatalf("prefix %q without a bucket", off.ImagePrefix())
	}

	// A bucket that fails every call: closed under the service.
	b, err := fileblob.OpenBucket(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	logs, observed := observer.New(zap.WarnLevel)
	s, err := NewService(Config{Bucket: b, PublicURL: publicURL, Logger: zap.New(logs)})
	if err != nil {
		t.Fatal(err)
	}
	_ = b.Close()
	_, err = s.Upload(ctx, "image/png", pngFile(t, 4, 4))
	wantCode(t, "a failing bucket", err, uploadError)
	if e, _ := apierr.As(err); strings.Contains(e.Message, "closed") {
		t.Fatalf("the store's own error reached the message: %q", e.Message)
	}
	// The operator sees what the partner does not.
	if entries := observed.FilterMessage("storing an upload failed").All(); len(entries) != 1 || !strings.Contains(entries[0].ContextMap()["error"].(string), "closed") {
		t.Fatalf("logged %v", observed.All())
	}
}

func TestPublicURL(t *testing.T) {
	for raw, want := range map[string]string{
		"https://img.mall.example/products/": "https://img.mall.example/products/",
		"https://img.mall.example/products":  "https://img.mall.example/products/",
		"http://127.0.0.1:8080/uploads/":     "http://127.0.0.1:8080/uploads/",
	} {
		if got, err := CheckPublicURL(raw); err != nil || got != want {
			t.Errorf("%q: %q %v", raw, got, err)
		}
	}
	for _, raw := range []string{"", "/uploads/", "ftp://x/", "https:///x/", "https://x/?a=1", "https://x/#f"} {
		if _, err := NewService(Config{Bucket: dirBucket(t), PublicURL: raw}); err == nil {
			t.Errorf("%q accepted", raw)
		}
	}
}

func TestOpenServesOnlyItsOwnNames(t *testing.T) {
	b := dirBucket(t)
	s := newService(t, b)
	ctx := context.Background()
	data := jpegFile(t, 16, 16)
	u, err := s.Upload(ctx, "image/jpeg", data)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(ctx, b, 0, strings.TrimPrefix(u.URL, publicURL))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(f)
	_ = f.Close()
	if err != nil || !bytes.Equal(got, data) || f.ContentType != "image/jpeg" || f.Size != int64(len(data)) {
		t.Fatalf("read %d bytes %v, type %q", len(got), err, f.ContentType)
	}
	if err := b.WriteAll(ctx, "notes.txt", []byte("x"), nil); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"notes.txt", u.SHA256 + ".png", u.SHA256 + ".jpg.attrs", "../" + u.SHA256 + ".jpg", strings.ToUpper(u.SHA256) + ".jpg", u.SHA256, ""} {
		if _, err := Open(ctx, b, 0, name); !errors.Is(err, ErrNotFound) {
			t.Errorf("%q: %v, want ErrNotFound", name, err)
		}
	}
	if _, err := Open(ctx, nil, 0, strings.TrimPrefix(u.URL, publicURL)); !errors.Is(err, ErrNotFound) {
		t.Errorf("no bucket: %v", err)
	}
}

// The route declares the media types the service accepts, so the OpenAPI
// document lists exactly those.
func TestRouteDeclaresTheAcceptedTypes(t *testing.T) {
	table, err := policy.Load()
	if err != nil {
		t.Fatal(err)
	}
	m, ok := table.Method(uploadsv1.UploadService_UploadImage_FullMethodName)
	if !ok || !m.RawBody {
		t.Fatalf("the upload route is not a raw body route: %+v", m)
	}
	declared := slices.Sorted(slices.Values(m.Policy.GetRequestMediaTypes()))
	if !slices.Equal(declared, slices.Sorted(slices.Values(MediaTypes()))) {
		t.Fatalf("declared %v, accepted %v", declared, MediaTypes())
	}
	if m.MaxBodyBytes() != 10<<20 {
		t.Fatalf("body cap %d", m.MaxBodyBytes())
	}
}
