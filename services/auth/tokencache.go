package auth

import "time"

// TokenCacheTTL bounds how long a verified seller token is trusted without
// asking the database again: the seller-token check is on every
// seller-scoped call, and this is also how long a revocation may take to
// reach a core replica that served the token just before.
const TokenCacheTTL = 5 * time.Second

const tokenCacheMax = 100_000

// tokenEntry is a verified grant, cached by the token's hash.
type tokenEntry struct {
	appID, sellerID string
	scopes          []string  // what the seller granted
	expires         time.Time // the token's own expiry
}

// forget drops a token from this replica's cache (a revocation or a
// rotation made here); other replicas drop it within TokenCacheTTL.
func (s *Service) forget(accessHash string) { s.tokens.Delete(accessHash) }
