package label

import (
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"
)

// dotsPerMM is the resolution ZPL positions are written in: 203 dpi, the
// common resolution of label printers. Positions are printer dots, so a
// 300 dpi printer would print this document at two thirds of its size.
const dotsPerMM = 8

// RenderZPL writes one label as a ZPL II document (^XA … ^XZ) for a thermal
// printer: the printer draws the Code128 (^BC) and the QR code (^BQ) itself,
// and ^CI28 makes field data UTF-8 so that "Las Piñas" prints as written.
func RenderZPL(w io.Writer, size Size, l Label) error {
	mw, mh, err := size.millimetres()
	if err != nil {
		return err
	}
	if err := l.validate(); err != nil {
		return err
	}
	pw, ph := int(math.Round(mw*dotsPerMM)), int(math.Round(mh*dotsPerMM))
	const m = 24 // margin, 3 mm
	z := &zpl{}
	z.cmd("^XA")
	z.cmd("^CI28")
	z.cmd(fmt.Sprintf("^PW%d^LL%d^LH0,0", pw, ph))

	// Carrier and route code.
	z.text(m, m+8, 30, pw-2*m-320, l.TrackingCompany)
	z.cmd(fmt.Sprintf("^FO%d,%d^GB%d,%d,4^FS", pw-m-300, m, 300, 80))
	z.block(pw-m-300, m+16, 300, 50, l.RouteCode)
	y := m + 96
	z.rule(m, y, pw-2*m)

	// Code128 with its human-readable line under it; mode A lets the printer
	// pick the code sets, as the PDF's encoder does. The module width (^BY,
	// whole dots) is the widest at which the symbol and its quiet zones fit.
	bars, err := code128Modules(l.TrackingNumber)
	if err != nil {
		return err
	}
	modules := len(bars) + 2*quietModules
	module := min(max((pw-2*m)/modules, 1), 3)
	y += 20
	z.cmd(fmt.Sprintf("^FO%d,%d^BY%d^BCN,160,N,N,N,A^FD%s^FS",
		(pw-module*len(bars))/2, y, module, l.TrackingNumber))
	y += 172
	z.block(m, y, pw-2*m, 36, l.TrackingNumber)
	y += 52
	z.rule(m, y, pw-2*m)

	// Recipient.
	y += 12
	y = z.party("TO", l.Recipient, m, y, pw-2*m, 34, 26)
	z.rule(m, y, pw-2*m)

	// Sender beside the QR code (magnification 6, medium error correction).
	y += 12
	z.cmd(fmt.Sprintf("^FO%d,%d^BQN,2,6^FDMA,%s^FS", pw-m-220, y, l.TrackingNumber))
	y = max(z.party("FROM", l.Sender, m, y, pw-2*m-240, 26, 22), y+230)
	z.rule(m, y, pw-2*m)

	// Order, ship-by, the piece count and COD.
	y += 12
	z.text(m, y, 18, pw, "ORDER")
	z.text(m, y+22, 28, pw, l.OrderID) // an identifier: never cut
	y += 64
	if l.ShipBy != nil {
		z.text(m, y, 18, pw, "SHIP BY")
	}
	z.text(pw-m-140, y, 18, 140, "PIECE")
	z.text(m, y+22, 30, pw, l.shipByText())
	z.text(pw-m-140, y+22, 48, 140, l.pieceText())
	y += 84
	if cod := l.codText(); cod != "" {
		z.cmd(fmt.Sprintf("^FO%d,%d^GB%d,%d,4^FS", m, y, pw-2*m, 76))
		z.text(m+16, y+18, 44, pw-2*m-32, "COD "+cod)
	}
	z.cmd("^PQ1")
	z.cmd("^XZ")
	_, err = io.WriteString(w, z.b.String())
	return err
}

type zpl struct{ b strings.Builder }

func (z *zpl) cmd(s string) { z.b.WriteString(s); z.b.WriteByte('\n') }

// text is one line of the scalable font (^A0) at height h dots, top at y,
// cut to width dots. The printer measures its own font, so the cut is by
// count: ^A0 at square cells averages well under 0.6 h per character, and
// a line cut a little early beats one running under the QR code.
func (z *zpl) text(x, y, h, width int, s string) {
	if s == "" {
		return
	}
	if most := width * 10 / (6 * h); utf8.RuneCountInString(s) > most {
		s = string([]rune(s)[:max(most-3, 0)]) + "..."
	}
	z.cmd(fmt.Sprintf("^FO%d,%d^A0N,%d,%d^FH^FD%s^FS", x, y, h, h, zplEscape(s)))
}

// block is one centred line in a field block of width dots.
func (z *zpl) block(x, y, width, h int, s string) {
	if s == "" {
		return
	}
	z.cmd(fmt.Sprintf("^FO%d,%d^A0N,%d,%d^FB%d,1,0,C^FH^FD%s^FS", x, y, h, h, width, zplEscape(s)))
}

func (z *zpl) rule(x, y, width int) {
	z.cmd(fmt.Sprintf("^FO%d,%d^GB%d,3,3^FS", x, y, width))
}

// party writes a caption, the name and the address lines; it returns the y
// under the last line.
func (z *zpl) party(caption string, p Party, x, y, width, nameH, h int) int {
	z.text(x, y, 18, width, caption)
	y += 22
	z.text(x, y, nameH, width, p.Name)
	y += nameH + 8
	city, region := p.place()
	for _, line := range []string{p.Phone, p.Line1, p.Line2, city, region} {
		if line == "" {
			continue
		}
		z.text(x, y, h, width, line)
		y += h + 6
	}
	return y
}

// zplEscape makes s safe as ^FH field data: the caret and tilde would start
// commands, the underscore is ^FH's escape character, and control characters
// have no place on a label. Each becomes its _XX hex form (UTF-8 bytes under
// ^CI28); everything else passes as UTF-8.
func zplEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '^' || r == '~' || r == '_':
			fmt.Fprintf(&b, "_%02X", r)
		case r < 0x20 || r == 0x7f:
			// Dropped: a newline would end the field early.
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
