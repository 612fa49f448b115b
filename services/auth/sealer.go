package auth

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
)

// sealVersion prefixes every ciphertext so the key can be rotated later
// without guessing which key sealed a row.
const sealVersion byte = 1

// Sealer encrypts app secrets at rest with AES-256-GCM. HMAC verification
// needs the secret itself, so it cannot be hashed; the key comes from config
// and never from the database.
type Sealer struct {
	aead cipher.AEAD
	// macRoot derives the keys of MACKey, never the sealing key itself.
	macRoot []byte
}

// NewSealer builds a sealer from a base64 (standard or URL, padded or not)
// encoded 32-byte key.
func NewSealer(keyBase64 string) (*Sealer, error) {
	key, err := decodeKey(keyBase64)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("auth: secret key: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("auth: secret key: %w", err)
	}
	root := hmac.New(sha256.New, key)
	root.Write([]byte("mp-mac-root-v1"))
	return &Sealer{aead: aead, macRoot: root.Sum(nil)}, nil
}

// MACKey derives a 32-byte key for one purpose (one-time codes, say) from
// the platform's secret key: a copy of the database without the key cannot
// check guesses against what was stored under it.
func (s *Sealer) MACKey(purpose string) []byte {
	m := hmac.New(sha256.New, s.macRoot)
	m.Write([]byte(purpose))
	return m.Sum(nil)
}

func decodeKey(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if key, err := enc.DecodeString(s); err == nil && len(key) == 32 {
			return key, nil
		}
	}
	return nil, errors.New("auth: the secret encryption key must be 32 bytes, base64-encoded")
}

// NewKey returns a fresh random key in the form NewSealer takes.
func NewKey() string {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		panic(err)
	}
	return base64.StdEncoding.EncodeToString(key)
}

// Seal encrypts plaintext; aad binds the ciphertext to its row (the app id)
// so a ciphertext copied onto another app does not decrypt.
func (s *Sealer) Seal(plaintext, aad []byte) ([]byte, error) {
	nonce := make([]byte, s.aead.NonceSize(), 1+s.aead.NonceSize()+len(plaintext)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	out := append([]byte{sealVersion}, nonce...)
	return s.aead.Seal(out, nonce, plaintext, aad), nil
}

// Open decrypts what Seal produced.
func (s *Sealer) Open(ciphertext, aad []byte) ([]byte, error) {
	n := s.aead.NonceSize()
	if len(ciphertext) < 1+n || ciphertext[0] != sealVersion {
		return nil, errors.New("auth: sealed secret has an unknown format")
	}
	return s.aead.Open(nil, ciphertext[1:1+n], ciphertext[1+n:], aad)
}
