package gateway

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/policy"
)

// bodyEncoding reads Content-Encoding: gzip reports a gzip body, which only
// a route declaring gzip_body accepts; any other coding, or gzip elsewhere,
// is 400 BAD_REQUEST (the error catalogue has no 415, and the client's fix
// is the same: send the body as the route takes it).
func bodyEncoding(h http.Header, m *policy.Method) (gzipped bool, err error) {
	values := h.Values("Content-Encoding")
	if len(values) == 0 {
		return false, nil
	}
	var codings []string
	for _, v := range values {
		for _, c := range strings.Split(v, ",") {
			if c = strings.ToLower(strings.TrimSpace(c)); c != "" && c != "identity" {
				codings = append(codings, c)
			}
		}
	}
	switch {
	case len(codings) == 0:
		return false, nil
	case len(codings) == 1 && (codings[0] == "gzip" || codings[0] == "x-gzip"):
		if !m.GzipBody() {
			return false, apierr.New(apierr.BadRequest, "Content-Encoding: gzip is not accepted on this route; send the body uncompressed")
		}
		return true, nil
	}
	if m.GzipBody() {
		return false, apierr.Newf(apierr.BadRequest, "Content-Encoding %q is not supported; send gzip or an uncompressed body", strings.Join(codings, ", "))
	}
	return false, apierr.Newf(apierr.BadRequest, "Content-Encoding %q is not supported; send the body uncompressed", strings.Join(codings, ", "))
}

// inflate decompresses a gzip body, counting while it inflates: it stops
// one byte past max (413 PAYLOAD_TOO_LARGE), so a gzip bomb costs at most
// max bytes of memory and the work of inflating them. A stream that is not
// valid gzip is 400 BAD_REQUEST.
func inflate(body []byte, max int64) ([]byte, error) {
	malformed := apierr.New(apierr.BadRequest, "the body is not a valid gzip stream (Content-Encoding: gzip)")
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return nil, malformed
	}
	defer zr.Close()
	// A first guess that grows as needed, never past max+1: realistic
	// JSON inflates about eight-fold, and whatever the guess, the buffers
	// allocated add up to at most about twice the cap.
	tooLarge := apierr.New(apierr.PayloadTooLarge, "the decompressed request body is larger than "+strconv.FormatInt(max, 10)+" bytes")
	buf := make([]byte, 0, min(int64(len(body))*8+512, max+1))
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > max {
				return nil, tooLarge
			}
			grown := make([]byte, len(buf), min(2*int64(cap(buf)), max+1))
			copy(grown, buf)
			buf = grown
		}
		n, err := zr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > max {
			return nil, tooLarge
		}
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return nil, malformed
		}
	}
}
