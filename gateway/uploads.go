package gateway

import (
	"errors"
	"io"
	"net/http"
	"path"
	"strconv"

	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/uploads"
)

// serveUpload answers an uploaded file from Config.Uploads: unsigned (a
// product page fetches it), with the type its name says (never sniffed by
// the browser), and cacheable for long, a name being the hash of its
// bytes. The name is the route's only segment after its literal prefix.
func (g *Gateway) serveUpload(w http.ResponseWriter, r *http.Request) {
	rid := w.Header().Get(sdk.HeaderRequestID)
	f, err := uploads.Open(r.Context(), g.cfg.Uploads, g.cfg.RequestTimeout, path.Base(r.URL.Path))
	switch {
	case errors.Is(err, uploads.ErrNotFound):
		writeError(w, rid, apierr.NotFound, "no uploaded file has this name")
		return
	case err != nil:
		g.log.Warn("reading an uploaded file", zap.String("request_id", rid), zap.Error(err))
		writeError(w, rid, apierr.ServiceUnavailable, "the file store is unavailable; retry later")
		return
	}
	defer f.Close()
	h := w.Header()
	h.Set("Content-Type", f.ContentType)
	h.Set("Content-Length", strconv.FormatInt(f.Size, 10))
	h.Set("Cache-Control", f.CacheControl)
	h.Set("X-Content-Type-Options", "nosniff")
	// An image is never a document: nothing in it may run or load.
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	w.WriteHeader(http.StatusOK)
	if _, err := io.Copy(w, f); err != nil {
		g.log.Debug("sending an uploaded file", zap.String("request_id", rid), zap.Error(err))
	}
}
