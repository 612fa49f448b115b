package label

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/oned"
	"github.com/makiuchi-d/gozxing/qrcode"
)

// poppler finds one of poppler-utils' programs. Without it the test fails
// under CI=true (tools/scripts/poppler.sh, run by .ci/run, installs it) and
// skips elsewhere.
func poppler(t *testing.T, tool string) string {
	t.Helper()
	if p, err := exec.LookPath(tool); err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is missing: run tools/scripts/poppler.sh (apt-get install poppler-utils)", tool)
	}
	t.Skipf("%s is missing (tools/scripts/poppler.sh installs it); CI=true makes this a failure", tool)
	return ""
}

// run runs a poppler program with a deadline, so a wedged tool fails the test
// instead of hanging the suite.
func run(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, poppler(t, name), args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v: %s", name, err, stderr.String())
	}
	return out
}

func writePDF(t *testing.T, size Size, labels ...Label) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "label.pdf")
	if err := os.WriteFile(path, renderPDF(t, size, labels...), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPDFTextIsUTF8 extracts the text a reader (or a screen reader, or a
// search) gets back: the ñ of Philippine place names must survive, not turn
// into "?" or mojibake.
func TestPDFTextIsUTF8(t *testing.T) {
	for _, size := range []Size{A6, Size4x6} {
		text := string(run(t, "pdftotext", "-layout", "-enc", "UTF-8", writePDF(t, size, sample()), "-"))
		for _, want := range []string{
			"Juan dela Cruz Peñaflor", "City of Las Piñas", "City of Dasmariñas, Cavite", "12 Dasmariñas Street",
			"MPX2611260001PH", "NCR-LPS-03", "ord_01JD4M7Q8Y2F9K3N5P6R7S8T9V", "2026-11-28",
			"COD PHP 1,234.50", "1/1", "Marketplace Logistics",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: %q is not in the extracted text:\n%s", size, want, text)
			}
		}
	}
}

func TestPDFHasAPagePerLabel(t *testing.T) {
	labels := make([]Label, 3)
	for i := range labels {
		labels[i] = sample()
		labels[i].Piece, labels[i].Pieces = i+1, 3
	}
	info := string(run(t, "pdfinfo", writePDF(t, A6, labels...)))
	if !regexp.MustCompile(`(?m)^Pages:\s+3$`).MatchString(info) {
		t.Errorf("want 3 pages:\n%s", info)
	}
	// A6 is 297.64 × 419.53 points.
	if !regexp.MustCompile(`(?m)^Page size:\s+297.64 x 419.53 pts`).MatchString(info) {
		t.Errorf("want an A6 page:\n%s", info)
	}
}

// TestBarcodesDecodeBack prints the label as a 203 dpi thermal printer would
// (pdftoppm, monochrome) and reads both symbols back with a ZXing decoder:
// the Code128 and the QR code must both carry the tracking number.
func TestBarcodesDecodeBack(t *testing.T) {
	long := sample()
	long.TrackingNumber = "MPX-" + strings.Repeat("7", maxTrackingNumber-4)
	for _, c := range []struct {
		size Size
		l    Label
	}{{A6, sample()}, {Size4x6, sample()}, {Size4x6, long}} {
		img := rasterise(t, writePDF(t, c.size, c.l))
		hints := map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true}
		for name, reader := range map[string]gozxing.Reader{
			"Code128": oned.NewCode128Reader(),
			"QR":      qrcode.NewQRCodeReader(),
		} {
			bmp, err := gozxing.NewBinaryBitmapFromImage(img)
			if err != nil {
				t.Fatal(err)
			}
			res, err := reader.Decode(bmp, hints)
			if err != nil {
				t.Errorf("%s %s: %v", c.size, name, err)
				continue
			}
			if res.GetText() != c.l.TrackingNumber {
				t.Errorf("%s %s decoded %q, want %q", c.size, name, res.GetText(), c.l.TrackingNumber)
			}
		}
	}
}

func rasterise(t *testing.T, pdf string) image.Image {
	t.Helper()
	out := filepath.Join(t.TempDir(), "page")
	run(t, "pdftoppm", "-r", "203", "-mono", "-png", "-singlefile", pdf, out)
	f, err := os.Open(out + ".png")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// TestPDFLongTextStaysInItsColumn: free text is cut with an ellipsis at its
// column's edge, while the identifiers (route code, order id) shrink and stay
// whole.
func TestPDFLongTextStaysInItsColumn(t *testing.T) {
	l := sample()
	l.Sender.Line1 = strings.Repeat("Barangay San Antonio de Padua ", 4)
	l.RouteCode = "NCR-LPS-03-SORT-12"
	l.OrderID = "ord_01JD4M7Q8Y2F9K3N5P6R7S8T9V-RETRY-000000000001"
	text := string(run(t, "pdftotext", "-enc", "UTF-8", writePDF(t, Size4x6, l), "-"))
	if strings.Contains(text, strings.TrimSpace(l.Sender.Line1)) || !strings.Contains(text, "Barangay San Antonio de Padua Barangay") ||
		!strings.Contains(text, "…") {
		t.Errorf("the long sender line is not cut with an ellipsis:\n%s", text)
	}
	for _, whole := range []string{l.RouteCode, l.OrderID} {
		if !strings.Contains(text, whole) {
			t.Errorf("%q must be printed whole:\n%s", whole, text)
		}
	}
}
