package iplimit_test

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/gateway/iplimit"
)

func TestClientIP(t *testing.T) {
	trusted := []netip.Prefix{
		netip.MustParsePrefix("10.0.0.0/8"),
		netip.MustParsePrefix("fd00::/8"),
	}
	for _, c := range []struct {
		name   string
		remote string
		xff    []string
		want   string
	}{
		{"direct client", "203.0.113.9:5555", nil, "203.0.113.9"},
		{"untrusted peer's header is ignored", "203.0.113.9:5555", []string{"198.51.100.1"}, "203.0.113.9"},
		{"untrusted peer claiming to be a proxy", "203.0.113.9:5555", []string{"10.0.0.1"}, "203.0.113.9"},
		{"trusted proxy without header", "10.1.2.3:80", nil, "10.1.2.3"},
		{"one trusted hop", "10.1.2.3:80", []string{"198.51.100.1"}, "198.51.100.1"},
		{"spoofed entries left of the real client", "10.1.2.3:80", []string{"1.1.1.1, 2.2.2.2, 198.51.100.1"}, "198.51.100.1"},
		{"spoofed trusted-looking entry left of the client", "10.1.2.3:80", []string{"10.9.9.9, 198.51.100.1"}, "198.51.100.1"},
		{"chain of trusted proxies", "10.1.2.3:80", []string{"198.51.100.1, 10.0.0.7, 10.0.0.8"}, "198.51.100.1"},
		{"only trusted hops: the leftmost", "10.1.2.3:80", []string{"10.0.0.5, 10.0.0.6"}, "10.0.0.5"},
		{"several header lines, proxy appended to the last", "10.1.2.3:80", []string{"1.1.1.1", "198.51.100.1"}, "198.51.100.1"},
		{"client sent its own line before the proxy's", "10.1.2.3:80", []string{"1.1.1.1", "10.0.0.9, 198.51.100.1"}, "198.51.100.1"},
		{"trusted line end, client in an earlier line", "10.1.2.3:80", []string{"198.51.100.1", "10.0.0.9"}, "198.51.100.1"},
		{"garbage at the right stops at the proxy", "10.1.2.3:80", []string{"198.51.100.1, not-an-ip"}, "10.1.2.3"},
		{"unknown token after a trusted hop", "10.1.2.3:80", []string{"1.1.1.1, unknown, 10.0.0.4"}, "10.0.0.4"},
		{"garbage left of the client is never read", "10.1.2.3:80", []string{"<script>, 198.51.100.1"}, "198.51.100.1"},
		{"empty entries skipped", "10.1.2.3:80", []string{" , 198.51.100.1 ,, "}, "198.51.100.1"},
		{"entry with port", "10.1.2.3:80", []string{"198.51.100.1:4711"}, "198.51.100.1"},
		{"bracketed IPv6 with port", "10.1.2.3:80", []string{"[2001:db8::5]:443"}, "2001:db8::5"},
		{"bracketed IPv6", "10.1.2.3:80", []string{"[2001:db8::5]"}, "2001:db8::5"},
		{"IPv6 proxy and client", "[fd00::1]:80", []string{"2001:db8::5"}, "2001:db8::5"},
		{"IPv4-mapped client is IPv4", "10.1.2.3:80", []string{"::ffff:198.51.100.1"}, "198.51.100.1"},
		{"IPv4-mapped peer matches IPv4 prefix", "[::ffff:10.1.2.3]:80", []string{"198.51.100.1"}, "198.51.100.1"},
		{"zone dropped", "[fe80::1%eth0]:80", nil, "fe80::1"},
		{"injected comma-joined header value", "10.1.2.3:80", []string{"198.51.100.1,203.0.113.200"}, "203.0.113.200"},
		{"remote addr without port", "203.0.113.9", nil, "203.0.113.9"},
		{"remote addr not an address", "@", []string{"198.51.100.1"}, "@"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/open/v1/orders", nil)
			r.RemoteAddr = c.remote
			for _, v := range c.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := iplimit.ClientIP(r, trusted); got != c.want {
				t.Fatalf("ClientIP = %q, want %q", got, c.want)
			}
		})
	}
}

func TestClientIPNoTrustedProxies(t *testing.T) {
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.RemoteAddr = "10.1.2.3:80"
	r.Header.Set("X-Forwarded-For", "198.51.100.1")
	if got := iplimit.ClientIP(r, nil); got != "10.1.2.3" {
		t.Fatalf("without trusted proxies ClientIP = %q, want the peer", got)
	}
}

func TestClientIPHugeHeader(t *testing.T) {
	// Padding the header with thousands of entries, trusted-looking or
	// not, must not move the answer away from the address our proxy wrote.
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.RemoteAddr = "10.1.2.3:80"
	for _, pad := range []string{"10.0.0.1, ", "1.2.3.4, ", "x, "} {
		r.Header.Set("X-Forwarded-For", strings.Repeat(pad, 50_000)+"198.51.100.1")
		if got := iplimit.ClientIP(r, trusted); got != "198.51.100.1" {
			t.Fatalf("padding %q: ClientIP = %q", pad, got)
		}
	}
}

func FuzzClientIP(f *testing.F) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	f.Add("10.1.2.3:80", "198.51.100.1, 10.0.0.2")
	f.Add("203.0.113.1:80", "198.51.100.1")
	f.Add("10.1.2.3:80", "[::1]:1,,,unknown")
	f.Fuzz(func(t *testing.T, remote, xff string) {
		r := &http.Request{RemoteAddr: remote, Header: http.Header{"X-Forwarded-For": {xff}}}
		got := iplimit.ClientIP(r, trusted)
		peer, err := netip.ParseAddrPort(remote)
		if err != nil {
			return
		}
		if p := peer.Addr().Unmap().WithZone(""); !trusted[0].Contains(p) && got != p.String() {
			t.Fatalf("untrusted peer %q with X-Forwarded-For %q counted as %q", remote, xff, got)
		}
		if _, err := netip.ParseAddr(got); err != nil {
			t.Fatalf("ClientIP(%q, %q) = %q is not an address", remote, xff, got)
		}
	})
}
