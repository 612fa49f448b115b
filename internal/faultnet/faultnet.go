// Package faultnet stands in for a dependency that fails on the network, for
// tests of how the platform behaves then: a frozen server (accepts
// connections, never answers: a stopped process, a full accept queue behind
// a load balancer, a black-holed route) and a proxy that a test can freeze
// or cut while connections are in use.
package faultnet

import (
	"net"
	"sync"
	"testing"
)

// Frozen returns the address of a listener that accepts connections and
// never reads from or writes to them. Everything closes with the test.
func Frozen(tb testing.TB) string {
	tb.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	tb.Cleanup(func() {
		lis.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return lis.Addr().String()
}

// Proxy forwards TCP connections to a target. Freeze stops moving bytes
// while keeping every connection open (the target hangs); Cut closes every
// connection, and new ones while cut (the target is gone).
type Proxy struct {
	lis    net.Listener
	target string

	mu     sync.Mutex
	frozen bool
	cut    bool
	thaw   chan struct{} // closed by Resume
	conns  []net.Conn
}

// NewProxy starts a proxy to target; it stops with the test.
func NewProxy(tb testing.TB, target string) *Proxy {
	tb.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	p := &Proxy{lis: lis, target: target, thaw: make(chan struct{})}
	go p.serve()
	tb.Cleanup(func() {
		lis.Close()
		p.Cut()
	})
	return p
}

// Addr is the proxy's address.
func (p *Proxy) Addr() string { return p.lis.Addr().String() }

// Freeze stops forwarding: connections stay open, bytes wait.
func (p *Proxy) Freeze() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.frozen {
		p.frozen = true
		p.thaw = make(chan struct{})
	}
}

// Resume undoes Freeze and Cut.
func (p *Proxy) Resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.frozen {
		p.frozen = false
		close(p.thaw)
	}
	p.cut = false
}

// Cut closes every connection; new ones are closed at once until Resume.
// It ends a Freeze.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = true
	if p.frozen {
		p.frozen = false
		close(p.thaw)
	}
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func (p *Proxy) serve() {
	for {
		c, err := p.lis.Accept()
		if err != nil {
			return
		}
		go p.handle(c)
	}
}

func (p *Proxy) handle(c net.Conn) {
	p.mu.Lock()
	cut := p.cut
	p.mu.Unlock()
	if cut {
		c.Close()
		return
	}
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	if p.cut {
		p.mu.Unlock()
		c.Close()
		up.Close()
		return
	}
	p.conns = append(p.conns, c, up)
	p.mu.Unlock()
	go p.pump(up, c)
	p.pump(c, up)
}

// pump copies src to dst, holding each chunk while the proxy is frozen.
func (p *Proxy) pump(dst, src net.Conn) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.waitThaw()
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *Proxy) waitThaw() {
	for {
		p.mu.Lock()
		frozen, thaw := p.frozen, p.thaw
		p.mu.Unlock()
		if !frozen {
			return
		}
		<-thaw
	}
}
