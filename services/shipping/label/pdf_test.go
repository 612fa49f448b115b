package label

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

func renderPDF(t testing.TB, size Size, labels ...Label) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := RenderPDF(&b, size, labels, PDFOptions{CreationDate: fixedTime}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestGoldenPDF pins the bytes: the same label and creation date give the
// same document, which is what lets the label route's ETag be a hash of it.
// After an intended change of layout or library, rerun with -update and look
// at the new files (pdftoppm -png) before committing them.
func TestGoldenPDF(t *testing.T) {
	noCOD := sample()
	noCOD.CODAmount, noCOD.ShipBy = 0, nil
	noCOD.Piece, noCOD.Pieces = 2, 3
	for _, c := range []struct {
		file   string
		size   Size
		labels []Label
	}{
		{"a6.pdf", A6, []Label{sample()}},
		{"4x6.pdf", Size4x6, []Label{sample()}},
		{"a6-two-pages.pdf", A6, []Label{sample(), noCOD}},
	} {
		t.Run(c.file, func(t *testing.T) {
			got := renderPDF(t, c.size, c.labels...)
			if again := renderPDF(t, c.size, c.labels...); !bytes.Equal(got, again) {
				t.Fatal("two renderings of the same labels differ")
			}
			path := filepath.Join("testdata", c.file)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test -run TestGoldenPDF -update writes it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the rendering (%d bytes, golden %d); rerun with -update if intended", path, len(got), len(want))
			}
		})
	}
}

// TestPDFConcurrentRenderings renders different labels at once: the fonts
// are parsed once and shared, and each document must still embed only its
// own glyphs (run under -race, as make test does).
func TestPDFConcurrentRenderings(t *testing.T) {
	want := renderPDF(t, A6, sample())
	other := sample()
	other.Recipient.Name = "Ÿvonne Ægir Øst Çelik" // glyphs the sample does not use
	wantOther := renderPDF(t, A6, other)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			l, w := sample(), want
			if i%2 == 1 {
				l, w = other, wantOther
			}
			var b bytes.Buffer
			if err := RenderPDF(&b, A6, []Label{l}, PDFOptions{CreationDate: fixedTime}); err != nil {
				t.Error(err)
				return
			}
			if !bytes.Equal(b.Bytes(), w) {
				t.Errorf("rendering %d differs from the same label rendered alone", i)
			}
		})
	}
	wg.Wait()
}

func TestPDFCreationDateIsTheOption(t *testing.T) {
	doc := string(renderPDF(t, A6, sample()))
	if !strings.Contains(doc, "/CreationDate(D:20261126093000") {
		t.Errorf("creation date is not the fixed option's")
	}
	var b bytes.Buffer
	if err := RenderPDF(&b, A6, []Label{sample()}, PDFOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "/CreationDate") {
		t.Errorf("a zero creation date must leave the entry out rather than write the wall clock")
	}
}

func TestPDFRefusals(t *testing.T) {
	bad := sample()
	bad.TrackingNumber = "no spaces"
	many := make([]Label, MaxPDFLabels+1)
	for i := range many {
		many[i] = sample()
	}
	for name, c := range map[string]struct {
		size   Size
		labels []Label
	}{
		"no label":           {A6, nil},
		"over the limit":     {A6, many},
		"unknown size":       {"letter", []Label{sample()}},
		"bad label in a run": {A6, []Label{sample(), bad}},
	} {
		err := RenderPDF(&bytes.Buffer{}, c.size, c.labels, PDFOptions{})
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", name, err)
		}
	}
	err := RenderPDF(&bytes.Buffer{}, A6, []Label{sample(), bad}, PDFOptions{})
	if err == nil || !strings.Contains(err.Error(), "label 2") {
		t.Errorf("the refusal must name the label: %v", err)
	}
}

func TestParseSize(t *testing.T) {
	for _, s := range []string{"A6", "4x6"} {
		if got, err := ParseSize(s); err != nil || string(got) != s {
			t.Errorf("ParseSize(%q) = %q, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "a6", "4X6", "A4"} {
		if _, err := ParseSize(s); !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseSize(%q) accepted", s)
		}
	}
}
