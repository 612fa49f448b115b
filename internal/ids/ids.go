// Package ids makes the platform's resource identifiers: a short type prefix
// and a time-ordered random part, so ids sort roughly by creation and never
// reveal a counter.
package ids

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/binary"
	mrand "math/rand/v2"
	"time"
)

// Crockford-style lowercase alphabet without padding: ids stay URL-safe and
// unambiguous when read aloud to support.
var encoding = base32.NewEncoding("0123456789abcdefghjkmnpqrstvwxyz").WithPadding(base32.NoPadding)

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
	return "req_" + encoding.EncodeToString(b[:])
}

// Token returns n random bytes encoded the same way, for secrets and tokens.
func Token(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("ids: no randomness: " + err.Error())
	}
	return encoding.EncodeToString(b)
}
