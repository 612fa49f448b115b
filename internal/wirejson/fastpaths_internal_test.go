package wirejson

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// referenceString is appendString without its eight-byte runs: one byte
// or rune at a time.
func referenceString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// TestAppendStringMatchesReference writes strings built from every byte
// class the word test tells apart (each boundary of 0x20, '"', '\\', 0x7f
// and 0x80, multi-byte and invalid UTF-8, U+2028) at every offset of an
// eight-byte word, and random bytes.
func TestAppendStringMatchesReference(t *testing.T) {
	pieces := []string{"a", "Z", " ", "~", "\x7f", "\x1f", "\x00", "\n", "\t", "\"", "\\", "!", "#", "[", "]",
		"\x21", "\x23", "\x5b", "\x5d", "é", "Piñas", "\u2028", "\u2029", "\xff", "\x80", "\xe2\x80", "😀", "0123456789"}
	check := func(s string) {
		t.Helper()
		if got, want := string(appendString(nil, s)), string(referenceString(nil, s)); got != want {
			t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
		}
	}
	for _, p := range pieces {
		for pad := 0; pad <= 16; pad++ {
			check(strings.Repeat("x", pad) + p + strings.Repeat("y", 16-pad))
			check(strings.Repeat("x", pad) + p)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		n := rng.IntN(40)
		var sb strings.Builder
		for range n {
			if rng.IntN(4) == 0 {
				sb.WriteString(pieces[rng.IntN(len(pieces))])
			} else {
				sb.WriteByte(byte(rng.IntN(256)))
			}
		}
		check(sb.String())
	}
}

// TestAppendInstantMatchesTimeFormat compares the digit-by-digit
// timestamps with time.AppendFormat at the range's ends, around leap days
// and across centuries, and at random instants in and out of the range.
func TestAppendInstantMatchesTimeFormat(t *testing.T) {
	check := func(secs, nanos int64) {
		t.Helper()
		want := `"` + time.Unix(secs, nanos).UTC().Format(TimeLayout) + `"`
		if got := string(appendInstant(nil, secs, nanos)); got != want {
			t.Fatalf("appendInstant(%d, %d) = %s, want %s", secs, nanos, got, want)
		}
	}
	edges := []int64{minInstant, minInstant - 1, maxInstant, maxInstant + 1, 0, -1, 1, 86399, 86400, -86400, -86401}
	for _, y := range []int{1, 4, 99, 100, 400, 1600, 1899, 1900, 1969, 1970, 2000, 2024, 2026, 2100, 2400, 9999} {
		for _, md := range [][2]int{{1, 1}, {2, 28}, {2, 29}, {3, 1}, {12, 31}} {
			tm := time.Date(y, time.Month(md[0]), md[1], 23, 59, 59, 0, time.UTC)
			edges = append(edges, tm.Unix(), tm.Unix()+1)
		}
	}
	for _, s := range edges {
		for _, n := range []int64{0, 1, 999_999, 1_000_000, 123_456_789, 999_999_999, -1, 1_000_000_000} {
			check(s, n)
		}
	}
	manila := time.FixedZone("PHT", 8*3600)
	if got, want := string(AppendTime(nil, time.Date(2026, 11, 28, 7, 30, 0, 123_999_999, manila))), `"2026-11-27T23:30:00.123Z"`; got != want {
		t.Fatalf("AppendTime = %s, want %s", got, want)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		check(minInstant-1000+rng.Int64N(maxInstant-minInstant+2000), rng.Int64N(1_000_000_000))
	}
}
