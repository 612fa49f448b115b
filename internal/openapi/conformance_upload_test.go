package openapi_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"path"
	"testing"

	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

func dirBucket(t *testing.T) *blob.Bucket {
	t.Helper()
	b, err := fileblob.OpenBucket(t.TempDir(), &fileblob.Options{NoTempDir: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// examplePNG is a w x h PNG.
func examplePNG(t testing.TB, w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.NRGBA{R: 200, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// hugePNGHeader is a PNG signature and an IHDR chunk declaring 9000 x 9000
// pixels, then IEND: too large to accept, which the header alone says.
func hugePNGHeader() []byte {
	chunk := func(kind string, data []byte) []byte {
		c := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
		body := append([]byte(kind), data...)
		return binary.BigEndian.AppendUint32(append(c, body...), crc32.ChecksumIEEE(body))
	}
	ihdr := []byte{0, 0, 0x23, 0x28, 0, 0, 0x23, 0x28, 8, 6, 0, 0, 0}
	out := append([]byte("\x89PNG\r\n\x1a\n"), chunk("IHDR", ihdr)...)
	return append(out, chunk("IEND", nil)...)
}

// checkRawBody draws the answers of an image upload's body: a type not
// accepted, bytes not of the declared type, dimensions over the limit, and
// a body over the route's cap.
func (c *checker) checkRawBody(t *testing.T, op operation, full *sdk.Client, example sdk.Request) {
	with := func(contentType string, body []byte) sdk.Request {
		req := c.withFreshKey(example)
		req.ExtraHeaders.Set("Content-Type", contentType)
		req.Body = body
		return req
	}
	expect(t, "a type not accepted", c.do(t, op, full, with("image/gif", []byte("GIF89a")), false), http.StatusBadRequest, "INVALID_FILE_TYPE")
	expect(t, "PNG bytes declared JPEG", c.do(t, op, full, with("image/jpeg", example.Body), true), http.StatusBadRequest, "INVALID_FILE_CONTENT")
	expect(t, "a PNG cut in its header", c.do(t, op, full, with("image/png", example.Body[:20]), true), http.StatusBadRequest, "INVALID_FILE_CONTENT")
	expect(t, "a PNG of 9000 x 9000 pixels", c.do(t, op, full, with("image/png", hugePNGHeader()), true), http.StatusBadRequest, "FILE_TOO_LARGE")
	max, _ := op.policy()["maxBodyBytes"].(float64)
	expect(t, "body over the cap", c.do(t, op, full, with("image/png", bytes.Repeat([]byte{0}, int(max)+1)), false), http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
}

// uploadedName uploads the example image and returns its file's name.
func (c *checker) uploadedName(t *testing.T) string {
	for _, op := range c.operations() {
		if !op.rawBody() {
			continue
		}
		a := c.do(t, op, c.client(t, "full", op), c.exampleRequest(op, nil), true)
		var env struct {
			Data struct{ URL string }
		}
		if a.status != op.successStatus() || json.Unmarshal(a.body, &env) != nil || env.Data.URL == "" {
			t.Fatalf("uploading the example image: %d %s", a.status, a.body)
		}
		return path.Base(env.Data.URL)
	}
	t.Fatal("no upload operation")
	return ""
}

// checkUploadStorage sends the upload's example where no storage is
// configured (503 UPLOAD_NOT_CONFIGURED) and where the store fails every
// call (503 UPLOAD_ERROR on upload, SERVICE_UNAVAILABLE on reading a file).
func (c *checker) checkUploadStorage(t *testing.T) {
	off := c.on(t, testenv.Start(t, testenv.Options{Unlimited: true}))
	b, err := fileblob.OpenBucket(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	failing := c.on(t, testenv.Start(t, testenv.Options{Unlimited: true, Uploads: b}))
	name := c.uploadedName(t)
	_ = b.Close()
	for _, op := range c.operations() {
		switch {
		case op.rawBody():
			expect(t, "no storage configured", off.do(t, op, off.client(t, "full", op), off.exampleRequest(op, nil), true), http.StatusServiceUnavailable, "UPLOAD_NOT_CONFIGURED")
			expect(t, "a failing store", failing.do(t, op, failing.client(t, "full", op), failing.exampleRequest(op, nil), true), http.StatusServiceUnavailable, "UPLOAD_ERROR")
		case op.id == "GetUploadedFile":
			req := failing.exampleRequest(op, map[string]string{"name": name})
			expect(t, "a file from a failing store", failing.do(t, op, nil, req, true), http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
		}
	}
}
