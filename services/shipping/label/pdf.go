package label

import (
	"compress/zlib"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/signintech/gopdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
)

// MaxPDFLabels is the most labels one document holds: the bulk label route's
// limit, kept here so that one rendering's memory and time stay bounded.
const MaxPDFLabels = 50

// PDFOptions fix what would otherwise vary between renderings.
type PDFOptions struct {
	// CreationDate is written in the document's information dictionary;
	// zero leaves it out. Callers pass the booking's time, so that the
	// same label always has the same bytes (and ETag).
	CreationDate time.Time
}

const (
	fontRegular = "regular"
	fontBold    = "bold"
	producer    = "Partner Marketplace labels"
)

// parsedFonts parses the two fonts once per process: each document copies
// the parsed tables and keeps its own glyph subset, so documents rendered at
// the same time share nothing they write.
var parsedFonts = sync.OnceValues(func() (*gopdf.FontContainer, error) {
	fonts := &gopdf.FontContainer{}
	if err := fonts.AddTTFFontData(fontRegular, goregular.TTF); err != nil {
		return nil, err
	}
	if err := fonts.AddTTFFontData(fontBold, gobold.TTF); err != nil {
		return nil, err
	}
	return fonts, nil
})

// RenderPDF writes one PDF with a page per label, in order. The fonts are the
// Go fonts (BSD licence), which cover Latin-1 and so Filipino place names
// such as "Las Piñas"; they are embedded as subsets.
func RenderPDF(w io.Writer, size Size, labels []Label, opts PDFOptions) error {
	if len(labels) == 0 || len(labels) > MaxPDFLabels {
		return fmt.Errorf("%w: %d labels, want 1 to %d", ErrInvalid, len(labels), MaxPDFLabels)
	}
	pw, ph, err := size.points()
	if err != nil {
		return err
	}
	codes := make([]symbols, len(labels))
	for i, l := range labels {
		if err := l.validate(); err != nil {
			return fmt.Errorf("label %d: %w", i+1, err)
		}
		if codes[i], err = encodeSymbols(l.TrackingNumber); err != nil {
			return fmt.Errorf("label %d: %w", i+1, err)
		}
	}

	doc := &gopdf.GoPdf{}
	doc.Start(gopdf.Config{Unit: gopdf.UnitPT, PageSize: gopdf.Rect{W: pw, H: ph}})
	// Fastest deflate for the page content: labels are mostly rectangles and
	// short lines, and level 6 costs more time than it saves bytes.
	doc.SetCompressLevel(zlib.BestSpeed)
	doc.SetInfo(gopdf.PdfInfo{Title: "Shipping label", Producer: producer, CreationDate: opts.CreationDate})
	fonts, err := parsedFonts()
	if err != nil {
		return fmt.Errorf("label: font: %w", err)
	}
	for _, family := range []string{fontRegular, fontBold} {
		if err := doc.AddTTFFontFromFontContainer(family, fonts); err != nil {
			return fmt.Errorf("label: font: %w", err)
		}
	}
	for i, l := range labels {
		doc.AddPage()
		p := page{doc: doc, w: pw, h: ph}
		if err := p.draw(l, codes[i]); err != nil {
			return fmt.Errorf("label %d: %w", i+1, err)
		}
	}
	if _, err := doc.WriteTo(w); err != nil {
		return fmt.Errorf("label: write: %w", err)
	}
	return nil
}
