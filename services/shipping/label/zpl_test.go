package label

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"
)

func renderZPL(t *testing.T, size Size, l Label) string {
	t.Helper()
	var b bytes.Buffer
	if err := RenderZPL(&b, size, l); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestZPLStructure(t *testing.T) {
	doc := renderZPL(t, A6, sample())
	lines := strings.Split(strings.TrimSuffix(doc, "\n"), "\n")
	if lines[0] != "^XA" || lines[len(lines)-1] != "^XZ" {
		t.Fatalf("document is not one ^XA … ^XZ format: first %q, last %q", lines[0], lines[len(lines)-1])
	}
	if strings.Count(doc, "^XA") != 1 || strings.Count(doc, "^XZ") != 1 {
		t.Fatalf("want exactly one label format:\n%s", doc)
	}
	if lines[1] != "^CI28" {
		t.Errorf("UTF-8 (^CI28) must come before any field, got %q", lines[1])
	}
	// A6 at 203 dpi: 105 × 148 mm is 840 × 1184 dots.
	if !strings.Contains(doc, "^PW840^LL1184") {
		t.Errorf("A6 page size missing:\n%s", doc)
	}
	for name, re := range map[string]string{
		"Code128 of the tracking number": `\^BY[1-3]\^BCN,160,N,N,N,A\^FDMPX2611260001PH\^FS`,
		"QR of the tracking number":      `\^BQN,2,6\^FDMA,MPX2611260001PH\^FS`,
		"recipient city, UTF-8":          `\^FDCity of Las Piñas\^FS`,
		"route code":                     `\^FDNCR-LPS-03\^FS`,
		"order id":                       `\^FDord_5F01JD4M7Q8Y2F9K3N5P6R7S8T9V\^FS`,
		"ship-by as a Manila date":       `\^FD2026-11-28\^FS`,
		"COD":                            `\^FDCOD PHP 1,234.50\^FS`,
		"piece count":                    `\^FD1/1\^FS`,
	} {
		if !regexp.MustCompile(re).MatchString(doc) {
			t.Errorf("%s: no match for %s in\n%s", name, re, doc)
		}
	}
	// Every field opened is closed, on its own line.
	for _, line := range lines[2 : len(lines)-1] {
		if strings.Contains(line, "^FD") && !strings.HasSuffix(line, "^FS") {
			t.Errorf("field not closed on its line: %q", line)
		}
	}
}

func TestZPL4x6AndNoCOD(t *testing.T) {
	l := sample()
	l.CODAmount = 0
	l.ShipBy = nil
	doc := renderZPL(t, Size4x6, l)
	if !strings.Contains(doc, "^PW813^LL1219") {
		t.Errorf("4x6 at 203 dpi is 813 × 1219 dots:\n%s", doc)
	}
	if strings.Contains(doc, "COD") || strings.Contains(doc, "SHIP BY") || strings.Contains(doc, "2026-11-28") {
		t.Errorf("no COD amount or ship-by date was given, yet one is printed:\n%s", doc)
	}
}

func TestZPLEscapesCommandCharacters(t *testing.T) {
	l := sample()
	l.Recipient.Name = "A^XZ~JR_b\nc"
	doc := renderZPL(t, A6, l)
	if !strings.Contains(doc, "^FH^FDA_5EXZ_7EJR_5Fbc^FS") {
		t.Errorf("caret, tilde and underscore must travel as ^FH hex, newlines dropped:\n%s", doc)
	}
	if strings.Count(doc, "^XZ") != 1 {
		t.Errorf("a name ended the label early:\n%s", doc)
	}
}

func TestZPLCutsLinesBesideTheQRCode(t *testing.T) {
	l := sample()
	l.Sender.Line1 = strings.Repeat("Barangay San Antonio de Padua ", 4)
	doc := renderZPL(t, A6, l)
	m := regexp.MustCompile(`\^FD(Barangay San Antonio[^^]*)\^FS`).FindStringSubmatch(doc)
	if m == nil || !strings.HasSuffix(m[1], "...") || len(m[1]) >= len(l.Sender.Line1) {
		t.Errorf("a long sender line must be cut before the QR code, got %v", m)
	}
	if !strings.Contains(doc, "^FDord_5F01JD4M7Q8Y2F9K3N5P6R7S8T9V^FS") {
		t.Errorf("the order id is never cut")
	}
}

func TestZPLLongTrackingNumberFits(t *testing.T) {
	l := sample()
	l.TrackingNumber = strings.Repeat("AB", maxTrackingNumber/2)
	doc := renderZPL(t, Size4x6, l)
	m := regexp.MustCompile(`\^FO(\d+),\d+\^BY(\d)\^BC`).FindStringSubmatch(doc)
	if m == nil || m[1] == "0" || m[2] != "1" && m[2] != "2" {
		t.Errorf("a 30-character number needs narrower modules, got %v", m)
	}
}

func TestZPLRefusesInvalidLabels(t *testing.T) {
	for name, mutate := range map[string]func(*Label){
		"no tracking number":    func(l *Label) { l.TrackingNumber = "" },
		"space in the number":   func(l *Label) { l.TrackingNumber = "MPX 1" },
		"non-ASCII number":      func(l *Label) { l.TrackingNumber = "MPXñ1" },
		"negative COD":          func(l *Label) { l.CODAmount = -1 },
		"piece beyond pieces":   func(l *Label) { l.Piece, l.Pieces = 3, 2 },
		"invalid UTF-8 in name": func(l *Label) { l.Sender.Name = "\xff" },
	} {
		l := sample()
		mutate(&l)
		if err := RenderZPL(&bytes.Buffer{}, A6, l); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", name, err)
		}
	}
	if err := RenderZPL(&bytes.Buffer{}, "A5", sample()); !errors.Is(err, ErrInvalid) {
		t.Errorf("unknown size: got %v, want ErrInvalid", err)
	}
}
