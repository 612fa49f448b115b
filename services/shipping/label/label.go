// Package label renders shipping labels: a PDF page per parcel, or a ZPL
// document for thermal printers. It is pure: the shipping service gathers the
// booking, the parties (PSGC names) and the route code, and hands them here.
// Rendering is synchronous and deterministic: the same labels and options give
// the same bytes, so an ETag can be a hash of the document.
package label

import (
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/mallplatform/partnerapi/internal/clock"
)

// ErrInvalid is wrapped by every refusal of a label's content: the caller's
// data, never a rendering fault.
var ErrInvalid = errors.New("label: invalid content")

// maxTrackingNumber bounds the Code128 symbol so that it still fits the
// narrowest page (4x6) with readable modules.
const maxTrackingNumber = 30

// Label is what one parcel's label shows.
type Label struct {
	TrackingNumber  string // printed as Code128 and as a QR code
	TrackingCompany string
	RouteCode       string // sorting route, printed large for the hub
	OrderID         string
	Sender          Party
	Recipient       Party
	ShipBy          *time.Time // shown as a Manila calendar date; nil: not shown
	CODAmount       int64      // centavos to collect; 0: not cash on delivery
	Piece, Pieces   int        // "1/1"; both zero mean one parcel
}

// Party is a sender or a recipient, with PSGC place names.
type Party struct {
	Name, Phone        string
	Line1, Line2       string
	City, Province     string
	Region, PostalCode string
}

// validate checks what the symbols and the layout depend on. Text fields
// are free UTF-8; only the tracking number must be encodable in Code128 and
// safe inside a ZPL field, hence letters, digits and hyphens.
func (l Label) validate() error {
	n := l.TrackingNumber
	if n == "" || len(n) > maxTrackingNumber {
		return fmt.Errorf("%w: tracking number must be 1 to %d characters", ErrInvalid, maxTrackingNumber)
	}
	for _, r := range n {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return fmt.Errorf("%w: tracking number may hold only letters, digits and hyphens", ErrInvalid)
		}
	}
	if l.CODAmount < 0 {
		return fmt.Errorf("%w: COD amount is negative", ErrInvalid)
	}
	if piece, pieces := l.pieces(); piece < 1 || pieces < 1 || piece > pieces {
		return fmt.Errorf("%w: piece %d of %d", ErrInvalid, l.Piece, l.Pieces)
	}
	for _, s := range l.texts() {
		if !utf8.ValidString(s) {
			return fmt.Errorf("%w: text is not valid UTF-8", ErrInvalid)
		}
	}
	return nil
}

func (l Label) texts() []string {
	out := []string{l.TrackingCompany, l.RouteCode, l.OrderID}
	for _, p := range []Party{l.Sender, l.Recipient} {
		out = append(out, p.Name, p.Phone, p.Line1, p.Line2, p.City, p.Province, p.Region, p.PostalCode)
	}
	return out
}

// pieces reads the zero value as a single parcel, the common case.
func (l Label) pieces() (int, int) {
	if l.Piece == 0 && l.Pieces == 0 {
		return 1, 1
	}
	return l.Piece, l.Pieces
}

// pieceText is the "1/1" corner of the label.
func (l Label) pieceText() string {
	piece, pieces := l.pieces()
	return fmt.Sprintf("%d/%d", piece, pieces)
}

// shipByText is the ship-by date on the Manila calendar, where the deadline
// is judged; empty when there is none.
func (l Label) shipByText() string {
	if l.ShipBy == nil {
		return ""
	}
	return l.ShipBy.In(clock.Manila).Format("2006-01-02")
}

// codText is the amount to collect, "PHP 1,234.50"; empty when none.
func (l Label) codText() string {
	if l.CODAmount == 0 {
		return ""
	}
	return "PHP " + groupThousands(l.CODAmount/100) + fmt.Sprintf(".%02d", l.CODAmount%100)
}

func groupThousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// place is a party's locality lines: "City, Province" and "Region PostalCode",
// skipping what is empty (Metro Manila cities have no province).
func (p Party) place() (string, string) {
	return joinNonEmpty(", ", p.City, p.Province), joinNonEmpty(" ", p.Region, p.PostalCode)
}

func joinNonEmpty(sep string, parts ...string) string {
	out := ""
	for _, s := range parts {
		if s == "" {
			continue
		}
		if out != "" {
			out += sep
		}
		out += s
	}
	return out
}
