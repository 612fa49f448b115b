package gateway_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"os"
	"strings"
	"testing"

	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

// uploadPath is the upload route (the document names it too).
const uploadPath = "/open/v1/admin/uploads"

func dirBucket(t *testing.T) *blob.Bucket {
	t.Helper()
	b, err := fileblob.OpenBucket(t.TempDir(), &fileblob.Options{NoTempDir: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// noisyPNG is a w x h PNG whose size grows with its area (noise does not
// compress).
func noisyPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	x := uint32(2463534242)
	for i := range img.Pix {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		img.Pix[i] = uint8(x)
	}
	img.Set(0, 0, color.NRGBA{A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func upload(t *testing.T, c *sdk.Client, contentType string, body []byte) *sdk.Response {
	t.Helper()
	hr, err := c.NewRequest(context.Background(), sdk.Request{Method: http.MethodPost, Path: uploadPath, Body: body,
		ExtraHeaders: http.Header{"Content-Type": {contentType}}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Send(hr)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

type uploaded struct {
	URL         string `json:"url"`
	ContentType string `json:"contentType"`
	Bytes       int64  `json:"bytes"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	SHA256      string `json:"sha256"`
}

func wantError(t *testing.T, what string, r *sdk.Response, status int, code string) {
	t.Helper()
	if r.Status != status || sdk.ErrorCode(r.Decode(nil)) != code {
		t.Fatalf("%s: %d %s, want %d %s", what, r.Status, r.Body, status, code)
	}
}

// The whole path on one machine, as in dev: upload an image (signed over
// its raw bytes), create a product naming its url (a plain http address
// here), fetch the same bytes back from the gateway, unsigned.
func TestUploadCreateAndFetch(t *testing.T) {
	for _, pg := range []bool{false, true} {
		name := map[bool]string{false: "sqlite", true: "postgres"}[pg]
		t.Run(name, func(t *testing.T) {
			env := testenv.Start(t, testenv.Options{Postgres: pg, Uploads: dirBucket(t)})
			seller := env.Client(t, "full", 0)
			// Over the platform's 1 MiB default: the route's own cap applies.
			img := noisyPNG(t, 700, 500)
			if len(img) <= 1<<20 {
				t.Fatalf("the test image is %d bytes, want more than 1 MiB", len(img))
			}
			r := upload(t, seller, "image/png", img)
			var u uploaded
			if r.Status != http.StatusCreated || r.Decode(&u) != nil {
				t.Fatalf("upload: %d %s", r.Status, r.Body)
			}
			sum := sha256.Sum256(img)
			if u.ContentType != "image/png" || u.Width != 700 || u.Height != 500 || u.Bytes != int64(len(img)) ||
				u.SHA256 != hex.EncodeToString(sum[:]) || !strings.HasPrefix(u.URL, env.BaseURL+"/") {
				t.Fatalf("upload answered %+v", u)
			}
			// The same bytes, by another seller: the same url.
			var again uploaded
			if r := upload(t, env.Client(t, "full", 1), "image/png", img); r.Status != http.StatusCreated || r.Decode(&again) != nil || again != u {
				t.Fatalf("the same bytes again: %d %s", r.Status, r.Body)
			}

			// A product naming the upload, and a variant too.
			body, err := os.ReadFile("../examples/product-create.json")
			if err != nil {
				t.Fatal(err)
			}
			var product map[string]any
			if err := json.Unmarshal(body, &product); err != nil {
				t.Fatal(err)
			}
			product["images"] = []string{u.URL, "https://cdn.sandbox.example.ph/products/kawali-32.jpg"}
			product["variants"].([]any)[0].(map[string]any)["images"] = []string{u.URL}
			var created struct {
				Images   []string `json:"images"`
				Variants []struct {
					Images []string `json:"images"`
				} `json:"variants"`
			}
			if r, err := seller.Call(context.Background(), http.MethodPost, "/open/v1/products", product, &created); err != nil ||
				r.Status != http.StatusCreated || created.Images[0] != u.URL || created.Variants[0].Images[0] != u.URL {
				t.Fatalf("create with the upload's url: %v %+v", err, created)
			}
			// Another plain http address is still refused.
			product["images"] = []string{strings.Replace(u.URL, "127.0.0.1", "localhost", 1)}
			if r, _ := seller.Call(context.Background(), http.MethodPost, "/open/v1/products", product, nil); r.Status != http.StatusBadRequest ||
				sdk.ErrorCode(r.Decode(nil)) != "VALIDATION_ERROR" || !strings.Contains(string(r.Body), "images[0]") {
				t.Fatalf("an http url not of the uploads: %d %s", r.Status, r.Body)
			}

			// The file, unsigned.
			resp, err := http.Get(u.URL)
			if err != nil {
				t.Fatal(err)
			}
			got := readResponse(t, resp)
			if got.Status != http.StatusOK || !bytes.Equal(got.Body, img) || got.Header.Get("Content-Type") != "image/png" ||
				got.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(got.Header.Get("Cache-Control"), "immutable") {
				t.Fatalf("GET %s: %d %v (%d bytes)", u.URL, got.Status, got.Header, len(got.Body))
			}
			for _, missing := range []string{strings.Replace(u.URL, ".png", ".jpg", 1), env.BaseURL + "/uploads/" + strings.Repeat("0", 64) + ".png", env.BaseURL + "/uploads/notes.txt"} {
				resp, err := http.Get(missing)
				if err != nil {
					t.Fatal(err)
				}
				wantError(t, "GET "+missing, readResponse(t, resp), http.StatusNotFound, "NOT_FOUND")
			}
		})
	}
}

func TestUploadRefusals(t *testing.T) {
	env := testenv.Start(t, testenv.Options{Uploads: dirBucket(t)})
	seller := env.Client(t, "full", 0)
	img := noisyPNG(t, 40, 30)
	wantError(t, "a type not accepted", upload(t, seller, "image/gif", []byte("GIF89a")), http.StatusBadRequest, "INVALID_FILE_TYPE")
	wantError(t, "JSON", upload(t, seller, "application/json", []byte(`{"a":1}`)), http.StatusBadRequest, "INVALID_FILE_TYPE")
	wantError(t, "a type that is not UTF-8", upload(t, seller, "image/\xffpng", img), http.StatusBadRequest, "INVALID_FILE_TYPE")
	wantError(t, "PNG declared JPEG", upload(t, seller, "image/jpeg", img), http.StatusBadRequest, "INVALID_FILE_CONTENT")
	wantError(t, "text declared WebP", upload(t, seller, "image/webp", []byte("RIFF....WEBPnot really")), http.StatusBadRequest, "INVALID_FILE_CONTENT")
	wantError(t, "a truncated header", upload(t, seller, "image/png", img[:20]), http.StatusBadRequest, "INVALID_FILE_CONTENT")

	// Over 10 MiB: refused by the gateway before anything reads it.
	wantError(t, "a body over 10 MiB", upload(t, seller, "image/png", append(bytes.Clone(img), make([]byte, 10<<20)...)), http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
	// Every other route keeps the 1 MiB cap.
	big := append([]byte(`{"title":"`), bytes.Repeat([]byte("x"), 1<<20)...)
	if r, _ := seller.Do(context.Background(), http.MethodPost, "/open/v1/products", append(big, `"}`...)); r.Status != http.StatusRequestEntityTooLarge {
		t.Fatalf("a product body over 1 MiB: %d %s", r.Status, r.Body)
	}
	// Policy: the catalog:write scope and the seller's token.
	wantError(t, "an app without catalog:write", upload(t, env.Client(t, "limited", 0), "image/png", img), http.StatusForbidden, "FORBIDDEN")
	wantError(t, "no seller headers", upload(t, env.Client(t, "full", -1), "image/png", img), http.StatusUnauthorized, "SELLER_TOKEN_REQUIRED")
}

func TestUploadStorageOffOrFailing(t *testing.T) {
	png := noisyPNG(t, 8, 8)
	off := testenv.Start(t, testenv.Options{})
	wantError(t, "no storage configured", upload(t, off.Client(t, "full", 0), "image/png", png), http.StatusServiceUnavailable, "UPLOAD_NOT_CONFIGURED")
	resp, err := http.Get(off.BaseURL + "/uploads/" + strings.Repeat("a", 64) + ".png")
	if err != nil {
		t.Fatal(err)
	}
	wantError(t, "a file where the gateway serves none", readResponse(t, resp), http.StatusNotFound, "NOT_FOUND")

	// A store that fails every call (closed under the platform).
	b, err := fileblob.OpenBucket(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	failing := testenv.Start(t, testenv.Options{Uploads: b})
	_ = b.Close()
	r := upload(t, failing.Client(t, "full", 0), "image/png", png)
	wantError(t, "a failing store", r, http.StatusServiceUnavailable, "UPLOAD_ERROR")
	if r.Header.Get(sdk.HeaderRetryAfter) == "" {
		t.Fatalf("503 without Retry-After: %v", r.Header)
	}
	resp, err = http.Get(failing.BaseURL + "/uploads/" + strings.Repeat("a", 64) + ".png")
	if err != nil {
		t.Fatal(err)
	}
	wantError(t, "reading from a failing store", readResponse(t, resp), http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
}
