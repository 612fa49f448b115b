// Package delivery sends one webhook event to a callback URL: it resolves
// the host and checks every address with the subscription's rules
// (services/webhooks/callback) before each attempt, dials only an address
// that passed (no second lookup, so DNS rebinding gets nowhere), signs the
// request the Standard Webhooks way, follows at most one redirect after
// checking its target the same way, and reports what happened for the
// attempt log. Retries and disabling are the caller's, on NextAttempt and
// ShouldDisable.
package delivery

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mallplatform/partnerapi/sdk/webhook"
	"github.com/mallplatform/partnerapi/services/webhooks/callback"
)

const (
	// Timeout bounds a whole exchange: lookups, connection, TLS, request,
	// response and the one redirect.
	Timeout = 10 * time.Second
	// MaxResponseBody is how much of the receiver's answer is kept for the
	// attempt log; the rest is never read.
	MaxResponseBody = 4 << 10
	// MaxRedirects is how many redirects one delivery follows.
	MaxRedirects = 1
	// maxResponseHeaderBytes bounds the receiver's response headers.
	maxResponseHeaderBytes = 16 << 10
	userAgent              = "PartnerAPI-Webhooks/1"
	// maxIdleConnsPerHost matches a worker's delivery concurrency
	// (webhooks.DefaultConcurrency), so one receiver's deliveries reuse
	// their connections; maxIdleConns bounds all receivers together.
	maxIdleConnsPerHost = 100
	maxIdleConns        = 512
)

// Errors of a delivery that did not succeed, for errors.Is. A refusal by the
// URL rules also carries callback.ErrNotResolved, ErrNotPublic or ErrForm.
var (
	ErrRefused          = errors.New("callback URL refused")
	ErrTooManyRedirects = errors.New("receiver redirected more than once")
	ErrRedirectNoTarget = errors.New("receiver redirected without a usable Location")
	ErrStatus           = errors.New("receiver did not answer 2xx")
	ErrRequest          = errors.New("delivery request is invalid")
	errNoCheckedAddress = errors.New("no checked address for this host")
)

// Request is one delivery attempt of one event.
type Request struct {
	URL       string
	ID        string    // webhook-id: the event's id, the same on every attempt
	Timestamp time.Time // webhook-timestamp: this attempt's time; zero means now
	Body      []byte    // the event JSON
	Secrets   []string  // the subscription's secrets (two during a rotation)
}

// Result is what one attempt did, for the attempt log and the retry decision.
type Result struct {
	Status    int           // the last response's status, 0 when none came
	Duration  time.Duration // the whole exchange
	Body      []byte        // up to MaxResponseBody of the last response
	Err       error         // nil exactly when the receiver answered 2xx
	Gone      bool          // the receiver answered 410: the caller stops the subscription
	Attempted bool          // the URL passed its checks and the request was sent or tried
}

// Client delivers webhooks. It is safe for concurrent use.
type Client struct {
	policy    callback.Policy
	timeout   time.Duration
	rootCAs   *x509.CertPool
	transport *http.Transport
	// dial connects to one checked address; tests replace it to see where
	// a delivery would connect without connecting.
	dial func(ctx context.Context, network, address string) (net.Conn, error)
}

// New returns a client that applies p at every delivery.
func New(p callback.Policy) *Client {
	c := &Client{policy: p, timeout: Timeout}
	d := &net.Dialer{Control: p.DialControl()}
	c.dial = d.DialContext
	c.transport = c.newTransport()
	return c
}

// WithRootCAs returns a client that trusts pool instead of the system's
// roots (a receiver on an internal CA; tests).
func (c *Client) WithRootCAs(pool *x509.CertPool) *Client {
	n := &Client{policy: c.policy, timeout: c.timeout, rootCAs: pool, dial: c.dial}
	n.transport = n.newTransport()
	return n
}

// CloseIdleConnections closes the connections kept for later deliveries
// (at shutdown, or after the allow list changed).
func (c *Client) CloseIdleConnections() { c.transport.CloseIdleConnections() }

func (c *Client) newTransport() *http.Transport {
	return &http.Transport{
		Proxy:              nil, // the checked address is the one dialled, never a proxy's
		DialContext:        c.dialChecked,
		TLSClientConfig:    &tls.Config{RootCAs: c.rootCAs, MinVersion: tls.VersionTLS12},
		ForceAttemptHTTP2:  true,
		DisableCompression: true, // the kept body is the bytes the receiver sent
		// A busy receiver takes many deliveries at once: keeping their
		// connections saves a TLS handshake on each (most of a delivery's
		// cost on both sides).
		MaxIdleConns:           maxIdleConns,
		MaxIdleConnsPerHost:    maxIdleConnsPerHost,
		IdleConnTimeout:        90 * time.Second,
		MaxResponseHeaderBytes: maxResponseHeaderBytes,
	}
}

// target is the checked address set of the hop in flight, carried to the
// transport's dial in the request's context.
type target struct {
	host  string
	addrs []netip.Addr
}

type targetKey struct{}

// dialChecked connects to one of the addresses Resolve checked for this
// hop's host, in order, and never looks a name up. A pooled connection to
// the host, when the transport has one, was dialled the same way.
func (c *Client) dialChecked(ctx context.Context, network, address string) (net.Conn, error) {
	t, _ := ctx.Value(targetKey{}).(*target)
	host, port, err := net.SplitHostPort(address)
	if err != nil || t == nil || !strings.EqualFold(host, t.host) {
		return nil, errNoCheckedAddress
	}
	p, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return nil, errNoCheckedAddress
	}
	var errs []error
	for _, a := range t.addrs {
		conn, err := c.dial(ctx, "tcp", netip.AddrPortFrom(a, uint16(p)).String())
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, errors.Join(errs...)
}

// Deliver makes one delivery attempt of r.
func (c *Client) Deliver(ctx context.Context, r Request) (res Result) {
	start := time.Now()
	defer func() { res.Duration = time.Since(start) }()
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()

	if r.ID == "" || !printable(r.ID) {
		res.Err = fmt.Errorf("%w: webhook-id must be printable ASCII", ErrRequest)
		return res
	}
	ts := r.Timestamp
	if ts.IsZero() {
		ts = time.Now()
	}
	sig, err := webhook.Sign(r.ID, ts, r.Body, r.Secrets)
	if err != nil {
		res.Err = fmt.Errorf("%w: %w", ErrRequest, err)
		return res
	}
	header := http.Header{}
	header.Set("Content-Type", "application/json")
	header.Set("User-Agent", userAgent)
	header.Set("Webhook-Id", r.ID)
	header.Set("Webhook-Timestamp", strconv.FormatInt(ts.Unix(), 10))
	header.Set("Webhook-Signature", sig)

	raw := r.URL
	for hop := 0; ; hop++ {
		u, addrs, err := c.policy.Resolve(ctx, raw)
		if err != nil {
			res.Err = fmt.Errorf("%w: %w", ErrRefused, err)
			return res
		}
		resp, err := c.send(ctx, u, addrs, header, r.Body, &res.Attempted)
		if err != nil {
			res.Err = err
			return res
		}
		res.Status = resp.StatusCode
		res.Body, _ = io.ReadAll(io.LimitReader(resp.Body, MaxResponseBody))
		resp.Body.Close()
		if isRedirect(resp.StatusCode) {
			if hop == MaxRedirects {
				res.Err = ErrTooManyRedirects
				return res
			}
			next, err := redirectTarget(u, resp.Header.Get("Location"))
			if err != nil {
				res.Err = err
				return res
			}
			raw = next
			continue
		}
		res.Gone = resp.StatusCode == http.StatusGone
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			res.Err = fmt.Errorf("%w: %d", ErrStatus, resp.StatusCode)
		}
		return res
	}
}

// send POSTs the event to u, dialling only addrs.
func (c *Client) send(ctx context.Context, u *url.URL, addrs []netip.Addr, header http.Header, body []byte, attempted *bool) (*http.Response, error) {
	ctx = context.WithValue(ctx, targetKey{}, &target{host: u.Hostname(), addrs: addrs})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrRequest, err)
	}
	req.Header = header.Clone()
	// From here the receiver may see the request (a pooled connection needs
	// no dial), so the attempt counts.
	*attempted = true
	return c.transport.RoundTrip(req)
}

// isRedirect: the receiver moved. Every kind is followed with the same POST,
// body and signature (which covers the body, not the URL): a webhook is
// only ever a POST, and a GET to the new place would deliver nothing.
func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

func redirectTarget(from *url.URL, location string) (string, error) {
	if location == "" {
		return "", ErrRedirectNoTarget
	}
	next, err := from.Parse(location)
	if err != nil {
		return "", ErrRedirectNoTarget
	}
	return next.String(), nil
}

func printable(s string) bool {
	if len(s) > 255 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
