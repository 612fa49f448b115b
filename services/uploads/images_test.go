package uploads

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"testing"
)

// Test images: real files made by the standard encoders (and a WebP from
// golang.org/x/image's test data), and crafted headers that declare what
// a test needs without carrying the pixels.

func pngFile(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		img.Set(x, x%h, color.NRGBA{R: uint8(x), G: 80, B: 200, A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegFile(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		img.Set(x, x%h, color.RGBA{R: 200, G: uint8(x), B: 10, A: 255})
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// webpFile is a 150 x 100 lossy WebP.
func webpFile(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/blue-purple-pink.lossy.webp")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pngHeader is a PNG signature and an IHDR chunk (with its CRC) declaring
// w x h, then IEND: a few dozen bytes that a decoder would have to
// allocate w*h*4 bytes for.
func pngHeader(w, h uint32) []byte {
	chunk := func(kind string, data []byte) []byte {
		var c []byte
		c = binary.BigEndian.AppendUint32(c, uint32(len(data)))
		body := append([]byte(kind), data...)
		c = append(c, body...)
		return binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(body))
	}
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 6, 0, 0, 0) // 8-bit RGBA, deflate, no filter method, no interlace
	out := []byte("\x89PNG\r\n\x1a\n")
	out = append(out, chunk("IHDR", ihdr)...)
	return append(out, chunk("IEND", nil)...)
}

// jpegHeader is SOI, a baseline SOF0 declaring w x h (one component) and
// the start of a scan, where a header reader stops.
func jpegHeader(w, h uint16) []byte {
	out := []byte{0xff, 0xd8, 0xff, 0xc0, 0x00, 0x0b, 8}
	out = binary.BigEndian.AppendUint16(out, h)
	out = binary.BigEndian.AppendUint16(out, w)
	return append(out, 1, 1, 0x11, 0, 0xff, 0xda, 0x00, 0x08)
}

// webpHeader is a lossless (VP8L) WebP header declaring w x h.
func webpHeader(w, h uint32) []byte {
	bits := (w - 1) | (h-1)<<14
	vp8l := []byte{0x2f}
	vp8l = binary.LittleEndian.AppendUint32(vp8l, bits)
	out := []byte("RIFF")
	out = binary.LittleEndian.AppendUint32(out, uint32(4+8+len(vp8l)))
	out = append(out, "WEBPVP8L"...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(vp8l)))
	return append(out, vp8l...)
}
