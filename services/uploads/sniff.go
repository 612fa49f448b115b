package uploads

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"mime"
	"strings"

	"golang.org/x/image/webp"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// The largest image accepted: a side and an area. They bound what a
// product page (or any consumer that decodes the file) has to hold in
// memory; the body cap alone does not, since a few kilobytes of PNG can
// declare gigapixels.
const (
	MaxSide   = 8000
	MaxPixels = 40_000_000
)

// format is an accepted image type: how its files begin and how its header
// is read.
type format struct {
	mediaType string
	ext       string
	// magic reports whether data starts like a file of the format.
	magic func(data []byte) bool
	// decodeConfig reads the dimensions from the header only.
	decodeConfig func(r io.Reader) (image.Config, error)
}

// formats are the accepted types, by media type. The upload route's
// request_media_types option lists the same three (a test keeps them
// equal).
var formats = map[string]format{
	"image/jpeg": {mediaType: "image/jpeg", ext: "jpg", magic: prefixed("\xff\xd8\xff"), decodeConfig: jpeg.DecodeConfig},
	"image/png":  {mediaType: "image/png", ext: "png", magic: prefixed("\x89PNG\r\n\x1a\n"), decodeConfig: png.DecodeConfig},
	"image/webp": {mediaType: "image/webp", ext: "webp", magic: isWebP, decodeConfig: webp.DecodeConfig},
}

func prefixed(sig string) func([]byte) bool {
	return func(b []byte) bool { return bytes.HasPrefix(b, []byte(sig)) }
}

// isWebP: a RIFF container of the WEBP form.
func isWebP(b []byte) bool {
	return len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP"
}

// MediaTypes lists the accepted media types.
func MediaTypes() []string {
	out := make([]string, 0, len(formats))
	for mt := range formats {
		out = append(out, mt)
	}
	return out
}

// ExtensionType is the media type of a stored file's extension ("" when
// none): the files are served with the type their name says, never one
// guessed from the content.
func ExtensionType(ext string) string {
	for _, f := range formats {
		if f.ext == ext {
			return f.mediaType
		}
	}
	return ""
}

// sniffed is what the header of an accepted file says.
type sniffed struct {
	format        format
	width, height int
}

// sniff checks data against the declared Content-Type: the type must be
// one of the accepted three, the bytes must begin as that type's files do
// and its header must parse, and the dimensions it declares must be within
// the limits. Only the header is read: nothing is decoded, so a file
// declaring huge dimensions costs no more than its size.
func sniff(declared string, data []byte) (*sniffed, error) {
	mt, _, err := mime.ParseMediaType(declared)
	f, ok := formats[strings.ToLower(mt)]
	if err != nil || !ok {
		if declared == "" {
			return nil, apierr.New(invalidFileType, "the Content-Type header is missing; send image/jpeg, image/png or image/webp")
		}
		return nil, apierr.Newf(invalidFileType, "Content-Type %q is not accepted; send image/jpeg, image/png or image/webp", truncate(declared, 100))
	}
	if !f.magic(data) {
		return nil, apierr.Newf(invalidFileContent, "the body is not a %s file", f.mediaType)
	}
	cfg, err := f.decodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, apierr.Newf(invalidFileContent, "the body is not a valid %s file: its header cannot be read", f.mediaType)
	}
	if cfg.Width > MaxSide || cfg.Height > MaxSide || int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return nil, apierr.Newf(fileTooLarge, "the image is %d x %d pixels; at most %d pixels a side and %d megapixels are accepted",
			cfg.Width, cfg.Height, MaxSide, MaxPixels/1_000_000)
	}
	return &sniffed{format: f, width: cfg.Width, height: cfg.Height}, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
