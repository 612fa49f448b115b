package pagination

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// A cursor on the wire is base64url(JSON position ‖ HMAC-SHA256 tag of that
// JSON) under a key only core holds. The position is not secret (it is the
// last item's sort key and id, which the page shows anyway), but it must not
// be editable: a listing feeds it to its query, so an edited one could ask
// for text PostgreSQL rejects (an id edited to hold \u0000 answered 500) or for a page or filter the cursor was not issued for.

// cursorKeyInfo labels the key derivation, so the cursor key serves nothing
// else even though it comes from the platform's one secret.
const cursorKeyInfo = "partnerapi/pagination/cursor-mac/v1"

const (
	keyBytes = 32
	tagBytes = sha256.Size
	// maxCursorBytes refuses oversized cursors before decoding them; the
	// platform's are under 200 characters.
	maxCursorBytes = 1024
)

func badCursor() error {
	return apierr.New(apierr.BadRequest, "cursor is not one this platform issued")
}

// Cursors issues and reads cursors under one key. Every core replica must
// hold the same key to read the others' cursors: NewCursors derives it from
// the platform's configured secret key.
type Cursors struct {
	key []byte
}

// NewCursors derives the cursor key from secret (the platform's 32-byte
// secret key, MP_SECRET_KEY) with HKDF-SHA256 and a fixed label.
func NewCursors(secret []byte) (*Cursors, error) {
	if len(secret) < keyBytes {
		return nil, errors.New("pagination: the cursor secret must be at least 32 bytes")
	}
	key, err := hkdf.Key(sha256.New, secret, nil, cursorKeyInfo, keyBytes)
	if err != nil {
		return nil, err
	}
	return &Cursors{key: key}, nil
}

// RandomCursors uses a fresh random key: its cursors are good only in this
// process. For services built without the platform's secret (tests, seeding
// tools); a deployment always derives the key with NewCursors.
func RandomCursors() *Cursors {
	key := make([]byte, keyBytes)
	if _, err := rand.Read(key); err != nil {
		panic("pagination: no randomness: " + err.Error())
	}
	return &Cursors{key: key}
}

func (cs *Cursors) tag(payload []byte) []byte {
	m := hmac.New(sha256.New, cs.key)
	m.Write(payload)
	return m.Sum(nil)
}

// Encode makes a cursor opaque and tamper-evident.
func (cs *Cursors) Encode(c Cursor) string {
	payload, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(append(payload, cs.tag(payload)...))
}

// Decode reads a cursor this platform issued. Anything else (bad base64, a
// tag that does not verify, a position that does not parse) is
// BAD_REQUEST; the tag is compared in constant time.
func (cs *Cursors) Decode(s string) (Cursor, error) {
	if len(s) > maxCursorBytes {
		return Cursor{}, badCursor()
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(raw) <= tagBytes {
		return Cursor{}, badCursor()
	}
	payload, tag := raw[:len(raw)-tagBytes], raw[len(raw)-tagBytes:]
	if !hmac.Equal(tag, cs.tag(payload)) {
		return Cursor{}, badCursor()
	}
	var c Cursor
	if json.Unmarshal(payload, &c) != nil || c.ID == "" || c.Page < 2 {
		return Cursor{}, badCursor()
	}
	return c, nil
}
