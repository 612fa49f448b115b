// Package uploads stores product images: the upload route's use case
// (sniff the bytes against the declared type, read the dimensions from the
// header, store the file under its SHA-256) and the reading of a stored
// file for the deployments whose gateway serves them. Files live in a
// gocloud.dev/blob bucket (a directory in dev, S3-compatible or GCS in
// production), opened by URL in package blobs.
package uploads

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"go.uber.org/zap"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/core"
)

// DefaultTimeout bounds each storage call when Config.Timeout is zero.
const DefaultTimeout = 10 * time.Second

// cacheControl: a name is the hash of its bytes, so a file never changes.
const cacheControl = "public, max-age=31536000, immutable"

// Config is where uploads are kept and how they are addressed.
type Config struct {
	// Bucket holds the files (nil: uploads are not configured and the
	// route answers 503 UPLOAD_NOT_CONFIGURED).
	Bucket *blob.Bucket
	// PublicURL is the prefix a file's name is appended to for its url
	// (MP_UPLOAD_PUBLIC_URL), such as https://img.mall.example/products/
	// or, in dev, the gateway's own /uploads/.
	PublicURL string
	// Timeout bounds each storage call (default DefaultTimeout).
	Timeout time.Duration
	// Logger records the store's failures, which the partner sees only as
	// UPLOAD_ERROR (default: none).
	Logger *zap.Logger
}

// CheckPublicURL checks a public URL prefix: absolute http or https with a
// host, no query or fragment, ending in "/" (one is added when missing).
func CheckPublicURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("uploads: the public URL %q must be an absolute http or https URL without query or fragment", raw)
	}
	if !strings.HasSuffix(raw, "/") {
		raw += "/"
	}
	return raw, nil
}

// Upload is a stored image.
type Upload struct {
	URL         string
	ContentType string
	Bytes       int64
	Width       int
	Height      int
	SHA256      string
}

// Service is the upload use case.
type Service struct {
	cfg Config
}

// NewService returns the service; a configured bucket needs a valid public
// URL.
func NewService(cfg Config) (*Service, error) {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	if cfg.Bucket != nil {
		u, err := CheckPublicURL(cfg.PublicURL)
		if err != nil {
			return nil, err
		}
		cfg.PublicURL = u
	}
	return &Service{cfg: cfg}, nil
}

// ImagePrefix is the url prefix of this deployment's own uploads, which a
// product's images may name besides https URLs ("" when uploads are not
// configured).
func (s *Service) ImagePrefix() string {
	if s == nil || s.cfg.Bucket == nil {
		return ""
	}
	return s.cfg.PublicURL
}

// Upload checks data against its declared media type and stores it under
// its SHA-256: the same bytes give the same url, and a file already stored
// is not written again.
func (s *Service) Upload(ctx context.Context, declared string, data []byte) (*Upload, error) {
	if s.cfg.Bucket == nil {
		return nil, apierr.New(uploadNotConfigured, "image uploads are not configured on this deployment")
	}
	img, err := sniff(declared, data)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	name := digest + "." + img.format.ext
	if err := s.store(ctx, name, img.format.mediaType, data); err != nil {
		s.cfg.Logger.Warn("storing an upload failed", zap.String("request_id", core.RequestID(ctx)), zap.String("name", name), zap.Error(err))
		return nil, apierr.Wrap(uploadError, err, "the image could not be stored; retry later")
	}
	return &Upload{URL: s.cfg.PublicURL + name, ContentType: img.format.mediaType, Bytes: int64(len(data)),
		Width: img.width, Height: img.height, SHA256: digest}, nil
}

// store writes the file unless it is already there, each call under the
// storage deadline.
func (s *Service) store(ctx context.Context, name, mediaType string, data []byte) error {
	ectx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	exists, err := s.cfg.Bucket.Exists(ectx, name)
	cancel()
	if err != nil {
		return err
	}
	if exists {
		return nil
	}
	wctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	return s.cfg.Bucket.WriteAll(wctx, name, data, &blob.WriterOptions{ContentType: mediaType, CacheControl: cacheControl})
}

// File is a stored file opened for serving; Close ends the read and its
// deadline.
type File struct {
	r            *blob.Reader
	cancel       context.CancelFunc
	ContentType  string
	Size         int64
	CacheControl string
}

func (f *File) Read(p []byte) (int, error) { return f.r.Read(p) }

// Close closes the reader and releases its deadline.
func (f *File) Close() error {
	err := f.r.Close()
	f.cancel()
	return err
}

// ErrNotFound: no stored file has the name, or the name is not one this
// service gives.
var ErrNotFound = errors.New("uploads: no such file")

// Open opens the stored file name ("<sha256>.<ext>") for reading, the
// whole read under the storage deadline. Its type is the one its
// extension names.
func Open(ctx context.Context, bucket *blob.Bucket, timeout time.Duration, name string) (*File, error) {
	digest, ext, ok := strings.Cut(name, ".")
	mediaType := ExtensionType(ext)
	if !ok || mediaType == "" || !isDigest(digest) || bucket == nil {
		return nil, ErrNotFound
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	r, err := bucket.NewReader(ctx, name, nil)
	if err != nil {
		cancel()
		if gcerrors.Code(err) == gcerrors.NotFound {
			return nil, ErrNotFound
		}
		return nil, err
	}
	return &File{r: r, cancel: cancel, ContentType: mediaType, Size: r.Size(), CacheControl: cacheControl}, nil
}

func isDigest(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
