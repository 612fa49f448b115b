package platform

import (
	"encoding/base64"
	"errors"

	"github.com/mallplatform/partnerapi/internal/pagination"
)

// cursorsFromSecret derives the listing-cursor key from the platform's
// secret key (MP_SECRET_KEY), so that every core replica reads the cursors
// the others issue without another setting to distribute. The derivation
// is pagination's (HKDF with a label of its own): the cursor key reveals
// nothing of the key app secrets are sealed with. The key is decoded first,
// as auth.NewSealer does, so the spelling of the base64 does not matter.
func cursorsFromSecret(secretKey string) (*pagination.Cursors, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if key, err := enc.DecodeString(secretKey); err == nil && len(key) == 32 {
			return pagination.NewCursors(key)
		}
	}
	return nil, errors.New("platform: the secret key must be 32 bytes, base64-encoded")
}
