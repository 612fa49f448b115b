package callback

import (
	"context"
	"net/netip"
	"strings"
	"testing"
)

// anyName resolves every name to one public address and records the name.
type anyName struct{ asked string }

func (r *anyName) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.asked = host
	return []netip.Addr{netip.MustParseAddr("8.8.8.8")}, nil
}

// Whatever a partner sends, an accepted URL is short printable ASCII over
// https without credentials, its host is a public canonical address or a DNS
// name that no resolver reads as a number, and the name looked up is the
// host the request goes to.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		"https://hooks.partner.example/x", "https://2130706433/", "https://0177.0.0.1/", "https://127.1/",
		"https://[::ffff:127.0.0.1]/", "https://[64:ff9b::7f00:1]/", "https://a@b.example/", "https://8.8.8.8:443/",
		"https://hooks.partner.example%2e/", "https://hooks.partner.example.0x1/", "http://x.example/", "https://[fe80::1%25en0]/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		r := &anyName{}
		u, err := Policy{Resolver: r}.Check(context.Background(), raw)
		if err != nil {
			return
		}
		if len(raw) > MaxURLLength || u.Scheme != "https" || u.User != nil || strings.ContainsAny(raw, " #") {
			t.Fatalf("accepted %q", raw)
		}
		host := u.Hostname()
		if a, perr := netip.ParseAddr(host); perr == nil {
			if (Policy{}).CheckAddr(a) != nil || r.asked != "" {
				t.Fatalf("accepted %q: address %s", raw, a)
			}
			return
		}
		labels := strings.Split(strings.TrimSuffix(host, "."), ".")
		if numeric(labels[len(labels)-1]) || r.asked != host {
			t.Fatalf("accepted %q: host %q, looked up %q", raw, host, r.asked)
		}
	})
}
