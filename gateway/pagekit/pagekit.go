// Package pagekit is what the gateway's own pages share (the consent page,
// the developer console's pages): their Content-Security-Policy and the
// headers every page answers with, embedded stylesheets and scripts served
// under digest names, and the maintenance page's time. A page has no inline
// script or style and no third-party resource.
package pagekit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"
)

// ContentSecurityPolicy is the policy of every page: this origin's script,
// style, images and fetches only, forms posting to this origin, no <base>,
// and never inside a frame.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// WriteHTML answers a rendered page with status and the headers every page
// carries: the policy, no Referer (a page's URL may hold a token), no
// cache, no sniffing, no frame.
func WriteHTML(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	// For browsers older than frame-ancestors.
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// Render answers tmpl's "page" template executed with data, with status.
// A page that fails to render is logged (what names the page set) and
// answered as the set's failed page (failed, with 500), or as a plain 500
// when even that fails: a half-written page never goes out.
func Render(w http.ResponseWriter, log *zap.Logger, what string, tmpl *template.Template, status int, data, failed any, fields ...zap.Field) {
	var buf bytes.Buffer
	if err := tmpl.ExecuteTemplate(&buf, "page", data); err != nil {
		log.Error(what+": rendering failed", append(fields, zap.Error(err))...)
		status = http.StatusInternalServerError
		buf.Reset()
		if err := tmpl.ExecuteTemplate(&buf, "page", failed); err != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
	}
	WriteHTML(w, status, buf.Bytes())
}

// Asset is one embedded file, served under a name that carries a digest
// of its content, so a browser may keep it for a year: a deployment that
// changes the file changes its name.
type Asset struct {
	Name        string
	ContentType string
	Body        []byte
}

// Assets are a page set's stylesheets and scripts.
type Assets struct {
	byFile map[string]*Asset // by file name ("console.css")
	byName map[string]*Asset // by digest name
}

var assetTypes = map[string]string{
	".css": "text/css; charset=utf-8",
	".js":  "text/javascript; charset=utf-8",
}

// LoadAssets reads files (.css or .js) from fsys.
func LoadAssets(fsys fs.FS, files ...string) (*Assets, error) {
	a := &Assets{byFile: map[string]*Asset{}, byName: map[string]*Asset{}}
	for _, f := range files {
		ext := path.Ext(f)
		ct, ok := assetTypes[ext]
		if !ok {
			return nil, fmt.Errorf("pagekit: %s is not a stylesheet or a script", f)
		}
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, fmt.Errorf("pagekit: %w", err)
		}
		sum := sha256.Sum256(b)
		name := strings.TrimSuffix(path.Base(f), ext) + "." + hex.EncodeToString(sum[:6]) + ext
		as := &Asset{Name: name, ContentType: ct, Body: b}
		a.byFile[path.Base(f)], a.byName[name] = as, as
	}
	return a, nil
}

// Name is the digest name of file (its base name, "console.css"), "" for
// a file not loaded.
func (a *Assets) Name(file string) string {
	if as := a.byFile[file]; as != nil {
		return as.Name
	}
	return ""
}

// Serve answers GET …/assets/{name}: the asset under its digest name,
// cacheable for a year; notFound answers any other name.
func (a *Assets) Serve(w http.ResponseWriter, r *http.Request, notFound http.HandlerFunc) {
	as, ok := a.byName[path.Base(r.URL.Path)]
	if !ok {
		notFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", as.ContentType)
	h.Set("Content-Length", strconv.Itoa(len(as.Body)))
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(as.Body)
}

// philippineTime is the platform's time zone (UTC+8 all year) pages show
// times in.
var philippineTime = time.FixedZone("PHT", 8*60*60)

// PhilippineTime is a time as pages show it ("3:04 PM, 2 January 2006" in
// Philippine time) and in RFC 3339 (for a <time> element's datetime).
func PhilippineTime(t time.Time) (shown, iso string) {
	return t.In(philippineTime).Format("3:04 PM, 2 January 2006"), t.UTC().Format(time.RFC3339)
}

// MaintenanceEnd is a maintenance's announced end as a page shows it and
// in RFC 3339 (for a <time> element); both "" when none was announced.
func MaintenanceEnd(until time.Time) (shown, iso string) {
	if until.IsZero() {
		return "", ""
	}
	shown, iso = PhilippineTime(until)
	return shown + " (Philippine time)", iso
}
