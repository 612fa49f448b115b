package sdk

// Header names of the platform's answers and of the optional request
// headers besides the signature's (sdk/signing). The gateway writes them
// and the OpenAPI document declares them from these constants.
const (
	// HeaderRequestID names a request; it is echoed on every answer and
	// repeated as requestId in every error body.
	HeaderRequestID = "X-Request-Id"
	// HeaderRateLimitLimit is the ceiling of the most constrained bucket.
	HeaderRateLimitLimit = "X-RateLimit-Limit"
	// HeaderRateLimitRemaining is what is left of it in this window.
	HeaderRateLimitRemaining = "X-RateLimit-Remaining"
	// HeaderRateLimitReset is the Unix time (seconds) the window ends.
	HeaderRateLimitReset = "X-RateLimit-Reset"
	// HeaderRetryAfter is the delay in seconds before a retry (429, 409, 503).
	HeaderRetryAfter = "Retry-After"
	// HeaderIdempotencyKey carries a client's key for safe retries of a write.
	HeaderIdempotencyKey = "Idempotency-Key"
	// HeaderIdempotentReplayed marks an answer replayed for an idempotency key.
	HeaderIdempotentReplayed = "Idempotent-Replayed"
)
