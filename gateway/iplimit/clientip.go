package iplimit

import (
	"net/http"
	"net/netip"
	"strings"
)

// ClientIP returns the address a request is counted against.
//
// X-Forwarded-For is honoured only when the direct peer (RemoteAddr) is in
// trustedProxies, and then it is read from the right: each trusted proxy
// appends the address it received the request from, so the rightmost address
// that is not a trusted proxy is the client as seen by our own edge. Anything
// to its left was written by the client and is ignored; taking the leftmost
// entry would let any client choose its own bucket.
//
// An entry that is not an address ("unknown", garbage, an injected
// header fragment) stops the walk: it cannot have been written by a trusted
// proxy, so the nearest trusted hop to its right is returned instead. When
// every entry is a trusted proxy (internal traffic), the leftmost one is
// returned. The Forwarded header (RFC 7239) and X-Real-IP are not read: our
// load balancers write X-Forwarded-For, and honouring several headers only
// widens what a client can spoof.
//
// trustedProxies must list only our own load balancers and proxies; a prefix
// that clients can send from makes X-Forwarded-For spoofable. IPv4 prefixes
// are written as IPv4 (IPv4-mapped IPv6 addresses are compared as IPv4).
//
// The result is an address without port or zone, or RemoteAddr unchanged
// when it is not an address.
func ClientIP(r *http.Request, trustedProxies []netip.Prefix) string {
	peer, ok := parseHost(r.RemoteAddr)
	if !ok {
		return r.RemoteAddr
	}
	if !contains(trustedProxies, peer) {
		return addrString(peer, r.RemoteAddr)
	}
	hop := peer
	values := r.Header.Values("X-Forwarded-For")
	// Proxies append to the last header line, so lines are read from the end
	// like the entries within a line.
	for i := len(values) - 1; i >= 0; i-- {
		rest := values[i]
		for rest != "" {
			j := strings.LastIndexByte(rest, ',')
			elem := strings.TrimSpace(rest[j+1:])
			rest = rest[:max(j, 0)]
			if elem == "" {
				continue
			}
			a, ok := parseHost(elem)
			if !ok {
				return hop.String()
			}
			if !contains(trustedProxies, a) {
				return a.String()
			}
			hop = a
		}
	}
	return hop.String()
}

// parseHost parses an address as it appears in RemoteAddr or in
// X-Forwarded-For: bare, with a port, or bracketed IPv6.
func parseHost(s string) (netip.Addr, bool) {
	if strings.Count(s, ":") == 1 {
		// IPv4 with a port, RemoteAddr's usual form: parsed as such
		// directly rather than after a failed (and allocating) bare parse.
		if ap, err := netip.ParseAddrPort(s); err == nil {
			return ap.Addr().Unmap().WithZone(""), true
		}
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		ap, err2 := netip.ParseAddrPort(s)
		switch {
		case err2 == nil:
			a = ap.Addr()
		case len(s) > 2 && s[0] == '[' && s[len(s)-1] == ']':
			if a, err = netip.ParseAddr(s[1 : len(s)-1]); err != nil {
				return netip.Addr{}, false
			}
		default:
			return netip.Addr{}, false
		}
	}
	return a.Unmap().WithZone(""), true
}

func contains(prefixes []netip.Prefix, a netip.Addr) bool {
	for _, p := range prefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// addrString is a.String(), taken from s (the text a was parsed from) when s
// starts with exactly that text: an IPv4 address in dotted decimal, as
// parsed, has one spelling, so no new string is needed.
func addrString(a netip.Addr, s string) string {
	if a.Is4() {
		var buf [15]byte
		t := a.AppendTo(buf[:0])
		if len(s) >= len(t) && s[:len(t)] == string(t) && (len(s) == len(t) || s[len(t)] == ':') {
			return s[:len(t)]
		}
	}
	return a.String()
}
