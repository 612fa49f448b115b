package label

import (
	"github.com/signintech/gopdf"
)

// The page is laid out top to bottom in bands separated by rules: carrier and
// route code; the Code128 and the tracking number; the recipient, large,
// since the rider reads it; the sender beside the QR code; order, ship-by,
// COD and the piece count. Positions are PDF points from the top left, and
// every band fits both stocks (A6 is 419.5 pt tall, 4x6 is 432 pt).
const (
	margin      = 8.0
	ruleWidth   = 0.8
	routeBoxW   = 110.0
	headerH     = 34.0
	barcodeH    = 58.0
	qrSize      = 86.0
	ellipsis    = "…"
	labelSizePt = 6.5 // the small captions: TO, FROM, ORDER…
)

// page draws one label; the first error sticks and ends the drawing, so the
// drawing code reads as a layout rather than as error handling.
type page struct {
	doc  *gopdf.GoPdf
	w, h float64
	err  error
}

func (p *page) draw(l Label, s symbols) error {
	inner := p.w - 2*margin
	y := margin

	// Carrier and route code.
	p.text(fontBold, 11, margin, y+4, l.TrackingCompany, inner-routeBoxW-6)
	p.box(p.w-margin-routeBoxW, y, routeBoxW, headerH-6, 1.5)
	size := p.fitSize(fontBold, 20, 8, l.RouteCode, routeBoxW-8)
	p.centred(fontBold, size, p.w-margin-routeBoxW, y+4+(20-size)/2, routeBoxW, l.RouteCode)
	y += headerH
	p.rule(y)

	// Code128, its quiet zones inside the margins, and the number under it.
	y += 6
	p.bars(s.bars, margin, y, inner, barcodeH)
	y += barcodeH + 3
	p.centred(fontBold, 13, margin, y, inner, l.TrackingNumber)
	y += 20
	p.rule(y)

	// Recipient.
	y += 4
	y = p.party("TO", l.Recipient, margin, y, inner, 12, 9.5, 12)
	y += 2
	p.rule(y)

	// Sender, with the QR code at its right.
	y += 4
	top := y
	p.qr(s, p.w-margin-qrSize, y, qrSize)
	y = p.party("FROM", l.Sender, margin, y, inner-qrSize-6, 9, 8, 10)
	y = max(y, top+qrSize+2)
	p.rule(y)

	// Order, ship-by, the piece count and COD. The order id and the route
	// code are identifiers: they shrink to fit rather than lose characters.
	shipBy := l.shipByText()
	y += 4
	p.text(fontRegular, labelSizePt, margin, y, "ORDER", inner)
	y += 8
	p.text(fontBold, p.fitSize(fontBold, 11, 6, l.OrderID, inner), margin, y, l.OrderID, inner)
	y += 18
	if shipBy != "" {
		p.text(fontRegular, labelSizePt, margin, y, "SHIP BY", inner/2)
	}
	p.centred(fontRegular, labelSizePt, p.w-margin-54, y, 54, "PIECE")
	y += 8
	p.text(fontBold, 11, margin, y, shipBy, inner/2)
	p.centred(fontBold, 18, p.w-margin-54, y-2, 54, l.pieceText())
	y += 24
	if cod := l.codText(); cod != "" {
		p.box(margin, y, inner, 28, 1.5)
		p.text(fontBold, 16, margin+6, y+5, "COD "+cod, inner-12)
	}
	return p.err
}

// party writes a caption, the name and the address lines; it returns the y
// under the last line.
func (p *page) party(caption string, pt Party, x, y, width, nameSize, size, lead float64) float64 {
	p.text(fontRegular, labelSizePt, x, y, caption, width)
	y += 8
	p.text(fontBold, nameSize, x, y, pt.Name, width)
	y += nameSize + 3
	city, region := pt.place()
	for _, line := range []string{pt.Phone, pt.Line1, pt.Line2, city, region} {
		if line == "" {
			continue
		}
		p.text(fontRegular, size, x, y, line, width)
		y += lead
	}
	return y
}

// text writes one line whose top is at y, cut with an ellipsis to width.
func (p *page) text(font string, size, x, y float64, s string, width float64) {
	if p.err != nil || s == "" {
		return
	}
	if p.err = p.doc.SetFont(font, "", size); p.err != nil {
		return
	}
	s = p.fit(s, width)
	p.doc.SetXY(x, y)
	p.err = p.doc.Cell(nil, s)
}

// centred writes one line centred in [x, x+width].
func (p *page) centred(font string, size, x, y, width float64, s string) {
	if p.err != nil || s == "" {
		return
	}
	if p.err = p.doc.SetFont(font, "", size); p.err != nil {
		return
	}
	s = p.fit(s, width)
	var tw float64
	if tw, p.err = p.doc.MeasureTextWidth(s); p.err != nil {
		return
	}
	p.doc.SetXY(x+(width-tw)/2, y)
	p.err = p.doc.Cell(nil, s)
}

// fitSize is the largest font size from size down to least, in half points,
// at which s fits width; least when none does (text then cuts it).
func (p *page) fitSize(font string, size, least float64, s string, width float64) float64 {
	for ; size > least && p.err == nil; size -= 0.5 {
		if p.err = p.doc.SetFont(font, "", size); p.err != nil {
			break
		}
		w, err := p.doc.MeasureTextWidth(s)
		if err != nil {
			p.err = err
			break
		}
		if w <= width {
			return size
		}
	}
	return least
}

// fit shortens s, rune by rune, until it fits width with an ellipsis: a long
// barangay or street name must not run over the QR code or off the page.
func (p *page) fit(s string, width float64) string {
	if w, err := p.doc.MeasureTextWidth(s); err != nil || w <= width {
		p.err = err
		return s
	}
	r := []rune(s)
	for len(r) > 0 {
		r = r[:len(r)-1]
		cut := string(r) + ellipsis
		w, err := p.doc.MeasureTextWidth(cut)
		if err != nil {
			p.err = err
			return s
		}
		if w <= width {
			return cut
		}
	}
	return ""
}

func (p *page) rule(y float64) {
	if p.err != nil {
		return
	}
	p.doc.SetLineWidth(ruleWidth)
	p.doc.Line(margin, y, p.w-margin, y)
}

func (p *page) box(x, y, w, h, lineWidth float64) {
	if p.err != nil {
		return
	}
	p.doc.SetLineWidth(lineWidth)
	p.doc.RectFromUpperLeftWithStyle(x, y, w, h, "D")
}

// bars draws the Code128 modules across width, quiet zones included, with
// one rectangle per bar.
func (p *page) bars(modules []bool, x, y, width, height float64) {
	if p.err != nil {
		return
	}
	m := width / float64(len(modules)+2*quietModules)
	x += quietModules * m
	runs(modules, func(start, n int) {
		p.doc.RectFromUpperLeftWithStyle(x+float64(start)*m, y, float64(n)*m, height, "F")
	})
}

// qr draws the QR modules in a side×side square, the symbology's four-module
// quiet zone included (the encoder's grid has none). Rows overlap by a hair so
// that rasterisers leave no seams between them.
func (p *page) qr(s symbols, x, y, side float64) {
	if p.err != nil {
		return
	}
	m := side / float64(s.qrSide+2*qrQuietModules)
	x += qrQuietModules * m
	y += qrQuietModules * m
	for r, modules := range s.qr {
		top := y + float64(r)*m
		runs(modules, func(start, n int) {
			p.doc.RectFromUpperLeftWithStyle(x+float64(start)*m, top, float64(n)*m, m+0.05, "F")
		})
	}
}
