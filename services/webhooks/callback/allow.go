package callback

import (
	"fmt"
	"net/netip"
	"strings"
)

// ParseAllowCIDRs reads MP_WEBHOOK_ALLOW_CIDRS: comma-separated CIDR prefixes
// (a bare address is one host), empty for none. A prefix with host bits set
// or an IPv4-mapped IPv6 prefix is refused rather than guessed at: the
// setting widens what the platform may dial, so a typo must stop start-up.
func ParseAllowCIDRs(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		var pre netip.Prefix
		if strings.Contains(f, "/") {
			var err error
			if pre, err = netip.ParsePrefix(f); err != nil {
				return nil, fmt.Errorf("MP_WEBHOOK_ALLOW_CIDRS: %q is not a CIDR prefix", f)
			}
		} else {
			a, err := netip.ParseAddr(f)
			if err != nil || a.Zone() != "" {
				return nil, fmt.Errorf("MP_WEBHOOK_ALLOW_CIDRS: %q is not a CIDR prefix", f)
			}
			pre = netip.PrefixFrom(a, a.BitLen())
		}
		if pre.Addr().Is4In6() {
			return nil, fmt.Errorf("MP_WEBHOOK_ALLOW_CIDRS: %q: write IPv4 ranges in IPv4 form", f)
		}
		if pre != pre.Masked() {
			return nil, fmt.Errorf("MP_WEBHOOK_ALLOW_CIDRS: %q has host bits set (did you mean %s?)", f, pre.Masked())
		}
		out = append(out, pre)
	}
	return out, nil
}
