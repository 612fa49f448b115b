// Package webhook signs and verifies the platform's webhook deliveries, the
// Standard Webhooks way: the platform signs with it, and a partner's Go
// receiver verifies with it (Verify).
package webhook

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// SecretPrefix marks a webhook signing secret (the Standard Webhooks form:
// "whsec_" then the base64 of the key).
const SecretPrefix = "whsec_"

// secretBytes is the key length NewSecret draws: the HMAC-SHA256 block's
// worth of entropy, above the 24 bytes Standard Webhooks asks at least.
const secretBytes = 32

// The key lengths Standard Webhooks allows.
const minSecretBytes, maxSecretBytes = 24, 64

// ErrSecret says a signing secret is not in the whsec_ form; the error never
// carries the secret.
var ErrSecret = errors.New("webhook secret is not whsec_ followed by the base64 of 24 to 64 bytes")

// NewSecret draws a signing secret.
func NewSecret() (string, error) {
	key := make([]byte, secretBytes)
	if _, err := rand.Read(key); err != nil {
		return "", err
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(key), nil
}

// Sign returns the webhook-signature header value: one "v1,<base64 of
// HMAC-SHA256 over {id}.{timestamp}.{body}>" per secret, space-separated, so
// that during a rotation a receiver holding either secret verifies.
func Sign(id string, ts time.Time, body []byte, secrets []string) (string, error) {
	if len(secrets) == 0 {
		return "", errors.New("webhook: no signing secret")
	}
	prefix := id + "." + strconv.FormatInt(ts.Unix(), 10) + "."
	var b strings.Builder
	for i, s := range secrets {
		key, err := decodeSecret(s)
		if err != nil {
			return "", err
		}
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte(prefix))
		mac.Write(body)
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("v1,")
		b.WriteString(base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	}
	return b.String(), nil
}

func decodeSecret(s string) ([]byte, error) {
	enc, ok := strings.CutPrefix(s, SecretPrefix)
	if !ok {
		return nil, ErrSecret
	}
	key, err := base64.StdEncoding.DecodeString(enc)
	if err != nil || len(key) < minSecretBytes || len(key) > maxSecretBytes {
		return nil, ErrSecret
	}
	return key, nil
}

// Headers of a delivery.
const (
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"
)

// DefaultTolerance is how far a delivery's timestamp may be from the
// receiver's clock before Verify refuses it (a replayed delivery).
const DefaultTolerance = 5 * time.Minute

// ErrSignature is a delivery whose signature, timestamp or headers do not
// verify.
var ErrSignature = errors.New("webhook: the signature does not verify")

// Verify checks a delivery's headers and exact body against secret: one of
// the signature's v1 entries must match, and the timestamp be within
// tolerance of now (0: DefaultTolerance).
func Verify(secret string, header interface{ Get(string) string }, body []byte, now time.Time, tolerance time.Duration) error {
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	id, tsText, sigs := header.Get(HeaderID), header.Get(HeaderTimestamp), header.Get(HeaderSignature)
	ts, err := strconv.ParseInt(tsText, 10, 64)
	if id == "" || sigs == "" || err != nil {
		return ErrSignature
	}
	if d := now.Sub(time.Unix(ts, 0)); d > tolerance || d < -tolerance {
		return ErrSignature
	}
	want, err := Sign(id, time.Unix(ts, 0), body, []string{secret})
	if err != nil {
		return err
	}
	for _, got := range strings.Fields(sigs) {
		if hmac.Equal([]byte(got), []byte(want)) {
			return nil
		}
	}
	return ErrSignature
}
