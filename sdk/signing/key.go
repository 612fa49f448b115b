package signing

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"sync"
)

// Key is a client secret prepared for repeated signing and verification.
// It pools HMAC states initialised with this one secret: an HMAC state holds
// the keyed inner and outer pads, so a pool shared between secrets could hand
// a request another app's key. Keeping the pool inside the Key makes reuse
// safe. The gateway caches one Key per app secret; a Key is safe for
// concurrent use and must not be copied.
type Key struct {
	macs sync.Pool
}

// NewKey prepares secret (the client secret's UTF-8 bytes). The secret is
// copied, so the caller may reuse its slice.
func NewKey(secret []byte) *Key {
	s := bytes.Clone(secret)
	if s == nil {
		s = []byte{}
	}
	k := &Key{}
	k.macs.New = func() any { return hmac.New(sha256.New, s) }
	return k
}

// sum computes HMAC-SHA256(msg) into s.sum and returns it.
func (k *Key) sum(s *scratch, msg []byte) []byte {
	m := k.macs.Get().(hash.Hash)
	// Reset restores the precomputed pad states (crypto/hmac saves them on the
	// first Reset), so a reused state costs no key schedule.
	m.Reset()
	m.Write(msg)
	s.sum = m.Sum(s.sum[:0])
	k.macs.Put(m)
	return s.sum
}

// Sign returns the lowercase hex HMAC-SHA256 of stringToSign.
func (k *Key) Sign(stringToSign string) string {
	s := getScratch()
	defer putScratch(s)
	s.buf = append(s.buf[:0], stringToSign...)
	return encodeSum(k.sum(s, s.buf))
}

// Verify reports whether signature is the lowercase hex HMAC-SHA256 of
// stringToSign. Anything but 64 lowercase hex characters is false. The
// comparison is constant-time over the raw 32 bytes.
func (k *Key) Verify(stringToSign, signature string) bool {
	var want [sha256.Size]byte
	if !decodeSignature(&want, signature) {
		return false
	}
	s := getScratch()
	defer putScratch(s)
	s.buf = append(s.buf[:0], stringToSign...)
	return hmac.Equal(k.sum(s, s.buf), want[:])
}

// SignRequest returns the signature of r. The only error is ErrInvalidEscape
// from the query.
func (k *Key) SignRequest(r *Request) (string, error) {
	s := getScratch()
	defer putScratch(s)
	b, err := r.appendStringToSign(s.buf[:0], &s.q)
	s.buf = b
	if err != nil {
		return "", err
	}
	return encodeSum(k.sum(s, b)), nil
}

// encodeSum hex-encodes a digest through a fixed array, so the string is the
// only allocation.
func encodeSum(sum []byte) string {
	var out [SignatureLen]byte
	hex.Encode(out[:], sum)
	return string(out[:])
}

// VerifyRequest checks signature against r under each key in turn (during a
// secret rotation both the old and the new secret verify) and returns the key
// that matched, or nil. The error is ErrInvalidEscape when the query has no
// canonical form; it is reported whatever the signature, so a malformed query
// is always a 400 and never depends on the secret. VerifyRequest does not
// allocate.
func VerifyRequest(r *Request, signature string, keys ...*Key) (*Key, error) {
	s := getScratch()
	defer putScratch(s)
	b, err := r.appendStringToSign(s.buf[:0], &s.q)
	s.buf = b
	if err != nil {
		return nil, err
	}
	var want [sha256.Size]byte
	if !decodeSignature(&want, signature) {
		return nil, nil
	}
	for _, k := range keys {
		if k != nil && hmac.Equal(k.sum(s, b), want[:]) {
			return k, nil
		}
	}
	return nil, nil
}

// VerifyRequest reports whether signature matches r under k alone; see the
// package-level VerifyRequest for the rules.
func (k *Key) VerifyRequest(r *Request, signature string) (bool, error) {
	m, err := VerifyRequest(r, signature, k)
	return m != nil, err
}

// Sign returns the lowercase hex HMAC-SHA256 of stringToSign keyed by secret.
func Sign(secret []byte, stringToSign string) string {
	return NewKey(secret).Sign(stringToSign)
}

// Verify reports whether signature is the lowercase hex HMAC-SHA256 of
// stringToSign keyed by secret, under the rules of Key.Verify.
func Verify(secret []byte, stringToSign, signature string) bool {
	return NewKey(secret).Verify(stringToSign, signature)
}

// decodeSignature accepts exactly 64 lowercase hex characters.
func decodeSignature(dst *[sha256.Size]byte, s string) bool {
	if len(s) != SignatureLen {
		return false
	}
	var acc byte
	for i := range dst {
		hi, lo := lowerHexVal[s[2*i]], lowerHexVal[s[2*i+1]]
		acc |= hi | lo
		dst[i] = hi<<4 | lo
	}
	return acc&badHex == 0
}
