// Package ids makes the platform's resource identifiers: a short type prefix
// and a time-ordered random part, so ids sort roughly by creation and never
// reveal a counter.
package ids

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/binary"
	mrand "math/rand/v2"
	"strings"
	"time"
)

// Crockford-style lowercase alphabet without padding: ids stay URL-safe and
// unambiguous when read aloud to support.
var encoding = base32.NewEncoding(alphabet).WithPadding(base32.NoPadding)

const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// New returns prefix + "_" + 26 characters: 48 bits of milliseconds since the
// Unix epoch followed by 80 random bits.
func New(prefix string) string {
	return prefix + "_" + encodeAt(time.Now())
}

// NewAt is New with an explicit creation time (seeding and tests).
func NewAt(prefix string, t time.Time) string {
	return prefix + "_" + encodeAt(t)
}

func encodeAt(t time.Time) string {
	var b [16]byte
	var ms [8]byte
	binary.BigEndian.PutUint64(ms[:], uint64(t.UnixMilli()))
	copy(b[:6], ms[2:])
	if _, err := rand.Read(b[6:]); err != nil {
		panic("ids: no randomness: " + err.Error())
	}
	return encoding.EncodeToString(b[:])
}

// NewRequestID returns a request id: unique enough to find a request in the
// logs, made on every request, so it draws from the fast (non-cryptographic)
// generator rather than the kernel's.
func NewRequestID() string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(time.Now().UnixNano()))
	binary.BigEndian.PutUint64(b[8:], mrand.Uint64())
	var out [4 + 26]byte // "req_" and 16 bytes in base32 without padding
	copy(out[:], "req_")
	encoding.Encode(out[4:], b[:])
	return string(out[:4+encoding.EncodedLen(len(b))])
}

// Token returns n random bytes encoded the same way, for secrets and tokens.
func Token(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("ids: no randomness: " + err.Error())
	}
	return encoding.EncodeToString(b)
}

// idLen is the length of the part after the prefix: 128 bits in base32.
const idLen = 26

// Valid reports whether s is an id New(prefix) could have made: the
// prefix, "_" and 26 characters of the alphabet. Anything else names no
// resource, so callers answer NOT_FOUND without a query (ids holding
// NUL or invalid UTF-8 once reached PostgreSQL and answered 500).
func Valid(prefix, s string) bool {
	rest, ok := strings.CutPrefix(s, prefix+"_")
	if !ok || len(rest) != idLen {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if strings.IndexByte(alphabet, rest[i]) < 0 {
			return false
		}
	}
	return true
}

// maxPlausibleLen bounds Plausible ids; New's are 26 characters after the
// prefix.
const maxPlausibleLen = 64

// Plausible reports whether s has the outline of an id with this prefix:
// the prefix, "_" and 1 to 64 lowercase ASCII letters, digits or
// underscores. It is the check for resources whose ids this package did not
// necessarily make (orders are written by the seeds and by fixtures with
// readable ids such as ord_rts_late): it refuses whatever no id has (other
// prefixes, upper case, punctuation, NUL, invalid UTF-8) without insisting
// on New's exact layout.
func Plausible(prefix, s string) bool {
	rest, ok := strings.CutPrefix(s, prefix+"_")
	if !ok || len(rest) == 0 || len(rest) > maxPlausibleLen {
		return false
	}
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}
