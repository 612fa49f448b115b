package label

import (
	"fmt"
	"image"

	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/code128"
	"github.com/boombuler/barcode/qr"
)

// quietModules is the blank margin either side of the Code128 symbol, in
// modules: the symbology asks for ten.
const quietModules = 10

// qrQuietModules is the QR code's blank border, in modules.
const qrQuietModules = 4

// symbols are a label's two codes, both of the tracking number, as module
// grids; the PDF draws them as vector rectangles (sharp at any printer
// resolution) and ZPL lets the printer draw its own.
type symbols struct {
	bars   []bool // Code128 modules, true for a bar
	qr     [][]bool
	qrSide int
}

func encodeSymbols(tracking string) (symbols, error) {
	bars, err := code128Modules(tracking)
	if err != nil {
		return symbols{}, err
	}
	// Medium error correction: a label gets scuffed, and the payload is short.
	q, err := qr.Encode(tracking, qr.M, qr.Auto)
	if err != nil {
		return symbols{}, fmt.Errorf("%w: tracking number: %v", ErrInvalid, err)
	}
	s := symbols{bars: bars}
	b := q.Bounds()
	s.qrSide = b.Dx()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		s.qr = append(s.qr, row(q, b, y))
	}
	return s, nil
}

// code128Modules is the Code128 symbol of the tracking number, one entry per
// module.
func code128Modules(tracking string) ([]bool, error) {
	c, err := code128.Encode(tracking)
	if err != nil {
		return nil, fmt.Errorf("%w: tracking number: %v", ErrInvalid, err)
	}
	return row(c, c.Bounds(), 0), nil
}

func row(bc barcode.Barcode, b image.Rectangle, y int) []bool {
	out := make([]bool, 0, b.Dx())
	for x := b.Min.X; x < b.Max.X; x++ {
		r, _, _, _ := bc.At(x, y).RGBA()
		out = append(out, r == 0)
	}
	return out
}

// runs yields each stretch of set modules as (start, length), so a bar or a
// row of QR modules is one rectangle, not one per module.
func runs(modules []bool, yield func(start, length int)) {
	for i := 0; i < len(modules); {
		if !modules[i] {
			i++
			continue
		}
		j := i
		for j < len(modules) && modules[j] {
			j++
		}
		yield(i, j-i)
		i = j
	}
}
