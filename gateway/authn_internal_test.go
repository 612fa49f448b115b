package gateway

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/sdk/signing"
)

// TestSandboxMismatchMessageBounds feeds the message builder paths and
// queries of every length up to past the bound, with and without bytes
// outside printable ASCII (an escape may land on the cut), and checks the
// bound, the alphabet and the ends that must survive a cut.
func TestSandboxMismatchMessageBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	nonce := strings.Repeat("ab", 32)
	hash := signing.BodySHA256([]byte("x"))
	for n := 0; n < 3000; n += 1 + n/50 {
		for _, odd := range []bool{false, true} {
			path := make([]byte, n)
			escapes := false
			for i := range path {
				path[i] = 'a' + byte(rng.IntN(26))
				if odd && rng.IntN(3) == 0 {
					path[i] = byte(0x80 + rng.IntN(128))
					escapes = true
				}
			}
			sts := "1764000000:test_m9s346q3d25vt4f5v37e3s3e:GET:/" + string(path) + ":a=1:" + hash + ":" + nonce
			msg := sandboxMismatchMessage(sts, 1)
			if len(msg) > apierr.MaxMessageBytes {
				t.Fatalf("n=%d odd=%v: %d bytes", n, odd, len(msg))
			}
			if !utf8.ValidString(msg) || strings.ContainsFunc(strings.ReplaceAll(msg, "…", ""), func(r rune) bool { return r < 0x20 || r > 0x7e }) {
				t.Fatalf("n=%d odd=%v: a byte outside printable ASCII: %q", n, odd, msg)
			}
			if !strings.HasPrefix(msg, mismatchHead+"1764000000:test_m9s346q3d25vt4f5v37e3s3e:GET:/") ||
				!strings.Contains(msg, ":"+hash+":"+nonce+"] (fields") {
				t.Fatalf("n=%d odd=%v: lost an end: %s", n, odd, msg)
			}
			if cut := strings.Contains(msg, mismatchCut); cut != strings.Contains(msg, "…:"+hash) {
				t.Fatalf("n=%d odd=%v: cut note %v disagrees with the echo: %s", n, odd, cut, msg)
			}
			// An escape in the echo is whole: every backslash starts \xNN.
			echo, _, _ := strings.Cut(strings.TrimPrefix(msg, mismatchHead), "] (fields")
			for i := strings.IndexByte(echo, '\\'); i >= 0; i = next(echo, i) {
				if i+4 > len(echo) || echo[i+1] != 'x' || !isHex(echo[i+2]) || !isHex(echo[i+3]) {
					t.Fatalf("n=%d: a broken escape at %d: %q", n, i, echo[max(i-10, 0):min(i+10, len(echo))])
				}
			}
			if escapes != strings.Contains(msg, mismatchEscaped) {
				t.Fatalf("n=%d: escapes without the note: %s", n, msg)
			}
		}
	}
}

func next(s string, i int) int {
	j := strings.IndexByte(s[i+1:], '\\')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }
