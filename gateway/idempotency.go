package gateway

import (
	"net/http"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// HeaderIdempotencyKey carries a client's key for safe retries of a write.
const HeaderIdempotencyKey = "Idempotency-Key"

// maxIdempotencyKey is the longest key accepted.
const maxIdempotencyKey = 255

// readIdempotencyKey returns the request's Idempotency-Key, "" when it sent
// none. A key is 1 to 255 printable ASCII characters (0x20-0x7E), sent once:
// anything else could not travel to core as gRPC metadata and is refused as
// VALIDATION_ERROR.
func readIdempotencyKey(h http.Header) (string, error) {
	values := h.Values(HeaderIdempotencyKey)
	switch len(values) {
	case 0:
		return "", nil
	case 1:
	default:
		return "", apierr.New(apierr.ValidationError, HeaderIdempotencyKey+": send the header once")
	}
	k := values[0]
	if k == "" || len(k) > maxIdempotencyKey {
		return "", apierr.Newf(apierr.ValidationError, "%s: must be 1 to %d characters", HeaderIdempotencyKey, maxIdempotencyKey)
	}
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < 0x20 || c > 0x7e {
			return "", apierr.Newf(apierr.ValidationError, "%s: must be printable ASCII characters only", HeaderIdempotencyKey)
		}
	}
	return k, nil
}
