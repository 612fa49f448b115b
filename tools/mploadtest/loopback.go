package main

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
)

// Load is only ever sent to this machine: a load generator pointed at a
// shared environment by mistake is an incident, so every address the tool
// sends to or listens on must be a loopback literal ("localhost" is refused
// too, since resolving it is up to the system's configuration).

// requireLoopbackAddr checks a host:port.
func requireLoopbackAddr(hostport string) error {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		return fmt.Errorf("address %q: %w", hostport, err)
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !ip.IsLoopback() {
		return fmt.Errorf("address %q is not a loopback IP (use 127.0.0.1:PORT)", hostport)
	}
	return nil
}

// requireLoopbackURL checks an http:// base URL.
func requireLoopbackURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("target %q: %w", raw, err)
	}
	if u.Scheme != "http" {
		return fmt.Errorf("target %q: only plain http to a loopback address is supported", raw)
	}
	if u.Port() == "" {
		return fmt.Errorf("target %q: give the port explicitly", raw)
	}
	if err := requireLoopbackAddr(u.Host); err != nil {
		return fmt.Errorf("target %q: %w", raw, err)
	}
	if u.Path != "" && u.Path != "/" || u.RawQuery != "" {
		return fmt.Errorf("target %q: give the scheme, host and port only", raw)
	}
	return nil
}
