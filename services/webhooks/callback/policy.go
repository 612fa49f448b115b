// Package callback holds the rules a webhook callback URL must meet: its form
// (scheme, length, host) and its addresses (every one the host resolves to
// must be public). Subscriptions check a URL with Policy.Check when it is set;
// the delivery client (services/webhooks/delivery) resolves and checks it
// again with Policy.Resolve before every attempt and dials only the addresses
// that passed.
package callback

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// MaxURLLength is the longest callback URL accepted, in characters.
const MaxURLLength = 2048

// resolveTimeout bounds one lookup, so a slow name server cannot hold a
// subscription request or a delivery for the caller's whole deadline.
const resolveTimeout = 5 * time.Second

// The causes behind a refusal, for errors.Is. Check's callers only show the
// *apierr.Error; the delivery client tells an unresolvable host (no attempt
// is made) from one that resolves where it must not.
var (
	ErrForm        = errors.New("callback URL is malformed")
	ErrNotResolved = errors.New("callback host does not resolve")
	ErrNotPublic   = errors.New("callback host resolves to an address that is not public")
)

// Policy is the URL rule set of one deployment.
type Policy struct {
	AllowHTTP bool           // sandbox: plain http is accepted too
	Allow     []netip.Prefix // MP_WEBHOOK_ALLOW_CIDRS: ranges exempt from the public-address rule
	// Resolver looks the host up; nil means net.DefaultResolver.
	Resolver interface {
		LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
	}
}

// Check validates a callback URL for a subscription: form, scheme, length,
// resolution, every address public. Errors are *apierr.Error with the code
// VALIDATION_ERROR (docs/decisions.md, "Webhook delivery").
func (p Policy) Check(ctx context.Context, raw string) (*url.URL, error) {
	u, _, err := p.Resolve(ctx, raw)
	return u, err
}

// Resolve is Check that also returns the addresses the host resolved to,
// each of them checked, in the resolver's order: the only addresses a
// delivery may dial. A host written as an IP address resolves to itself.
func (p Policy) Resolve(ctx context.Context, raw string) (*url.URL, []netip.Addr, error) {
	u, literal, err := p.parse(raw)
	if err != nil {
		return nil, nil, err
	}
	var addrs []netip.Addr
	if literal.IsValid() {
		addrs = []netip.Addr{literal}
	} else if addrs, err = p.lookup(ctx, u.Hostname()); err != nil {
		return nil, nil, err
	}
	for _, a := range addrs {
		if err := p.CheckAddr(a); err != nil {
			return nil, nil, apierr.Wrap(apierr.ValidationError, err,
				fmt.Sprintf("callbackUrl: %s resolves to %s, %s; it must resolve to public addresses only",
					u.Hostname(), a, describe(a)))
		}
	}
	return u, addrs, nil
}

func formError(message string) error {
	return apierr.Wrap(apierr.ValidationError, ErrForm, "callbackUrl: "+message)
}

// parse applies the rules of form. It returns the host as an address when
// the URL names one.
func (p Policy) parse(raw string) (*url.URL, netip.Addr, error) {
	var none netip.Addr
	if len(raw) > MaxURLLength {
		return nil, none, formError("must be at most " + strconv.Itoa(MaxURLLength) + " characters")
	}
	// ASCII only: what is checked is then exactly what is sent, with no
	// second reading of the host by IDNA or percent-decoding along the way.
	for i := 0; i < len(raw); i++ {
		if raw[i] <= ' ' || raw[i] >= 0x7f {
			return nil, none, formError("must be printable ASCII without spaces (percent-encode the path; write an internationalised host name in its xn-- form)")
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, none, formError("is not a valid URL")
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && p.AllowHTTP:
	case u.Scheme == "http":
		return nil, none, formError("must use https")
	default:
		return nil, none, formError("must be an absolute https URL")
	}
	if u.Opaque != "" || u.Host == "" || u.Hostname() == "" {
		return nil, none, formError("must be an absolute URL with a host")
	}
	// Credentials in a URL end up in logs and in every listing of the
	// subscription; the signature authenticates the platform instead.
	if u.User != nil {
		return nil, none, formError("must not carry a user name or password")
	}
	if strings.Contains(raw, "#") {
		return nil, none, formError("must not carry a fragment")
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return nil, none, formError("has an invalid port")
		}
	}
	host := u.Hostname()
	if a, err := netip.ParseAddr(host); err == nil {
		if a.Zone() != "" {
			return nil, none, formError("must not name an IPv6 zone")
		}
		return u, a.Unmap(), nil
	}
	if err := checkHostName(host); err != nil {
		return nil, none, err
	}
	return u, none, nil
}

// checkHostName accepts DNS names only. A host whose last label is a number
// is an IPv4 address to URL parsers and to getaddrinfo (2130706433, 127.1,
// 0177.0.0.1, 0x7f.1): only the canonical dotted quad, which netip parsed
// above, is accepted, so no resolver ever reads another spelling.
func checkHostName(host string) error {
	name := strings.TrimSuffix(host, ".")
	if len(name) == 0 || len(name) > 253 {
		return formError("has an invalid host name")
	}
	labels := strings.Split(name, ".")
	if numeric(labels[len(labels)-1]) {
		return formError("writes an IPv4 address in a non-canonical form; use four decimal parts without leading zeros")
	}
	for _, l := range labels {
		if len(l) == 0 || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return formError("has an invalid host name")
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return formError("has an invalid host name")
			}
		}
	}
	return nil
}

// numeric reports whether a label reads as a number in an IPv4 address:
// decimal, octal (leading 0) or hexadecimal (0x).
func numeric(label string) bool {
	digits := label
	hex := false
	if len(label) >= 2 && label[0] == '0' && (label[1] == 'x' || label[1] == 'X') {
		digits, hex = label[2:], true
		if digits == "" {
			return true // "0x" alone is zero to inet_aton
		}
	}
	if digits == "" {
		return false
	}
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if !(c >= '0' && c <= '9' || hex && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) {
			return false
		}
	}
	return true
}

func (p Policy) lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	ctx, cancel := context.WithTimeout(ctx, resolveTimeout)
	defer cancel()
	var r interface {
		LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
	} = net.DefaultResolver
	if p.Resolver != nil {
		r = p.Resolver
	}
	found, err := r.LookupNetIP(ctx, "ip", host)
	if err == nil && len(found) == 0 {
		err = errors.New("no addresses")
	}
	if err != nil {
		return nil, apierr.Wrap(apierr.ValidationError, fmt.Errorf("%w: %w", ErrNotResolved, err),
			fmt.Sprintf("callbackUrl: host %s does not resolve", host))
	}
	// The resolver may hand IPv4 answers back in their IPv4-mapped IPv6 form;
	// addresses are checked and dialled as IPv4.
	addrs := make([]netip.Addr, 0, len(found))
	for _, a := range found {
		a = a.Unmap()
		dup := false
		for _, b := range addrs {
			dup = dup || a == b
		}
		if !dup {
			addrs = append(addrs, a)
		}
	}
	return addrs, nil
}
