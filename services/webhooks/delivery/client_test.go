package delivery

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/sdk/webhook"
	"github.com/mallplatform/partnerapi/services/webhooks/callback"
)

// resolver answers each host from a list of answers, one per lookup (the
// last repeats), and counts lookups; a host not listed does not resolve.
type resolver struct {
	mu      sync.Mutex
	answers map[string][][]netip.Addr
	calls   map[string]int
}

func newResolver(hostAnswers ...any) *resolver {
	r := &resolver{answers: map[string][][]netip.Addr{}, calls: map[string]int{}}
	for i := 0; i < len(hostAnswers); i += 2 {
		var answer []netip.Addr
		for _, s := range strings.Fields(hostAnswers[i+1].(string)) {
			answer = append(answer, netip.MustParseAddr(s))
		}
		h := hostAnswers[i].(string)
		r.answers[h] = append(r.answers[h], answer)
	}
	return r
}

func (r *resolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	list, ok := r.answers[host]
	if !ok {
		return nil, errors.New("no such host")
	}
	n := r.calls[host]
	r.calls[host]++
	return list[min(n, len(list)-1)], nil
}

func (r *resolver) lookups(host string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls[host]
}

// dials records where a client connects. Only loopback is ever connected
// to; any other address fails the test and is not dialled.
type dials struct {
	t    *testing.T
	mu   sync.Mutex
	seen []string
}

func (d *dials) dial(ctx context.Context, network, address string) (net.Conn, error) {
	d.mu.Lock()
	d.seen = append(d.seen, address)
	d.mu.Unlock()
	ap, err := netip.ParseAddrPort(address)
	if err != nil || !ap.Addr().IsLoopback() {
		d.t.Errorf("dial to %s: only checked loopback test addresses may be dialled", address)
		return nil, errors.New("test: not dialled")
	}
	var nd net.Dialer
	return nd.DialContext(ctx, network, address)
}

func (d *dials) list() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.seen...)
}

var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

// testClient is a client with policy p whose dials are recorded.
func testClient(t *testing.T, p callback.Policy) (*Client, *dials) {
	d := &dials{t: t}
	c := New(p)
	c.dial = d.dial
	c.transport = c.newTransport()
	return c, d
}

// received is what a test receiver saw.
type received struct {
	header http.Header
	body   []byte
	path   string
	proto  string
}

func receiver(t *testing.T, tls bool, answer func(w http.ResponseWriter, r *http.Request)) (*httptest.Server, chan received) {
	got := make(chan received, 8)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost {
			t.Errorf("method %s, want POST", r.Method)
		}
		got <- received{header: r.Header.Clone(), body: body, path: r.URL.Path, proto: r.Proto}
		answer(w, r)
	})
	var srv *httptest.Server
	if tls {
		srv = httptest.NewUnstartedServer(h)
		// Refused handshakes are what some tests expect; keep them out of the output.
		srv.Config.ErrorLog = log.New(io.Discard, "", 0)
		srv.EnableHTTP2 = true // the client negotiates HTTP/2 over its own dial
		srv.StartTLS()
	} else {
		srv = httptest.NewServer(h)
	}
	t.Cleanup(srv.Close)
	return srv, got
}

func port(srv *httptest.Server) string {
	u, _ := url.Parse(srv.URL)
	return u.Port()
}

func request(t *testing.T, rawURL string) Request {
	t.Helper()
	s, err := webhook.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	return Request{URL: rawURL, ID: "evt_01JD3Q", Timestamp: time.Now(), Body: []byte(`{"type":"order.created","data":{"orderId":"o_1"}}`), Secrets: []string{s}}
}

// A delivery to an HTTPS receiver: the host is looked up once, the checked
// address dialled, and TLS verified against the host name.
func TestDeliverHTTPS(t *testing.T) {
	srv, got := receiver(t, true, func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	})
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	r := newResolver("example.com", "127.0.0.1") // the test certificate's name
	c, d := testClient(t, callback.Policy{Allow: loopback, Resolver: r})
	c = c.WithRootCAs(pool)
	req := request(t, "https://example.com:"+port(srv)+"/hooks/orders")
	res := c.Deliver(context.Background(), req)
	if res.Err != nil || res.Status != http.StatusNoContent || !res.Attempted || res.Gone {
		t.Fatalf("Deliver = %+v", res)
	}
	if res.Duration <= 0 {
		t.Errorf("Duration %v", res.Duration)
	}
	rec := <-got
	sig, _ := webhook.Sign(req.ID, req.Timestamp, req.Body, req.Secrets)
	for name, want := range map[string]string{
		"Content-Type": "application/json", "webhook-id": req.ID, "webhook-signature": sig,
		"webhook-timestamp": strconv.FormatInt(req.Timestamp.Unix(), 10),
	} {
		if got := rec.header.Get(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if !bytes.Equal(rec.body, req.Body) || rec.path != "/hooks/orders" || rec.proto != "HTTP/2.0" {
		t.Errorf("body %q path %q over %s", rec.body, rec.path, rec.proto)
	}
	if got := d.list(); len(got) != 1 || got[0] != "127.0.0.1:"+port(srv) || r.lookups("example.com") != 1 {
		t.Errorf("dials %v, lookups %d: want one dial to the checked address after one lookup", got, r.lookups("example.com"))
	}

	// Host names are case-insensitive all the way to the dial and the certificate.
	r.answers["Example.COM"] = r.answers["example.com"]
	if res := c.Deliver(context.Background(), request(t, "https://Example.COM:"+port(srv)+"/")); res.Err != nil {
		t.Errorf("mixed-case host: %+v", res)
	}

	// Without the test CA the receiver's certificate does not verify.
	plain, _ := testClient(t, callback.Policy{Allow: loopback, Resolver: r})
	res = plain.Deliver(context.Background(), request(t, "https://example.com:"+port(srv)+"/"))
	var unknown x509.UnknownAuthorityError
	if !errors.As(res.Err, &unknown) || !res.Attempted {
		t.Errorf("untrusted certificate: %+v", res)
	}
	// A certificate for another name does not verify either.
	r2 := newResolver("other.partner.example", "127.0.0.1")
	c2, _ := testClient(t, callback.Policy{Allow: loopback, Resolver: r2})
	res = c2.WithRootCAs(pool).Deliver(context.Background(), request(t, "https://other.partner.example:"+port(srv)+"/"))
	var wrongHost x509.HostnameError
	if !errors.As(res.Err, &wrongHost) {
		t.Errorf("certificate for another host: %+v", res)
	}
}

// Every refused range, as the host's only answer or beside public ones,
// stops a delivery before any connection.
func TestDeliverRefusesNonPublicAddresses(t *testing.T) {
	answers := []string{
		"10.0.0.1", "172.16.0.1", "192.168.1.1", "fc00::1", "fd12::1", "127.0.0.1", "::1",
		"169.254.1.1", "fe80::1", "100.64.0.1", "169.254.169.254", "fd00:ec2::254", "0.0.0.0", "::",
		"224.0.0.1", "ff02::1", "255.255.255.255", "::ffff:127.0.0.1", "::ffff:169.254.169.254",
		"::ffff:10.0.0.1", "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b::a00:1", "::127.0.0.1",
		"8.8.8.8 10.0.0.1", "2001:4860:4860::8888 ::1", "1.1.1.1 169.254.169.254",
	}
	for _, a := range answers {
		r := newResolver("hooks.partner.example", a)
		c, d := testClient(t, callback.Policy{Resolver: r})
		res := c.Deliver(context.Background(), request(t, "https://hooks.partner.example/hook"))
		if !errors.Is(res.Err, ErrRefused) || !errors.Is(res.Err, callback.ErrNotPublic) || res.Attempted || res.Status != 0 {
			t.Errorf("%s: %+v, want refused before any attempt", a, res)
		}
		if len(d.list()) != 0 {
			t.Errorf("%s: dialled %v", a, d.list())
		}
	}
	// Address literals and other spellings in the URL itself.
	for _, raw := range []string{"https://127.0.0.1/", "https://[::ffff:7f00:1]/", "https://2130706433/", "https://0177.0.0.1/", "https://127.1/", "https://[64:ff9b::a9fe:a9fe]/"} {
		c, d := testClient(t, callback.Policy{Resolver: newResolver()})
		res := c.Deliver(context.Background(), request(t, raw))
		if !errors.Is(res.Err, ErrRefused) || res.Attempted || len(d.list()) != 0 {
			t.Errorf("%s: %+v, dials %v", raw, res, d.list())
		}
	}
}

func TestDeliverUnresolvableHostMakesNoAttempt(t *testing.T) {
	c, d := testClient(t, callback.Policy{Resolver: newResolver()})
	res := c.Deliver(context.Background(), request(t, "https://gone.partner.example/hook"))
	if !errors.Is(res.Err, callback.ErrNotResolved) || res.Attempted || len(d.list()) != 0 {
		t.Errorf("%+v, dials %v", res, d.list())
	}
}

// DNS rebinding: the host answers an allowed address, then a private one.
// The first delivery dials the address it checked; the transport never looks
// the name up again; the second delivery is refused before any connection.
func TestDeliverDNSRebinding(t *testing.T) {
	srv, got := receiver(t, false, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	r := newResolver("rebind.partner.example", "127.0.0.1", "rebind.partner.example", "10.0.0.7")
	c, d := testClient(t, callback.Policy{AllowHTTP: true, Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}, Resolver: r})
	u := "http://rebind.partner.example:" + port(srv) + "/hook"

	if res := c.Deliver(context.Background(), request(t, u)); res.Err != nil {
		t.Fatalf("first delivery: %+v", res)
	}
	<-got
	if dl := d.list(); len(dl) != 1 || dl[0] != "127.0.0.1:"+port(srv) || r.lookups("rebind.partner.example") != 1 {
		t.Fatalf("dials %v after %d lookups, want the checked address after one", dl, r.lookups("rebind.partner.example"))
	}
	res := c.Deliver(context.Background(), request(t, u))
	if !errors.Is(res.Err, callback.ErrNotPublic) || res.Attempted {
		t.Errorf("second delivery: %+v, want refused", res)
	}
	if len(d.list()) != 1 || len(got) != 0 {
		t.Errorf("dials %v; the receiver saw %d more requests", d.list(), len(got))
	}
}

// The transport's dial goes only to addresses checked for the host in
// flight, and the dialer's own guard refuses the rest before connecting.
func TestDialerGoesOnlyToCheckedAddresses(t *testing.T) {
	c := New(callback.Policy{})
	ctx := context.Background()
	if _, err := c.dialChecked(ctx, "tcp", "127.0.0.1:9"); !errors.Is(err, errNoCheckedAddress) {
		t.Errorf("no checked set: %v", err)
	}
	ctx = context.WithValue(ctx, targetKey{}, &target{host: "hooks.partner.example", addrs: []netip.Addr{netip.MustParseAddr("127.0.0.1")}})
	if _, err := c.dialChecked(ctx, "tcp", "evil.example:443"); !errors.Is(err, errNoCheckedAddress) {
		t.Errorf("another host: %v", err)
	}
	// Here 127.0.0.1 was (wrongly) put in the checked set: the socket guard
	// of a client without an Allow entry still refuses it before connect.
	if _, err := c.dialChecked(ctx, "tcp", "hooks.partner.example:9"); !errors.Is(err, callback.ErrNotPublic) {
		t.Errorf("guard: %v", err)
	}
}

func TestDeliverFollowsOneRedirect(t *testing.T) {
	final, got := receiver(t, false, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusAccepted) })
	for _, status := range []int{301, 302, 303, 307, 308} {
		first, firstGot := receiver(t, false, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Location", "http://final.partner.example:"+port(final)+"/moved")
			w.WriteHeader(status)
		})
		r := newResolver("first.partner.example", "127.0.0.1", "final.partner.example", "::1 127.0.0.1")
		c, _ := testClient(t, callback.Policy{AllowHTTP: true, Allow: loopback, Resolver: r})
		req := request(t, "http://first.partner.example:"+port(first)+"/hook")
		res := c.Deliver(context.Background(), req)
		if res.Err != nil || res.Status != http.StatusAccepted {
			t.Fatalf("%d: %+v", status, res)
		}
		a, b := <-firstGot, <-got
		if !bytes.Equal(a.body, b.body) || a.header.Get("webhook-signature") != b.header.Get("webhook-signature") || b.path != "/moved" {
			t.Errorf("%d: the redirected request differs: %q %q %s", status, a.body, b.body, b.path)
		}
		if r.lookups("final.partner.example") != 1 {
			t.Errorf("%d: the target was looked up %d times", status, r.lookups("final.partner.example"))
		}
	}
	// A relative Location is read against the request's URL.
	srv, sgot := receiver(t, false, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hook" {
			http.Redirect(w, r, "/v2/hook", http.StatusPermanentRedirect)
		}
	})
	c, _ := testClient(t, callback.Policy{AllowHTTP: true, Allow: loopback, Resolver: newResolver("p.partner.example", "127.0.0.1")})
	if res := c.Deliver(context.Background(), request(t, "http://p.partner.example:"+port(srv)+"/hook")); res.Err != nil || res.Status != 200 {
		t.Errorf("relative: %+v", res)
	}
	if <-sgot; (<-sgot).path != "/v2/hook" {
		t.Error("relative redirect not followed to /v2/hook")
	}
}

func TestDeliverRefusesASecondRedirect(t *testing.T) {
	third, thirdGot := receiver(t, false, func(w http.ResponseWriter, _ *http.Request) {})
	second, _ := receiver(t, false, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, third.URL+"/third", http.StatusFound)
	})
	first, _ := receiver(t, false, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, second.URL+"/second", http.StatusTemporaryRedirect)
	})
	c, _ := testClient(t, callback.Policy{AllowHTTP: true, Allow: loopback})
	res := c.Deliver(context.Background(), request(t, first.URL+"/hook"))
	if !errors.Is(res.Err, ErrTooManyRedirects) || res.Status != http.StatusFound || !res.Attempted {
		t.Errorf("%+v", res)
	}
	if len(thirdGot) != 0 {
		t.Error("the second redirect was followed")
	}
}

func TestDeliverRefusesARedirectToAnInternalAddress(t *testing.T) {
	for _, loc := range []string{
		"http://10.0.0.1/hook", "http://169.254.169.254/latest/meta-data/", "http://[::ffff:a00:1]/",
		"http://metadata.partner.example/", "http://2130706433/", "http://gone.partner.example/", "ftp://files.partner.example/",
	} {
		first, _ := receiver(t, false, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Location", loc)
			w.WriteHeader(http.StatusTemporaryRedirect)
		})
		r := newResolver("first.partner.example", "127.0.0.1", "metadata.partner.example", "169.254.169.254")
		c, d := testClient(t, callback.Policy{AllowHTTP: true, Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}, Resolver: r})
		res := c.Deliver(context.Background(), request(t, "http://first.partner.example:"+port(first)+"/hook"))
		if !errors.Is(res.Err, ErrRefused) || res.Status != http.StatusTemporaryRedirect || !res.Attempted {
			t.Errorf("%s: %+v", loc, res)
		}
		if len(d.list()) != 1 {
			t.Errorf("%s: dials %v, want the first receiver's only", loc, d.list())
		}
	}
	// An https receiver redirecting to http is refused in production.
	srv, _ := receiver(t, true, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://example.com/hook", http.StatusMovedPermanently)
	})
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	c, _ := testClient(t, callback.Policy{Allow: loopback, Resolver: newResolver("example.com", "127.0.0.1")})
	res := c.WithRootCAs(pool).Deliver(context.Background(), request(t, "https://example.com:"+port(srv)+"/hook"))
	if !errors.Is(res.Err, callback.ErrForm) {
		t.Errorf("downgrade: %+v", res)
	}
}

func TestDeliverStatuses(t *testing.T) {
	for _, tc := range []struct {
		status   int
		ok, gone bool
	}{{200, true, false}, {204, true, false}, {299, true, false}, {410, false, true}, {404, false, false}, {500, false, false}, {304, false, false}} {
		srv, _ := receiver(t, false, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(tc.status) })
		c, _ := testClient(t, callback.Policy{AllowHTTP: true, Allow: loopback})
		res := c.Deliver(context.Background(), request(t, srv.URL+"/hook"))
		if (res.Err == nil) != tc.ok || res.Gone != tc.gone || res.Status != tc.status || !res.Attempted {
			t.Errorf("%d: %+v", tc.status, res)
		}
		if !tc.ok && !errors.Is(res.Err, ErrStatus) {
			t.Errorf("%d: %v, want ErrStatus", tc.status, res.Err)
		}
	}
}

func TestDeliverKeepsABoundedBody(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB
	srv, _ := receiver(t, false, func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write(big)
	})
	c, _ := testClient(t, callback.Policy{AllowHTTP: true, Allow: loopback})
	res := c.Deliver(context.Background(), request(t, srv.URL+"/hook"))
	if len(res.Body) != MaxResponseBody || !bytes.Equal(res.Body, big[:MaxResponseBody]) || res.Status != 500 {
		t.Errorf("kept %d bytes (status %d), want the first %d", len(res.Body), res.Status, MaxResponseBody)
	}
	small, _ := receiver(t, false, func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })
	if res := c.Deliver(context.Background(), request(t, small.URL)); string(res.Body) != "ok" {
		t.Errorf("body %q", res.Body)
	}
}

// A receiver that never answers is cut off at the client's timeout (shortened
// here; the default is Timeout, 10 s).
func TestDeliverTimeout(t *testing.T) {
	release := make(chan struct{})
	srv, _ := receiver(t, false, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	c, _ := testClient(t, callback.Policy{AllowHTTP: true, Allow: loopback})
	if c.timeout != 10*time.Second || Timeout != 10*time.Second {
		t.Errorf("default timeout %v", c.timeout)
	}
	c.timeout = 50 * time.Millisecond
	res := c.Deliver(context.Background(), request(t, srv.URL+"/hook"))
	if !errors.Is(res.Err, context.DeadlineExceeded) || res.Status != 0 || !res.Attempted {
		t.Errorf("%+v", res)
	}
}

func TestDeliverRefusesABadRequest(t *testing.T) {
	r := newResolver("hooks.partner.example", "8.8.8.8")
	c, d := testClient(t, callback.Policy{Resolver: r})
	for name, mutate := range map[string]func(*Request){
		"no secret":  func(q *Request) { q.Secrets = nil },
		"bad secret": func(q *Request) { q.Secrets = []string{"whsec_short"} },
		"no id":      func(q *Request) { q.ID = "" },
		"id with CR": func(q *Request) { q.ID = "evt\r\nX-Injected: 1" },
	} {
		req := request(t, "https://hooks.partner.example/")
		mutate(&req)
		res := c.Deliver(context.Background(), req)
		if !errors.Is(res.Err, ErrRequest) || res.Attempted {
			t.Errorf("%s: %+v", name, res)
		}
	}
	if r.lookups("hooks.partner.example") != 0 || len(d.list()) != 0 {
		t.Error("a bad request was looked up or dialled")
	}
}

// The Standard Webhooks reference library (npm standardwebhooks, pinned by
// tools/standardwebhooks) verifies a delivered request, with either secret
// during a rotation, and refuses it once the body changes.
func TestStandardWebhooksReferenceVerifies(t *testing.T) {
	node, modules := referenceLibrary(t)
	srv, got := receiver(t, false, func(w http.ResponseWriter, _ *http.Request) {})
	c, _ := testClient(t, callback.Policy{AllowHTTP: true, Allow: loopback})
	old, _ := webhook.NewSecret()
	req := request(t, srv.URL+"/hook")
	req.Secrets = append(req.Secrets, old) // rotation: new and previous secret
	if res := c.Deliver(context.Background(), req); res.Err != nil {
		t.Fatalf("%+v", res)
	}
	rec := <-got
	headers := map[string]string{}
	for _, h := range []string{"webhook-id", "webhook-timestamp", "webhook-signature"} {
		headers[h] = rec.header.Get(h)
	}
	verify := func(secret string, body []byte) (string, error) {
		in, _ := json.Marshal(map[string]any{"secret": secret, "headers": headers, "body": string(body)})
		cmd := exec.Command(node, "testdata/verify.cjs", modules)
		cmd.Stdin = bytes.NewReader(in)
		out, err := cmd.CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	for _, s := range req.Secrets {
		if out, err := verify(s, rec.body); err != nil || out != "verified" {
			t.Errorf("reference library: %q, %v", out, err)
		}
	}
	tampered := bytes.Replace(rec.body, []byte("o_1"), []byte("o_2"), 1)
	if out, err := verify(req.Secrets[0], tampered); err == nil || !strings.HasPrefix(out, "refused") {
		t.Errorf("a changed body verified: %q", out)
	}
	other, _ := webhook.NewSecret()
	if out, err := verify(other, rec.body); err == nil {
		t.Errorf("another secret verified: %q", out)
	}
}

// referenceLibrary installs the pinned library (once per lock file, under
// .cache/) and returns node and the install folder. Under CI=true a missing
// node or npm fails the test.
func referenceLibrary(t *testing.T) (node, modules string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = exec.LookPath("npm")
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("node and npm are required under CI=true: %v", err)
		}
		t.Skipf("node or npm not installed: %v", err)
	}
	script, _ := filepath.Abs("../../../tools/scripts/standardwebhooks.sh")
	cmd := exec.Command(script)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("installing the reference library: %v\n%s", err, stderr.String())
	}
	return node, strings.TrimSpace(string(out))
}
