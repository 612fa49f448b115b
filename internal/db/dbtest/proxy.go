package dbtest

import (
	"context"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/db"
)

// Proxy is a TCP proxy in front of PostgreSQL that a test can cut (every
// connection closed, new ones closed as soon as they are accepted) or freeze
// (connections accepted and held, no byte forwarded either way), then
// restore: the faults a database link has in production.
type Proxy struct {
	lis    net.Listener
	target string

	mu     sync.Mutex
	mode   proxyMode
	thawed chan struct{} // closed when a freeze ends
	conns  map[net.Conn]struct{}
}

type proxyMode int

const (
	proxyForward proxyMode = iota
	proxyCut
	proxyFrozen
)

// NewProxy listens on a loopback port and forwards to target (host:port).
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{lis: lis, target: target, conns: map[net.Conn]struct{}{}, thawed: make(chan struct{})}
	go p.serve()
	t.Cleanup(func() {
		_ = lis.Close()
		p.Restore()
		p.closeAll()
	})
	return p
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.lis.Addr().String() }

// Cut closes every proxied connection and refuses new ones.
func (p *Proxy) Cut() {
	p.setMode(proxyCut)
	p.closeAll()
}

// Freeze holds every connection, old and new, without forwarding a byte.
func (p *Proxy) Freeze() { p.setMode(proxyFrozen) }

// Restore forwards again.
func (p *Proxy) Restore() { p.setMode(proxyForward) }

func (p *Proxy) setMode(m proxyMode) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode == proxyFrozen && m != proxyFrozen {
		close(p.thawed)
		p.thawed = make(chan struct{})
	}
	p.mode = m
}

func (p *Proxy) closeAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		_ = c.Close()
	}
	clear(p.conns)
}

func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode == proxyCut {
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

// gate blocks while the proxy is frozen and reports whether to go on.
func (p *Proxy) gate() bool {
	for {
		p.mu.Lock()
		mode, thawed := p.mode, p.thawed
		p.mu.Unlock()
		switch mode {
		case proxyForward:
			return true
		case proxyCut:
			return false
		}
		<-thawed
	}
}

func (p *Proxy) serve() {
	for {
		c, err := p.lis.Accept()
		if err != nil {
			return
		}
		if !p.track(c) {
			_ = c.Close()
			continue
		}
		go p.forward(c)
	}
}

func (p *Proxy) forward(client net.Conn) {
	if !p.gate() {
		_ = client.Close()
		return
	}
	server, err := net.DialTimeout("tcp", p.target, 2*time.Second)
	if err != nil {
		_ = client.Close()
		return
	}
	if !p.track(server) {
		_ = client.Close()
		_ = server.Close()
		return
	}
	go p.pipe(server, client)
	p.pipe(client, server)
}

// pipe copies src to dst chunk by chunk, holding each chunk while frozen.
func (p *Proxy) pipe(dst, src net.Conn) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if !p.gate() {
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// PostgresThroughProxy is Postgres, with every connection of the returned
// database going through a Proxy the test controls.
func PostgresThroughProxy(t testing.TB) (*db.DB, *Proxy) {
	t.Helper()
	dsn := EmptyPostgres(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	direct, err := db.Open(ctx, db.Config{Driver: db.DriverPostgres, DSN: dsn, MaxOpenConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Migrate(ctx, direct.SQL); err != nil {
		t.Fatal(err)
	}
	_ = direct.Close()
	proxy := NewProxy(t, u.Host)
	u.Host = proxy.Addr()
	d, err := db.Open(ctx, db.Config{Driver: db.DriverPostgres, DSN: u.String(), MaxOpenConns: 8})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d, proxy
}
