package gateway

import (
	"net/http"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/idempotency"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/sdk/signing"
)

// HeaderIdempotentReplayed marks an answer replayed for an idempotency key.
const HeaderIdempotentReplayed = sdk.HeaderIdempotentReplayed

// requestFingerprint is what an idempotency key is bound to: the method,
// path, canonical query and exact body the signature covered. The query
// has passed checkQuery; a query that still does not canonicalise is
// fingerprinted as sent.
func requestFingerprint(r *http.Request, body []byte) string {
	q, err := signing.CanonicalQuery(r.URL.RawQuery)
	if err != nil {
		q = r.URL.RawQuery
	}
	return idempotency.HTTPFingerprint(r.Method, r.URL.Path, q, body)
}

// outgoingHeader lets exactly one of core's response headers reach the
// client: the replay mark, as Idempotent-Replayed.
func outgoingHeader(key string) (string, bool) {
	if key == principal.KeyReplayed {
		return HeaderIdempotentReplayed, true
	}
	return "", false
}

// HeaderIdempotencyKey carries a client's key for safe retries of a write.
const HeaderIdempotencyKey = sdk.HeaderIdempotencyKey

// readIdempotencyKey returns the request's Idempotency-Key, "" when it sent
// none. A key has the form idempotency.ValidKey accepts (the rule core
// applies to every caller), sent once: anything else could not travel to core
// as gRPC metadata and is refused as VALIDATION_ERROR.
func readIdempotencyKey(h http.Header) (string, error) {
	values := h.Values(HeaderIdempotencyKey)
	switch {
	case len(values) == 0:
		return "", nil
	case len(values) > 1:
		return "", apierr.New(apierr.ValidationError, HeaderIdempotencyKey+": send the header once")
	case !idempotency.ValidKey(values[0]):
		return "", idempotency.ErrInvalidKey()
	}
	return values[0], nil
}
