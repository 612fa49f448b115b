// Package pagination holds the listing conventions every list endpoint
// shares: page and limit defaults, and opaque keyset cursors. Listings are
// keyset-paginated under the hood (stable under inserts); `page` is honoured
// too, as an offset into the same order, for clients that count pages.
// Cursors are tamper-evident (cursors.go): what a listing reads back from
// one is what it wrote. A listing names the kind of its sort key once
// (Resolve[TimeKey] or Resolve[NumKey]), gets its position typed, and makes
// its answer with NewPage, whose Meta is the wire's "meta": no listing
// checks a cursor's shape or builds the next cursor by hand.
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

// TimeKey is the position of an item in a listing sorted by a time, then
// id (products, orders).
type TimeKey struct {
	At time.Time
	ID string
}

// NumKey is the position of an item in a listing sorted by a number, then
// id (categories by tree position, events by feed position).
type NumKey struct {
	N  int64
	ID string
}

// Key is the sort key of a listing: the one kind of position its cursors
// carry. A cursor of the other kind is not one the listing issued.
type Key interface {
	TimeKey | NumKey
}

// Window is a resolved request: either a keyset position (After != nil) or
// an offset.
type Window[K Key] struct {
	Page   int32
	Limit  int
	Offset int
	After  *K
	// filter and cursors sign the cursor of the next page.
	filter  string
	cursors *Cursors
}

// Resolve turns a request into a window of a listing sorted by K, verifying
// its cursor if it has one: issued by this platform, for these filters
// (see Fingerprint), and for a listing of this kind of key.
func Resolve[K Key](cs *Cursors, r Request, filter string) (Window[K], error) {
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
			return Window[K]{}, err
		}
		if c.Filter != filter {
			return Window[K]{}, apierr.New(apierr.BadRequest, "cursor was issued for other filters or sort; start again without it")
		}
		after, ok := keyOf[K](c)
		if !ok {
			return Window[K]{}, badCursor()
		}
		return Window[K]{Page: c.Page, Limit: limit, After: &after, filter: filter, cursors: cs}, nil
	}
	page := r.Page
	if page <= 0 {
		page = 1
	}
	if page > maxPage {
		return Window[K]{}, apierr.Newf(apierr.ValidationError, "page: must be at most %d; use the cursor to go further", maxPage)
	}
	return Window[K]{Page: page, Limit: limit, Offset: int(page-1) * limit, filter: filter, cursors: cs}, nil
}

// keyOf reads a decoded cursor's position as a K.
func keyOf[K Key](c Cursor) (K, bool) {
	var k K
	switch p := any(&k).(type) {
	case *TimeKey:
		if c.Time == nil || c.Num != nil {
			return k, false
		}
		*p = TimeKey{At: *c.Time, ID: c.ID}
	case *NumKey:
		if c.Num == nil || c.Time != nil {
			return k, false
		}
		*p = NumKey{N: *c.Num, ID: c.ID}
	}
	return k, true
}

// Next is the cursor for the page after w, positioned after the item at
// last; call it only when more items exist. w must come from Resolve.
func (w Window[K]) Next(last K) string {
	c := Cursor{Page: w.Page + 1, Filter: w.filter}
	switch k := any(last).(type) {
	case TimeKey:
		at := k.At.UTC()
		c.Time, c.ID = &at, k.ID
	case NumKey:
		n := k.N
		c.Num, c.ID = &n, k.ID
	}
	return w.cursors.Encode(c)
}

// Page is one page of a listing.
type Page[T any] struct {
	Items []T
	// Page is the 1-based number of this page; Limit its size.
	Page  int32
	Limit int32
	// Total counts every item matching the filters, not only this page.
	Total int64
	// NextCursor is "" on the last page.
	NextCursor string
}

// NewPage is the page of w holding items; more reports that items exist
// beyond it, and key gives an item's position for the next page's cursor.
func NewPage[T any, K Key](w Window[K], items []T, more bool, total int64, key func(T) K) Page[T] {
	p := Page[T]{Items: items, Page: w.Page, Limit: int32(w.Limit), Total: total}
	if more && len(items) > 0 {
		p.NextCursor = w.Next(key(items[len(items)-1]))
	}
	return p
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
