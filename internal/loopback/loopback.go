// Package loopback hands out loopback addresses for a process about to be
// started to listen on.
package loopback

import (
	"errors"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
)

// FreeAddr returns a loopback address with a port that was free a moment
// ago, drawn from below the kernel's ephemeral range: a port the kernel
// handed out for ":0" could be taken, between our close and the child's
// bind, by any process's outgoing connection (tests of other packages
// connect to PostgreSQL and Redis all the time), while ports below the range
// are only ever taken by an explicit bind.
func FreeAddr() (string, error) {
	low := ephemeralLow()
	for range 100 {
		port := 10000 + rand.IntN(low-10000)
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			continue // in use: draw again
		}
		addr := l.Addr().String()
		if err := l.Close(); err != nil {
			return "", err
		}
		return addr, nil
	}
	return "", errors.New("no free loopback port below the ephemeral range")
}

// ephemeralLow is the first port of the kernel's ephemeral range (32768,
// Linux's default, when it cannot be read).
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 32768
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 32768
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || n <= 11000 {
		return 32768
	}
	return n
}
