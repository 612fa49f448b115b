package gateway

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/policy"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/sdk/signing"
)

// Credential-kind prefixes of client ids.
const (
	sandboxIDPrefix = "test_"
	liveIDPrefix    = "live_"
)

// rateLimitedError is RATE_LIMITED with the delay for Retry-After.
type rateLimitedError struct {
	err        *apierr.Error
	retryAfter time.Duration
	bucket     string // for the metrics: the bucket that refused it
}

func (e *rateLimitedError) Error() string { return e.err.Error() }
func (e *rateLimitedError) Unwrap() error { return e.err }

// signedHeaders are the signature headers of a request, checked for form.
type signedHeaders struct {
	clientID, timestamp, signature, nonce string
	// signedAt is timestamp read, in Unix seconds.
	signedAt int64
}

// authenticate verifies the signature and charges the request; it returns
// the principal to forward to core, seller headers included. The route's
// policy (scope, seller token) is applied by core alone, which trusts no
// caller to have done it. Once the request is
// charged, its tightest bucket goes into the answer's X-RateLimit-* headers
// (out), whatever later check fails.
func (g *Gateway) authenticate(r *http.Request, body []byte, m *policy.Method, now time.Time, out http.Header) (*principal.Principal, error) {
	sh, err := g.readSignedHeaders(r.Header, now)
	if err != nil {
		return nil, err
	}
	creds, err := g.verify(r, body, m, sh, now)
	if err != nil {
		return nil, err
	}
	p, err := g.admit(r, creds, m, sh, now, out)
	if err != nil {
		return nil, err
	}
	return p, forwardSeller(p, m, r.Header)
}

// readSignedHeaders checks the signature headers' presence and form, in the
// order the error codes are documented, before anything is looked up.
func (g *Gateway) readSignedHeaders(h http.Header, now time.Time) (signedHeaders, error) {
	sh := signedHeaders{
		clientID:  h.Get(signing.HeaderPartnerID),
		timestamp: h.Get(signing.HeaderTimestamp),
		signature: h.Get(signing.HeaderSignature),
		nonce:     h.Get(signing.HeaderNonce),
	}
	version := h.Get(signing.HeaderSignatureVersion)
	var missing []string
	for _, hv := range [...]struct{ name, value string }{
		{signing.HeaderPartnerID, sh.clientID},
		{signing.HeaderTimestamp, sh.timestamp},
		{signing.HeaderSignatureVersion, version},
		{signing.HeaderSignature, sh.signature},
	} {
		if hv.value == "" {
			missing = append(missing, hv.name)
		}
	}
	if len(missing) > 0 {
		return sh, apierr.New(apierr.BadRequest, "missing required header(s): "+strings.Join(missing, ", "))
	}
	switch version {
	case signing.Version:
	case "1", "2":
		return sh, apierr.New(apierr.HMACVersionDeprecated, "signature version "+version+" is no longer accepted; sign with version 3")
	default:
		return sh, apierr.New(apierr.BadRequest, signing.HeaderSignatureVersion+" must be 3")
	}
	if sh.nonce == "" {
		return sh, apierr.New(apierr.MissingNonce, signing.HeaderNonce+" is required with signature version 3")
	}
	if !signing.ValidNonce(sh.nonce) {
		return sh, apierr.New(apierr.InvalidNonce, signing.HeaderNonce+" must be 32 to 64 lowercase hexadecimal characters")
	}
	sec, ok := signing.ParseTimestamp(sh.timestamp)
	if !ok {
		return sh, apierr.New(apierr.BadRequest, signing.HeaderTimestamp+" must be Unix epoch seconds")
	}
	sh.signedAt = sec
	window := int64(g.window / time.Second)
	if skew := now.Unix() - sec; skew > window || -skew > window {
		return sh, apierr.Newf(apierr.TimestampExpired, "timestamp is outside the %d-second window of server time %d", window, now.Unix())
	}
	if !signing.ValidSignatureFormat(sh.signature) {
		return sh, apierr.New(apierr.InvalidSignature, "signature must be 64 lowercase hexadecimal characters")
	}
	return sh, nil
}

// verify checks the credential kind, finds the app and verifies the
// signature over the exact request under every secret that is live.
func (g *Gateway) verify(r *http.Request, body []byte, m *policy.Method, sh signedHeaders, now time.Time) (*appCredentials, error) {
	if m.Policy.GetSandbox() && strings.HasPrefix(sh.clientID, liveIDPrefix) {
		return nil, apierr.New(apierr.SandboxOnly, "sandbox routes take sandbox credentials only")
	}
	wantPrefix := sandboxIDPrefix
	if g.cfg.Environment == EnvProduction {
		wantPrefix = liveIDPrefix
	}
	if !strings.HasPrefix(sh.clientID, wantPrefix) || len(sh.clientID) > 128 {
		return nil, apierr.Newf(apierr.InvalidCredentials, "this is the %s environment: use %s credentials", g.cfg.Environment, g.cfg.Environment)
	}
	creds, err := g.creds.get(r.Context(), sh.clientID, now)
	if err != nil {
		g.log.Warn("credential lookup failed", zap.Error(err))
		return nil, apierr.New(apierr.ServiceUnavailable, "credentials could not be checked; retry with backoff")
	}
	if creds == nil || creds.environment != g.cfg.Environment {
		return nil, apierr.New(apierr.InvalidCredentials, "unknown client id")
	}
	req := signing.FromHTTP(r, body)
	var keyBuf [2]*signing.Key
	matched, err := signing.VerifyRequest(&req, sh.signature, creds.liveKeys(now, keyBuf[:0])...)
	if err != nil {
		return nil, apierr.New(apierr.BadRequest, "the query string has an invalid percent-escape")
	}
	if matched == nil {
		// The secret may have been rotated through another gateway since
		// this one cached the app: ask core once more (at most once per app
		// per short interval) before answering INVALID_SIGNATURE.
		fresh, err := g.creds.refresh(r.Context(), sh.clientID, creds, now)
		if err != nil {
			g.log.Warn("credential lookup failed", zap.Error(err))
			return nil, apierr.New(apierr.ServiceUnavailable, "credentials could not be checked; retry with backoff")
		}
		if fresh == nil || fresh.environment != g.cfg.Environment {
			return nil, apierr.New(apierr.InvalidCredentials, "unknown client id")
		}
		if fresh != creds {
			creds = fresh
			matched, _ = signing.VerifyRequest(&req, sh.signature, creds.liveKeys(now, keyBuf[:0])...)
		}
	}
	if matched == nil {
		return nil, g.signatureMismatch(&req)
	}
	if !creds.active {
		return nil, apierr.New(apierr.Forbidden, "the app is inactive")
	}
	return creds, nil
}

// mismatchMessage is the whole INVALID_SIGNATURE message of a well-formed
// signature that no live secret reproduces, in production: it says nothing a
// guesser could use.
const mismatchMessage = "signature does not match the request"

// signatureMismatch answers a signature that does not verify. In the sandbox
// the message names the string-to-sign the platform computed (as AWS does
// with SignatureDoesNotMatch), so a partner can find the first field where
// its own differs. Every field of that string is what the request itself
// sent (or the hash of its body), so echoing it reveals nothing; the
// expected signature is never shown, since that would sign any request for
// anyone who knows a client id.
func (g *Gateway) signatureMismatch(req *signing.Request) error {
	if g.cfg.Environment != EnvSandbox {
		return apierr.New(apierr.InvalidSignature, mismatchMessage)
	}
	sts, err := req.StringToSign()
	if err != nil {
		// VerifyRequest canonicalised this query already; this cannot happen.
		return apierr.New(apierr.InvalidSignature, mismatchMessage)
	}
	return apierr.New(apierr.InvalidSignature, sandboxMismatchMessage(sts, len(req.Body)))
}

// Parts of the sandbox's INVALID_SIGNATURE message around the echoed
// string-to-sign.
const (
	mismatchHead = mismatchMessage + "; the sandbox signed the string-to-sign ["
	mismatchTail = "] (fields timestamp:clientId:METHOD:path:canonicalQuery:sha256(body):nonce; the body had %d bytes) " +
		"with the app's client secret. Find the first field that differs from the string you signed; " +
		"if none differs, the request was signed with another secret."
	mismatchEscaped = " Bytes outside printable ASCII are shown as \\xNN."
	mismatchCut     = " The middle of the string is cut (…) to fit."
)

// sandboxMismatchMessage renders the sandbox message within
// apierr.MaxMessageBytes whatever the request sent: bytes outside printable
// ASCII in the path are written \xNN (so neither the JSON body, nor a
// terminal or log that shows it, meets a control or bidi character), and a
// string too long for the budget loses its middle (the path and query)
// while keeping the timestamp, client id and method in front and the body
// hash and nonce behind.
func sandboxMismatchMessage(sts string, bodyLen int) string {
	echo, escaped := escapeNonPrintable(sts)
	tail := fmt.Sprintf(mismatchTail, bodyLen)
	if escaped {
		tail += mismatchEscaped
	}
	budget := apierr.MaxMessageBytes - len(mismatchHead) - len(tail)
	if len(echo) > budget {
		tail += mismatchCut
		budget -= len(mismatchCut)
		echo = cutMiddle(echo, budget)
	}
	return mismatchHead + echo + tail
}

// escapeNonPrintable writes every byte outside 0x20-0x7e as \xNN.
func escapeNonPrintable(s string) (string, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			n++
		}
	}
	if n == 0 {
		return s, false
	}
	const hexDigits = "0123456789abcdef"
	b := make([]byte, 0, len(s)+3*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e {
			b = append(b, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
			continue
		}
		b = append(b, c)
	}
	return string(b), true
}

// cutMiddle shortens the ASCII string s to at most n bytes, keeping its end
// from the body hash on (":" + 64 hex + ":" + nonce of at most 64) and
// replacing what is cut with "…". It never splits a \xNN escape.
func cutMiddle(s string, n int) string {
	const ellipsis = "…"
	keepTail := 2 + signing.SignatureLen + signing.MaxNonceLen
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		if j := strings.LastIndexByte(s[:i], ':'); j >= 0 {
			keepTail = len(s) - j
		}
	}
	head := max(n-keepTail-len(ellipsis), 0)
	// Back off so a \xNN escape is whole or gone.
	if k := strings.LastIndexByte(s[max(head-3, 0):head], '\\'); k >= 0 {
		head = max(head-3, 0) + k
	}
	return s[:head] + ellipsis + s[len(s)-keepTail:]
}

// admit claims the nonce and charges the rate buckets in one call to the
// admission store, and builds the principal with the buckets' state. The
// store gets AdmissionTimeout: a Redis that does not answer fails the
// request at once with 503 rather than holding it.
func (g *Gateway) admit(r *http.Request, creds *appCredentials, m *policy.Method, sh signedHeaders, now time.Time, out http.Header) (*principal.Principal, error) {
	buckets := creds.bucketsFor(m.Policy.GetSandbox())
	ctx, cancel := context.WithTimeout(r.Context(), g.cfg.AdmissionTimeout)
	res, err := g.cfg.Admission.Admit(ctx, admission.Request{
		NonceKey: admission.NonceKey(creds.accountID, creds.appID, sh.nonce),
		NonceTTL: 2 * g.window,
		Buckets:  buckets,
		Now:      now,
		SignedAt: time.Unix(sh.signedAt, 0),
	})
	cancel()
	if err != nil {
		g.log.Error("admission store failed", zap.Error(err))
		return nil, apierr.New(apierr.ServiceUnavailable, "the platform cannot admit requests right now; retry with backoff")
	}
	if res.BeforeEpoch {
		return nil, apierr.New(apierr.TimestampExpired, "the timestamp predates a restart of the platform's replay protection; sign the request again with the current time")
	}
	if res.NonceReused {
		return nil, apierr.New(apierr.NonceReused, "this nonce was already used inside the freshness window")
	}
	// A refused request carries the headers too.
	t := res.Tightest()
	setRateHeaders(out, t.Limit, t.Remaining, t.Reset)
	if !res.Allowed() {
		return nil, &rateLimitedError{err: apierr.New(apierr.RateLimited, "rate limit exceeded; retry after the Retry-After delay"), retryAfter: res.RetryAfter(now), bucket: exceededBucket(res)}
	}
	p := &principal.Principal{
		AppID:       creds.appID,
		ClientID:    creds.clientID,
		AccountID:   creds.accountID,
		Environment: creds.environment,
		Scopes:      creds.scopes,
	}
	// Only a method that reports them gets the buckets' states: they change
	// with every request, and core's other methods do not read them.
	if m.Policy.GetReportsRateLimits() {
		p.RateLimits = make([]principal.RateLimit, len(res.Buckets))
		for i, b := range res.Buckets {
			p.RateLimits[i] = principal.RateLimit{
				Bucket: bucketName(i), Limit: b.Limit, Remaining: b.Remaining, Window: buckets[i].Window, Reset: b.Reset,
			}
		}
	}
	return p, nil
}

// forwardSeller puts the seller headers of a route that reads them
// (required or optional) into p for core, which verifies the pair (and
// answers SELLER_TOKEN_REQUIRED when one is missing).
func forwardSeller(p *principal.Principal, m *policy.Method, h http.Header) error {
	if !m.SellerHeaders() {
		return nil
	}
	p.SellerID = h.Get(signing.HeaderSellerID)
	p.AccessToken = h.Get(signing.HeaderAccessToken)
	// No seller id or token the platform issues looks otherwise; and
	// anything else could not travel as gRPC metadata to core.
	if p.SellerID != "" && !tokenChars(p.SellerID, 128) || p.AccessToken != "" && !tokenChars(p.AccessToken, 512) {
		return apierr.New(apierr.NotFound, "seller not found or not authorized for this app")
	}
	return nil
}

// tokenChars reports whether s is 1 to max characters of [A-Za-z0-9._-].
func tokenChars(s string, max int) bool {
	return len(s) <= max && principal.ValidRequestID(s)
}
