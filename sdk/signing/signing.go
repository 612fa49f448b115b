// Package signing implements version 3 of the Open API request signature
// (HMAC-SHA256 over a seven-field signed string). The gateway verifies with it
// and the partner SDK signs with it, so both sides share one canonicalization
// and cannot drift apart.
//
// The signed string is
//
//	{timestamp}:{clientId}:{METHOD}:{requestPath}:{queryCanonical}:{sha256(body)}:{nonce}
//
// and the signature is the lowercase hex HMAC-SHA256 of it keyed by the app's
// client secret. Verification sits on every request's hot path: a prepared
// Key with VerifyRequest does not allocate.
//
// Where the specification is silent, this package decides, and both sides
// follow because both use it:
//   - requestPath and the query are the bytes of the request line, never a
//     decoded or re-encoded form (see FromHTTP);
//   - an empty query segment ("a=1&&b=2", a trailing '&') is skipped, a key
//     without '=' is emitted as "key=", an empty key is kept;
//   - decoding is bytewise, so %FF survives as %FF, and a '%' not followed by
//     two hex digits is an error (400) rather than a literal;
//   - pairs sort by re-encoded key, then by re-encoded value, bytewise;
//   - the method is uppercased for ASCII letters only; the timestamp and
//     nonce enter the signed string exactly as sent in their headers.
package signing

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Header names of the signature scheme. They are already in canonical MIME
// form, so they can index an http.Header directly.
const (
	HeaderPartnerID        = "X-Platform-Partner-Id"
	HeaderTimestamp        = "X-Platform-Timestamp"
	HeaderSignatureVersion = "X-Platform-Signature-Version"
	HeaderNonce            = "X-Platform-Nonce"
	HeaderSignature        = "X-Platform-Signature"

	// HeaderAccessToken and HeaderSellerID carry the seller's authorization.
	// They are not part of the signed string.
	HeaderAccessToken = "X-Platform-Access-Token"
	HeaderSellerID    = "X-Platform-Seller-Id"
)

// Version is the only signature version the platform accepts.
const Version = "3"

// Length limits of the hex-encoded header values.
const (
	SignatureLen = 2 * sha256.Size
	MinNonceLen  = 32
	MaxNonceLen  = 64
)

// Request holds the parts of an HTTP request that a version 3 signature
// covers. Every field is taken as it travels on the wire: the gateway fills
// it from the raw request, the SDK from what it is about to send.
type Request struct {
	// Timestamp is the X-Platform-Timestamp header value, verbatim.
	Timestamp string
	// ClientID is the X-Platform-Partner-Id header value.
	ClientID string
	// Method is the HTTP verb; it is uppercased (ASCII) in the signed string.
	Method string
	// Path is the request path exactly as sent: escaped, leading slash, no query.
	Path string
	// RawQuery is the query exactly as sent, with or without its leading '?'.
	RawQuery string
	// Body is the exact body bytes sent; nil and empty are the same.
	Body []byte
	// Nonce is the X-Platform-Nonce header value.
	Nonce string
}

// FromHTTP fills a Request from a request received by an http.Server and its
// body bytes (read in full by the caller, after the body limit). The path and
// query are taken from the request line verbatim (r.RequestURI), not from the
// parsed r.URL, whose re-encoding may differ from what the client signed.
func FromHTTP(r *http.Request, body []byte) Request {
	path, query := splitRequestURI(r)
	return Request{
		Timestamp: r.Header.Get(HeaderTimestamp),
		ClientID:  r.Header.Get(HeaderPartnerID),
		Method:    r.Method,
		Path:      path,
		RawQuery:  query,
		Body:      body,
		Nonce:     r.Header.Get(HeaderNonce),
	}
}

func splitRequestURI(r *http.Request) (path, query string) {
	uri := r.RequestURI
	if !strings.HasPrefix(uri, "/") {
		// Absolute form (scheme://authority/path?query), sent to proxies and
		// allowed by HTTP/1.1; the signed path starts after the authority.
		_, rest, ok := strings.Cut(uri, "://")
		if !ok {
			// "*" (OPTIONS) or a request built in a test without a request
			// line: fall back to the parsed URL.
			p := r.URL.EscapedPath()
			if p == "" {
				p = "/"
			}
			return p, r.URL.RawQuery
		}
		if i := strings.IndexAny(rest, "/?"); i >= 0 {
			uri = rest[i:]
		} else {
			uri = ""
		}
		if !strings.HasPrefix(uri, "/") {
			uri = "/" + uri
		}
	}
	path, query, _ = strings.Cut(uri, "?")
	return path, query
}

// StringToSign returns the signed string of r. The only error is
// ErrInvalidEscape from the query.
func (r *Request) StringToSign() (string, error) {
	s := getScratch()
	defer putScratch(s)
	b, err := r.appendStringToSign(s.buf[:0], &s.q)
	s.buf = b
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// AppendStringToSign appends the signed string of r to dst. On error dst is
// returned with an unspecified partial string appended.
func (r *Request) AppendStringToSign(dst []byte) ([]byte, error) {
	s := getScratch()
	defer putScratch(s)
	return r.appendStringToSign(dst, &s.q)
}

func (r *Request) appendStringToSign(dst []byte, qs *querySpace) ([]byte, error) {
	dst = append(dst, r.Timestamp...)
	dst = append(dst, ':')
	dst = append(dst, r.ClientID...)
	dst = append(dst, ':')
	for i := 0; i < len(r.Method); i++ {
		c := r.Method[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		dst = append(dst, c)
	}
	dst = append(dst, ':')
	dst = append(dst, r.Path...)
	dst = append(dst, ':')
	if r.RawQuery != "" && r.RawQuery != "?" {
		var err error
		if dst, err = qs.appendCanonical(dst, r.RawQuery); err != nil {
			return dst, err
		}
	}
	dst = append(dst, ':')
	if len(r.Body) == 0 {
		// Most requests are GETs; their body hash is a constant.
		dst = append(dst, emptyBodySHA256...)
	} else {
		sum := sha256.Sum256(r.Body)
		dst = hex.AppendEncode(dst, sum[:])
	}
	dst = append(dst, ':')
	dst = append(dst, r.Nonce...)
	return dst, nil
}

// emptyBodySHA256 is the lowercase hex SHA-256 of no bytes.
const emptyBodySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// BodySHA256 returns the lowercase hex SHA-256 of body; an empty body gives
// the hash of the empty string.
func BodySHA256(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

// ValidSignatureFormat reports whether s is exactly 64 lowercase hexadecimal
// characters. Uppercase hex and base64 are rejected before any HMAC is
// computed, so INVALID_SIGNATURE needs no secret lookup.
func ValidSignatureFormat(s string) bool {
	return len(s) == SignatureLen && lowerHex(s)
}

// ValidNonce reports whether s is 32 to 64 lowercase hexadecimal characters
// (an odd length inside that range is valid).
func ValidNonce(s string) bool {
	return len(s) >= MinNonceLen && len(s) <= MaxNonceLen && lowerHex(s)
}

// lowerHexVal maps '0'-'9' and 'a'-'f' to their values and every other byte
// to badHex, so validation and decoding run without branches per character.
var lowerHexVal = func() (t [256]byte) {
	for i := range t {
		t[i] = badHex
	}
	for i, c := range []byte("0123456789abcdef") {
		t[c] = byte(i)
	}
	return t
}()

const badHex = 0x10

func lowerHex(s string) bool {
	var acc byte
	for i := 0; i < len(s); i++ {
		acc |= lowerHexVal[s[i]]
	}
	return acc&badHex == 0
}

// NewNonce returns 32 lowercase hex characters from crypto/rand (128 bits),
// enough that two requests of one app never collide inside a window.
func NewNonce() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails; it aborts the program instead.
	return hex.EncodeToString(b[:])
}

// FormatTimestamp renders t as the X-Platform-Timestamp value: Unix epoch
// seconds in decimal.
func FormatTimestamp(t time.Time) string {
	return strconv.FormatInt(t.Unix(), 10)
}

// ParseTimestamp parses an X-Platform-Timestamp value: 1 to 18 ASCII digits,
// nothing else (no sign, space, fraction or exponent). The limit keeps the
// value inside int64; a millisecond timestamp parses and then falls outside
// any freshness window, which is the answer it deserves.
func ParseTimestamp(s string) (unixSeconds int64, ok bool) {
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// Headers are the values of the five signature headers of one request.
type Headers struct {
	PartnerID        string
	Timestamp        string
	SignatureVersion string
	Nonce            string
	Signature        string
}

// Set writes the five headers into h, replacing earlier values.
func (hs Headers) Set(h http.Header) {
	h[HeaderPartnerID] = []string{hs.PartnerID}
	h[HeaderTimestamp] = []string{hs.Timestamp}
	h[HeaderSignatureVersion] = []string{hs.SignatureVersion}
	h[HeaderNonce] = []string{hs.Nonce}
	h[HeaderSignature] = []string{hs.Signature}
}

// SignRequest signs one request with a raw secret and returns its header
// values. An empty nonce is replaced by NewNonce. Callers that sign many
// requests keep a Key and use Key.SignRequest instead.
func SignRequest(clientID string, secret []byte, method, path, rawQuery string, body []byte, ts time.Time, nonce string) (Headers, error) {
	if nonce == "" {
		nonce = NewNonce()
	}
	r := Request{
		Timestamp: FormatTimestamp(ts),
		ClientID:  clientID,
		Method:    method,
		Path:      path,
		RawQuery:  rawQuery,
		Body:      body,
		Nonce:     nonce,
	}
	sig, err := NewKey(secret).SignRequest(&r)
	if err != nil {
		return Headers{}, err
	}
	return Headers{
		PartnerID:        clientID,
		Timestamp:        r.Timestamp,
		SignatureVersion: Version,
		Nonce:            nonce,
		Signature:        sig,
	}, nil
}

// scratch is per-call working memory. It never holds key material, so one
// pool serves every secret.
type scratch struct {
	buf []byte // signed string or canonical query
	sum []byte // HMAC output
	q   querySpace
}

var scratchPool = sync.Pool{New: func() any {
	return &scratch{
		buf: make([]byte, 0, 512),
		sum: make([]byte, 0, sha256.Size),
		q:   querySpace{enc: make([]byte, 0, 256), pairs: make([]pair, 0, 16)},
	}
}}

// maxPooled bounds what a pooled scratch may keep: one request with a huge
// query must not pin its memory for the life of the process.
const maxPooled = 64 << 10

func getScratch() *scratch { return scratchPool.Get().(*scratch) }

func putScratch(s *scratch) {
	if cap(s.buf) > maxPooled || cap(s.q.enc) > maxPooled || cap(s.q.pairs) > maxPooled/16 {
		return
	}
	scratchPool.Put(s)
}
