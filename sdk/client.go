// Package sdk is a small Go client for the Partner Marketplace Open API. It
// signs every request with HMAC signature version 3 through
// sdk/signing, the same code the gateway verifies with, and decodes the
// response envelope. It depends on the standard library only.
//
// The client signs exactly what it sends: the path and raw query as they go on
// the wire, and the body bytes it writes. It never retries: a signed request
// carries a single-use nonce, so a retry must be signed afresh by the caller.
package sdk

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mallplatform/partnerapi/sdk/signing"
)

// MaxResponseBytes bounds how much of a response body the client reads.
const MaxResponseBytes = 32 << 20

// userAgent identifies the SDK in the gateway's access log.
const userAgent = "partnerapi-go-sdk/1"

// defaultHTTPClient is used when Config.HTTPClient is nil. It has a timeout,
// which http.DefaultClient lacks, and it returns redirects instead of
// following them: the authorize endpoint answers 302 on purpose, and a signed
// request replayed to another URL would carry a spent nonce and a signature
// over the wrong path.
var defaultHTTPClient = &http.Client{
	Timeout: 30 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	},
}

// Config holds what a partner app needs to call the API.
type Config struct {
	// BaseURL is the scheme and host of the API, e.g. http://127.0.0.1:8080.
	// A path prefix is allowed and becomes part of every signed path.
	BaseURL string
	// ClientID is the app's client id (X-Platform-Partner-Id).
	ClientID string
	// ClientSecret is the app's client secret; it never leaves the process.
	ClientSecret string
	// HTTPClient sends the requests; nil means a client with a 30 s timeout
	// that does not follow redirects.
	HTTPClient *http.Client
	// Now gives the signing time; nil means time.Now.
	Now func() time.Time
}

// Validate reports the first problem with c.
func (c Config) Validate() error {
	if c.BaseURL == "" {
		return errors.New("sdk: base URL is empty")
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil {
		return fmt.Errorf("sdk: base URL: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("sdk: base URL %q is not an absolute http(s) URL", c.BaseURL)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("sdk: base URL %q must not carry a query, fragment or user info", c.BaseURL)
	}
	if c.ClientID == "" {
		return errors.New("sdk: client id is empty")
	}
	if c.ClientSecret == "" {
		return errors.New("sdk: client secret is empty")
	}
	return nil
}

// Client calls the API as one partner app, optionally on behalf of one
// seller. It is safe for concurrent use.
type Client struct {
	base        string // BaseURL without a trailing slash
	clientID    string
	key         *signing.Key
	http        *http.Client
	now         func() time.Time
	sellerID    string
	accessToken string
}

// New returns a Client for cfg after validating it.
func New(cfg Config) (*Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := &Client{
		base:     strings.TrimRight(cfg.BaseURL, "/"),
		clientID: cfg.ClientID,
		key:      signing.NewKey([]byte(cfg.ClientSecret)),
		http:     cfg.HTTPClient,
		now:      cfg.Now,
	}
	if c.http == nil {
		c.http = defaultHTTPClient
	}
	if c.now == nil {
		c.now = time.Now
	}
	return c, nil
}

// ClientID returns the app's client id.
func (c *Client) ClientID() string { return c.clientID }

// WithSeller returns a copy of c that adds the seller headers
// (X-Platform-Seller-Id and X-Platform-Access-Token) to every request. The
// headers are not signed, so the signature is the same as an app-only call.
// Empty values remove the seller headers.
func (c *Client) WithSeller(sellerID, accessToken string) *Client {
	cp := *c
	cp.sellerID, cp.accessToken = sellerID, accessToken
	return &cp
}

// Request describes one call in full, for tests that need to send what a
// well-behaved client would not: stale timestamps, reused nonces, another
// signature version, missing or extra headers.
type Request struct {
	// Method is sent as given; the signed string carries it uppercased.
	Method string
	// Path starts with '/'. It may carry "?query" when RawQuery is empty.
	Path string
	// RawQuery is sent verbatim after '?', and is what gets canonicalized.
	RawQuery string
	// Body is sent and hashed byte for byte.
	Body []byte
	// Gzip sends Body gzip-compressed with Content-Encoding: gzip, for the
	// routes that accept it (bulk product create): the signature covers
	// the compressed bytes, as sent.
	Gzip bool
	// Timestamp is the X-Platform-Timestamp value to sign and send; empty
	// means the current time (see signing.FormatTimestamp).
	Timestamp string
	// Nonce is the X-Platform-Nonce value to sign and send; empty means a
	// fresh one. Reusing a nonce on purpose exercises replay protection.
	Nonce string
	// Version is the X-Platform-Signature-Version value; empty means "3".
	// The signature is always computed with the version 3 algorithm.
	Version string
	// ExtraHeaders are set after signing and replace any header of the same
	// name, including the signature headers (to send a wrong signature, say).
	ExtraHeaders http.Header
	// OmitHeaders are deleted last, after ExtraHeaders.
	OmitHeaders []string
}

// Do signs and sends one request. pathAndQuery is the path with an optional
// raw query ("/open/v1/orders?status=SHIPPED"). A non-2xx answer is not an
// error: inspect Response.Status or call Response.Decode.
func (c *Client) Do(ctx context.Context, method, pathAndQuery string, body []byte) (*Response, error) {
	return c.DoSigned(ctx, Request{Method: method, Path: pathAndQuery, Body: body})
}

// DoSigned signs and sends req with its overrides applied.
func (c *Client) DoSigned(ctx context.Context, req Request) (*Response, error) {
	hr, err := c.NewRequest(ctx, req)
	if err != nil {
		return nil, err
	}
	return c.Send(hr)
}

// Send sends a request built by NewRequest, once, and reads the answer. A
// caller that shows what it signs (partnerctl --verbose) sends the very
// request it showed: signing again would draw another nonce.
func (c *Client) Send(hr *http.Request) (*Response, error) {
	resp, err := c.http.Do(hr)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err != nil {
		return nil, fmt.Errorf("sdk: reading response: %w", err)
	}
	if len(body) > MaxResponseBytes {
		return nil, fmt.Errorf("sdk: response body exceeds %d bytes", MaxResponseBytes)
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: body}, nil
}

// Call sends in (marshalled as JSON; nil sends no body) and decodes the
// envelope's data into out (nil ignores it). A failure envelope is returned
// as *APIError, together with the Response.
func (c *Client) Call(ctx context.Context, method, pathAndQuery string, in, out any) (*Response, error) {
	var body []byte
	if in != nil {
		var err error
		if body, err = jsonMarshal(in); err != nil {
			return nil, fmt.Errorf("sdk: encoding request body: %w", err)
		}
	}
	resp, err := c.Do(ctx, method, pathAndQuery, body)
	if err != nil {
		return nil, err
	}
	return resp, resp.Decode(out)
}

// NewRequest builds the signed *http.Request that DoSigned would send,
// without sending it (partnerctl prints it as a curl command).
func (c *Client) NewRequest(ctx context.Context, req Request) (*http.Request, error) {
	if req.Method == "" {
		return nil, errors.New("sdk: method is empty")
	}
	path, rawQuery := req.Path, req.RawQuery
	if p, q, ok := strings.Cut(path, "?"); ok {
		if rawQuery != "" {
			return nil, errors.New("sdk: query given both in Path and in RawQuery")
		}
		path, rawQuery = p, q
	}
	if !strings.HasPrefix(path, "/") {
		return nil, fmt.Errorf("sdk: path %q does not start with '/'", path)
	}
	if i := strings.IndexFunc(path+rawQuery, notOnWire); i >= 0 {
		return nil, fmt.Errorf("sdk: path or query contains %q, which cannot be sent verbatim; percent-encode it", (path + rawQuery)[i])
	}

	target := c.base + path
	if rawQuery != "" {
		target += "?" + rawQuery
	}
	if req.Gzip && len(req.Body) > 0 {
		compressed, err := Gzip(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = compressed
	}
	var body io.Reader = http.NoBody
	if len(req.Body) > 0 {
		body = bytes.NewReader(req.Body)
	}
	hr, err := http.NewRequestWithContext(ctx, req.Method, target, body)
	if err != nil {
		return nil, fmt.Errorf("sdk: %w", err)
	}

	// Sign the path and query exactly as net/http will write them in the
	// request line, not as they were given.
	wirePath := hr.URL.EscapedPath()
	if wirePath == "" {
		wirePath = "/"
	}
	ts := req.Timestamp
	if ts == "" {
		ts = signing.FormatTimestamp(c.now())
	}
	nonce := req.Nonce
	if nonce == "" {
		nonce = signing.NewNonce()
	}
	version := req.Version
	if version == "" {
		version = signing.Version
	}
	sr := signing.Request{
		Timestamp: ts,
		ClientID:  c.clientID,
		Method:    req.Method,
		Path:      wirePath,
		RawQuery:  hr.URL.RawQuery,
		Body:      req.Body,
		Nonce:     nonce,
	}
	sig, err := c.key.SignRequest(&sr)
	if err != nil {
		return nil, fmt.Errorf("sdk: query %q: %w", sr.RawQuery, err)
	}

	h := hr.Header
	signing.Headers{PartnerID: c.clientID, Timestamp: ts, SignatureVersion: version, Nonce: nonce, Signature: sig}.Set(h)
	if c.sellerID != "" || c.accessToken != "" {
		h.Set(signing.HeaderSellerID, c.sellerID)
		h.Set(signing.HeaderAccessToken, c.accessToken)
	}
	h.Set("Accept", "application/json")
	h.Set("User-Agent", userAgent)
	if len(req.Body) > 0 {
		h.Set("Content-Type", "application/json")
		if req.Gzip {
			h.Set("Content-Encoding", "gzip")
		}
	}
	for name, values := range req.ExtraHeaders {
		h.Del(name)
		for _, v := range values {
			h.Add(name, v)
		}
	}
	for _, name := range req.OmitHeaders {
		h.Del(name)
	}
	return hr, nil
}

// notOnWire reports the characters that net/http would either reject or
// send in a form other than the one signed: space, controls, '#' (it starts
// a fragment, which is never sent).
func notOnWire(r rune) bool { return r <= ' ' || r == 0x7f || r == '#' }
