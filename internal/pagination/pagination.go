// Package pagination holds the listing conventions every list endpoint
// shares: page and limit defaults, and opaque keyset cursors. Listings are
// keyset-paginated under the hood (stable under inserts); `page` is honoured
// too, as an offset into the same order, for clients that count pages.
// Cursors are tamper-evident (cursors.go): what a listing reads back from
// one is what it wrote.
package pagination

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

const (
	// DefaultLimit is the page size when the request names none.
	DefaultLimit = 20
	// MaxLimit is the largest page size the spec allows.
	MaxLimit = 100
	// maxPage bounds offsets so a page number cannot force a huge scan.
	maxPage = 100000
)

// Request is a listing's paging input, already validated for range.
type Request struct {
	Page   int32 // 0 when not sent
	Limit  int32 // 0 when not sent
	Cursor string
}

// Cursor is the decoded position after the last item of a page.
type Cursor struct {
	// Page is the number of the page the cursor leads to.
	Page int32 `json:"p"`
	// Filter fingerprints the filters and sort the cursor was issued for: a
	// cursor replayed with other filters is rejected rather than misread.
	Filter string `json:"f"`
	// The sort key of the last item: a time, a number, or neither, then its id.
	Time *time.Time `json:"t,omitempty"`
	Num  *int64     `json:"n,omitempty"`
	ID   string     `json:"i"`
}

// Window is a resolved request: either a keyset position (After != nil) or
// an offset.
type Window struct {
	Page   int32
	Limit  int
	Offset int
	After  *Cursor
	// cursors signs the cursor Next makes.
	cursors *Cursors
}

// Resolve turns a request into a window, verifying its cursor if it has
// one. filter fingerprints the listing's filters (see Fingerprint).
func (cs *Cursors) Resolve(r Request, filter string) (Window, error) {
	limit := int(r.Limit)
	if limit <= 0 {
		limit = DefaultLimit
	}
	if limit > MaxLimit {
		limit = MaxLimit
	}
	if r.Cursor != "" {
		c, err := cs.Decode(r.Cursor)
		if err != nil {
			return Window{}, err
		}
		if c.Filter != filter {
			return Window{}, apierr.New(apierr.BadRequest, "cursor was issued for other filters or sort; start again without it")
		}
		return Window{Page: c.Page, Limit: limit, After: &c, cursors: cs}, nil
	}
	page := r.Page
	if page <= 0 {
		page = 1
	}
	if page > maxPage {
		return Window{}, apierr.Newf(apierr.ValidationError, "page: must be at most %d; use the cursor to go further", maxPage)
	}
	return Window{Page: page, Limit: limit, Offset: int(page-1) * limit, cursors: cs}, nil
}

// Next is the cursor for the page after w, positioned after the given last
// item; call it only when more items exist. w must come from Resolve.
func (w Window) Next(filter string, lastTime *time.Time, lastNum *int64, lastID string) string {
	return w.cursors.Encode(Cursor{Page: w.Page + 1, Filter: filter, Time: lastTime, Num: lastNum, ID: lastID})
}

// Fingerprint summarises a listing's filters for Cursor.Filter.
func Fingerprint(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:6])
}

// PageAndCount runs count beside page: the count scans every matching index
// entry while the page reads only a few rows, so a listing costs the slower
// of the two rather than their sum. It returns the count and the first error.
func PageAndCount(count func() (int64, error), page func() error) (int64, error) {
	type counted struct {
		n   int64
		err error
	}
	done := make(chan counted, 1)
	go func() {
		n, err := count()
		done <- counted{n, err}
	}()
	perr := page()
	c := <-done
	if perr != nil {
		return 0, perr
	}
	return c.n, c.err
}
