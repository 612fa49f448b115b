package callback

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// resolver answers from a table and counts lookups; a host not in the table
// does not resolve.
type resolver struct {
	answers map[string][]netip.Addr
	calls   atomic.Int32
}

func (r *resolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.calls.Add(1)
	a, ok := r.answers[host]
	if !ok {
		return nil, errors.New("no such host")
	}
	return a, nil
}

func addrs(ss ...string) []netip.Addr {
	out := make([]netip.Addr, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParseAddr(s)
	}
	return out
}

// refusedAddrs are every range the tracker names, in each IPv6 form that
// carries an IPv4 address (mapped, NAT64, compatible).
var refusedAddrs = []string{
	"10.0.0.1", "10.255.255.255", // private 10/8
	"172.16.0.1", "172.31.255.254", // private 172.16/12
	"192.168.0.1", "192.168.255.254", // private 192.168/16
	"fc00::1", "fd12:3456::1", // unique local fc00::/7
	"127.0.0.1", "127.255.255.254", "::1", // loopback
	"169.254.0.1", "169.254.255.254", "fe80::1", "febf::1", // link-local
	"100.64.0.1", "100.127.255.254", // carrier-grade NAT
	"169.254.169.254", "fd00:ec2::254", // cloud metadata
	"0.0.0.0", "0.1.2.3", "::", // unspecified, "this network"
	"224.0.0.1", "239.255.255.250", "ff02::1", "ff05::2", // multicast
	"255.255.255.255", // broadcast
	"::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:172.16.0.1", "::ffff:192.168.1.1",
	"::ffff:169.254.169.254", "::ffff:100.64.0.1", "::ffff:0.0.0.0", "::ffff:224.0.0.1", "::ffff:255.255.255.255",
	"64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b::ac10:1", "64:ff9b::c0a8:101", // NAT64 of loopback, private
	"64:ff9b::a9fe:a9fe", "64:ff9b::6440:1", "64:ff9b::", "64:ff9b::e000:1", "64:ff9b::ffff:ffff", // metadata, CGNAT, unspecified, multicast, broadcast
	"64:ff9b:1::a00:1",          // local-use NAT64
	"::127.0.0.1", "::10.0.0.1", // IPv4-compatible
}

var publicAddrs = []string{"8.8.8.8", "1.1.1.1", "2001:4860:4860::8888", "2606:4700:4700::1111", "::ffff:8.8.8.8"}

func host(a string) string {
	if strings.Contains(a, ":") {
		return "[" + a + "]"
	}
	return a
}

func wantRefusal(t *testing.T, err error, cause error) {
	t.Helper()
	e, ok := apierr.As(err)
	if !ok || e.Code != apierr.ValidationError {
		t.Fatalf("err = %v, want a VALIDATION_ERROR", err)
	}
	if !strings.HasPrefix(e.Message, "callbackUrl: ") || len(e.Message) > apierr.MaxMessageBytes {
		t.Errorf("message %q: want the field named, within the bound", e.Message)
	}
	if !errors.Is(err, cause) {
		t.Errorf("err = %v, want cause %v", err, cause)
	}
}

func TestCheckRefusesEveryNonPublicAddress(t *testing.T) {
	for _, a := range refusedAddrs {
		t.Run(a, func(t *testing.T) {
			r := &resolver{answers: map[string][]netip.Addr{"hooks.partner.example": addrs(a)}}
			p := Policy{Resolver: r}
			_, err := p.Check(context.Background(), "https://"+host(a)+"/hook")
			wantRefusal(t, err, ErrNotPublic)
			_, err = p.Check(context.Background(), "https://hooks.partner.example/hook")
			wantRefusal(t, err, ErrNotPublic)
			if r.calls.Load() != 1 {
				t.Errorf("%d lookups, want 1 (an address literal is not looked up)", r.calls.Load())
			}
		})
	}
}

func TestCheckAcceptsPublicAddresses(t *testing.T) {
	r := &resolver{answers: map[string][]netip.Addr{"hooks.partner.example": addrs(publicAddrs...)}}
	p := Policy{Resolver: r}
	for _, a := range publicAddrs {
		if _, err := p.Check(context.Background(), "https://"+host(a)+":8443/hook?x=1"); err != nil {
			t.Errorf("%s: %v", a, err)
		}
	}
	u, got, err := p.Resolve(context.Background(), "https://hooks.partner.example/hook")
	if err != nil || u.Hostname() != "hooks.partner.example" {
		t.Fatalf("Resolve = %v, %v", u, err)
	}
	// ::ffff:8.8.8.8 is 8.8.8.8 once unmapped, and listed once.
	want := addrs("8.8.8.8", "1.1.1.1", "2001:4860:4860::8888", "2606:4700:4700::1111")
	if len(got) != len(want) {
		t.Fatalf("addresses %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("addresses %v, want %v", got, want)
		}
	}
}

func TestCheckRefusesAMixOfPublicAndPrivate(t *testing.T) {
	r := &resolver{answers: map[string][]netip.Addr{
		"v4.partner.example":  addrs("8.8.8.8", "10.0.0.5"),
		"v6.partner.example":  addrs("2001:4860:4860::8888", "::1"),
		"md.partner.example":  addrs("1.1.1.1", "8.8.8.8", "169.254.169.254"),
		"nat.partner.example": addrs("64:ff9b::7f00:1", "8.8.8.8"),
	}}
	for h := range r.answers {
		_, err := Policy{Resolver: r}.Check(context.Background(), "https://"+h+"/")
		wantRefusal(t, err, ErrNotPublic)
	}
}

func TestCheckRefusesNonCanonicalIPv4(t *testing.T) {
	r := &resolver{answers: map[string][]netip.Addr{}}
	for _, h := range []string{
		"2130706433", "0177.0.0.1", "127.1", "127.0.1", "0x7f.0.0.1", "0x7f000001", "0X7F.1",
		"017700000001", "127.0.0.1.", "10.0.0.01", "0x", "8.8.8.010", "partner.example.0x10", "0.0.0.0x0",
	} {
		_, err := Policy{Resolver: r}.Check(context.Background(), "https://"+h+"/hook")
		wantRefusal(t, err, ErrForm)
	}
	if r.calls.Load() != 0 {
		t.Errorf("%d lookups of a numeric host, want none", r.calls.Load())
	}
}

func TestCheckForm(t *testing.T) {
	r := &resolver{answers: map[string][]netip.Addr{"hooks.partner.example": addrs("8.8.8.8"), "localhost": addrs("127.0.0.1")}}
	base := "https://hooks.partner.example/"
	long := base + strings.Repeat("a", MaxURLLength-len(base))
	for _, tc := range []struct {
		raw       string
		allowHTTP bool
		ok        bool
	}{
		{raw: base, ok: true},
		{raw: long, ok: true},
		{raw: long + "a"},
		{raw: "http://hooks.partner.example/"},
		{raw: "http://hooks.partner.example/", allowHTTP: true, ok: true},
		{raw: "ftp://hooks.partner.example/", allowHTTP: true},
		{raw: "hooks.partner.example/hook"},
		{raw: "/hook"},
		{raw: ""},
		{raw: "https:hooks.partner.example"},
		{raw: "https:///hook"},
		{raw: "https://:443/hook"},
		{raw: "https://user:pw@hooks.partner.example/"},
		{raw: "https://8.8.8.8@hooks.partner.example/"},
		{raw: "https://hooks.partner.example/#frag"},
		{raw: "https://hooks.partner.example/a b"},
		{raw: "https://hooks.partner.example/\x00"},
		{raw: "https://hooks.partner.example/é"},
		{raw: "https://bücher.example/"},
		{raw: "https://hooks.partner.example:0/"},
		{raw: "https://hooks.partner.example:65536/"},
		{raw: "https://hooks.partner.example:443/", ok: true},
		{raw: "https://[fe80::1%25eth0]/"},
		{raw: "https://hooks_partner.example!/"},
		{raw: "https://-bad.example/"},
		{raw: "https://" + strings.Repeat("a", 64) + ".example/"},
		{raw: "https://hooks.partner.example%2f@8.8.8.8/"},
		{raw: "https://localhost/"},
	} {
		_, err := Policy{AllowHTTP: tc.allowHTTP, Resolver: r}.Check(context.Background(), tc.raw)
		if tc.ok != (err == nil) {
			t.Errorf("%.60q (http %v): err = %v, want ok %v", tc.raw, tc.allowHTTP, err, tc.ok)
		}
		if err != nil {
			if e, isAPI := apierr.As(err); !isAPI || e.Code != apierr.ValidationError {
				t.Errorf("%.60q: %v, want VALIDATION_ERROR", tc.raw, err)
			}
		}
	}
}

func TestCheckUnresolvableHost(t *testing.T) {
	r := &resolver{answers: map[string][]netip.Addr{"empty.partner.example": nil}}
	for _, h := range []string{"gone.partner.example", "empty.partner.example"} {
		_, err := Policy{Resolver: r}.Check(context.Background(), "https://"+h+"/")
		wantRefusal(t, err, ErrNotResolved)
		if e, _ := apierr.As(err); strings.Contains(e.Message, "no such host") {
			t.Errorf("message %q carries the resolver's text", e.Message)
		}
	}
}

// With no Resolver the system's is used, and its answers are checked.
func TestCheckDefaultResolver(t *testing.T) {
	_, err := Policy{}.Check(context.Background(), "https://localhost/hook")
	wantRefusal(t, err, ErrNotPublic)
}

func TestAllowExemptsListedRangesOnly(t *testing.T) {
	r := &resolver{answers: map[string][]netip.Addr{
		"onprem.partner.example": addrs("10.1.2.3", "127.0.0.1"),
		"mixed.partner.example":  addrs("10.1.2.3", "192.168.1.1"),
	}}
	p := Policy{Resolver: r, Allow: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}}
	for _, raw := range []string{"https://onprem.partner.example/", "https://127.0.0.1:9000/", "https://[::ffff:127.0.0.1]/", "https://[::1]/", "https://8.8.8.8/"} {
		if _, err := p.Check(context.Background(), raw); err != nil {
			t.Errorf("%s: %v", raw, err)
		}
	}
	for _, raw := range []string{"https://mixed.partner.example/", "https://[64:ff9b::7f00:1]/", "https://[fe80::1]/", "https://100.64.0.1/"} {
		_, err := p.Check(context.Background(), raw)
		wantRefusal(t, err, ErrNotPublic)
	}
	// Metadata, unspecified, multicast and broadcast stay refused whatever is listed.
	wide := Policy{Allow: []netip.Prefix{netip.MustParsePrefix("0.0.0.0/0"), netip.MustParsePrefix("::/0")}}
	for _, a := range []string{"169.254.169.254", "fd00:ec2::254", "0.0.0.0", "::", "224.0.0.1", "ff02::1", "255.255.255.255", "::ffff:169.254.169.254"} {
		_, err := wide.Check(context.Background(), "https://"+host(a)+"/")
		wantRefusal(t, err, ErrNotPublic)
	}
	if _, err := wide.Check(context.Background(), "https://10.0.0.1/"); err != nil {
		t.Errorf("10.0.0.1 under 0.0.0.0/0: %v", err)
	}
}

func TestMessageNamesTheKindOfAddress(t *testing.T) {
	for a, kind := range map[string]string{
		"169.254.169.254": "cloud metadata", "fd00:ec2::254": "cloud metadata", "127.0.0.1": "loopback",
		"10.0.0.1": "private", "fe80::1": "link-local", "100.64.0.1": "carrier-grade NAT",
		"64:ff9b::7f00:1": "NAT64", "::ffff:192.168.0.1": "private", "255.255.255.255": "broadcast",
	} {
		_, err := Policy{}.Check(context.Background(), "https://"+host(a)+"/")
		if e, ok := apierr.As(err); !ok || !strings.Contains(e.Message, kind) {
			t.Errorf("%s: %v, want the message to say %q", a, err, kind)
		}
	}
}

func TestParseAllowCIDRs(t *testing.T) {
	got, err := ParseAllowCIDRs(" 10.0.0.0/8, 127.0.0.1 ,fd00::/8,, ::1")
	want := []string{"10.0.0.0/8", "127.0.0.1/32", "fd00::/8", "::1/128"}
	if err != nil || len(got) != len(want) {
		t.Fatalf("ParseAllowCIDRs = %v, %v", got, err)
	}
	for i := range want {
		if got[i].String() != want[i] {
			t.Errorf("[%d] = %s, want %s", i, got[i], want[i])
		}
	}
	if got, err := ParseAllowCIDRs(""); err != nil || got != nil {
		t.Errorf("empty: %v, %v", got, err)
	}
	for _, bad := range []string{"10.0.0.1/8", "10.0.0.0/33", "intranet", "::ffff:10.0.0.0/104", "10.0.0.0/8,x", "fe80::1%eth0"} {
		if _, err := ParseAllowCIDRs(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}

// The dialer guard refuses a socket to a refused address before it
// connects (a pure function call here: nothing is dialled).
func TestDialControl(t *testing.T) {
	ctl := Policy{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}.DialControl()
	for _, a := range refusedAddrs {
		if strings.HasPrefix(a, "127.") || a == "::ffff:127.0.0.1" {
			continue
		}
		network := "tcp6"
		if netip.MustParseAddr(a).Unmap().Is4() {
			network = "tcp4"
		}
		if err := ctl(network, netip.AddrPortFrom(netip.MustParseAddr(a), 443).String(), nil); !errors.Is(err, ErrNotPublic) {
			t.Errorf("%s: %v, want refused", a, err)
		}
	}
	for _, ok := range []string{"8.8.8.8:443", "127.0.0.1:8080", "[2001:4860:4860::8888]:8443"} {
		network := "tcp4"
		if strings.HasPrefix(ok, "[") {
			network = "tcp6"
		}
		if err := ctl(network, ok, nil); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	if err := ctl("udp4", "8.8.8.8:53", nil); err == nil {
		t.Error("udp accepted")
	}
}
