package loopback

import (
	"net"
	"strconv"
	"testing"
)

// The addresses are loopback ones, below the ephemeral range, and free.
func TestFreeAddr(t *testing.T) {
	low := ephemeralLow()
	for range 20 {
		addr, err := FreeAddr()
		if err != nil {
			t.Fatal(err)
		}
		host, port, err := net.SplitHostPort(addr)
		if err != nil || host != "127.0.0.1" {
			t.Fatalf("%q: %v", addr, err)
		}
		if n, _ := strconv.Atoi(port); n < 10000 || n >= low {
			t.Fatalf("%q: port outside [10000, %d)", addr, low)
		}
		l, err := net.Listen("tcp", addr)
		if err != nil {
			t.Fatalf("%q is not free: %v", addr, err)
		}
		_ = l.Close()
	}
}
