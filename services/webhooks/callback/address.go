package callback

import (
	"fmt"
	"net/netip"
	"syscall"

	"code.dny.dev/ssrf"
)

// The public-address rule is code.dny.dev/ssrf's: an IPv4 address is refused
// when it lies in a prefix of IANA's IPv4 special-purpose registry (private,
// loopback, link-local with the metadata address, carrier-grade NAT, "this
// network", documentation, benchmarking, reserved, multicast, broadcast); an
// IPv6 address when it lies outside global unicast 2000::/3 (loopback,
// unspecified, unique-local with fd00:ec2::254, link-local, multicast,
// IPv4-mapped, IPv4-compatible and NAT64 forms) or in a special-purpose prefix
// inside it (Teredo, 6to4, documentation). IPv4-mapped addresses are unmapped
// before the check, so they meet the IPv4 rule.

// neverAllowed are addresses no MP_WEBHOOK_ALLOW_CIDRS entry exempts: the
// exemption is for on-premises receivers and local tests, and none of them
// is a metadata service, a broadcast or multicast group, or "any address".
var neverAllowed = []netip.Prefix{
	netip.MustParsePrefix("169.254.169.254/32"), // cloud metadata (AWS, GCP, Azure, ...)
	netip.MustParsePrefix("fd00:ec2::254/128"),  // AWS metadata over IPv6
	netip.MustParsePrefix("0.0.0.0/8"),          // unspecified: dials the local host
	netip.MustParsePrefix("::/128"),             // unspecified
	netip.MustParsePrefix("224.0.0.0/4"),        // multicast
	netip.MustParsePrefix("ff00::/8"),           // multicast
	netip.MustParsePrefix("255.255.255.255/32"), // limited broadcast
}

// guardian is the dialer guard for this policy: any port, tcp only, the
// Allow prefixes exempt.
func (p Policy) guardian() *ssrf.Guardian {
	var v4, v6 []netip.Prefix
	for _, pre := range p.Allow {
		if pre.Addr().Is4() {
			v4 = append(v4, pre)
		} else {
			v6 = append(v6, pre)
		}
	}
	return ssrf.New(ssrf.WithAnyPort(), ssrf.WithAllowedV4Prefixes(v4...), ssrf.WithAllowedV6Prefixes(v6...))
}

// CheckAddr returns nil when a may receive deliveries: public, or in an
// Allow prefix and not one of the addresses nothing exempts.
func (p Policy) CheckAddr(a netip.Addr) error {
	return p.checkAddr(p.guardian(), a)
}

func (p Policy) checkAddr(g *ssrf.Guardian, a netip.Addr) error {
	if !a.IsValid() || a.Zone() != "" {
		return fmt.Errorf("%w: %s", ErrNotPublic, a)
	}
	a = a.Unmap()
	for _, pre := range neverAllowed {
		if pre.Contains(a) {
			return fmt.Errorf("%w: %s", ErrNotPublic, a)
		}
	}
	if err := g.SafeAddr(a); err != nil {
		return fmt.Errorf("%w: %w", ErrNotPublic, err)
	}
	return nil
}

// DialControl returns a net.Dialer Control function that refuses a socket
// whose address fails CheckAddr, before it connects: the last guard, under
// the delivery client's own resolve-check-dial.
func (p Policy) DialControl() func(network, address string, c syscall.RawConn) error {
	g := p.guardian()
	return func(network, address string, _ syscall.RawConn) error {
		if network != "tcp4" && network != "tcp6" {
			return fmt.Errorf("%w: network %s", ErrNotPublic, network)
		}
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("%w: %s", ErrNotPublic, address)
		}
		return p.checkAddr(g, ap.Addr())
	}
}

var (
	cgnat    = netip.MustParsePrefix("100.64.0.0/10")
	nat64    = []netip.Prefix{netip.MustParsePrefix("64:ff9b::/96"), netip.MustParsePrefix("64:ff9b:1::/48")}
	v4compat = netip.MustParsePrefix("::/96")
)

// describe names the kind of a refused address for the partner's message.
func describe(a netip.Addr) string {
	a = a.Unmap()
	switch {
	case a == netip.MustParseAddr("169.254.169.254") || a == netip.MustParseAddr("fd00:ec2::254"):
		return "a cloud metadata address"
	case a.IsUnspecified():
		return "the unspecified address"
	case a.IsLoopback():
		return "a loopback address"
	case a.IsPrivate():
		return "a private address"
	case a.IsLinkLocalUnicast():
		return "a link-local address"
	case cgnat.Contains(a):
		return "a carrier-grade NAT address"
	case a.IsMulticast():
		return "a multicast address"
	case a == netip.MustParseAddr("255.255.255.255"):
		return "the broadcast address"
	case nat64[0].Contains(a) || nat64[1].Contains(a):
		return "a NAT64 address"
	case a.Is6() && v4compat.Contains(a):
		return "an IPv4-compatible IPv6 address"
	}
	return "an address reserved for special use"
}
