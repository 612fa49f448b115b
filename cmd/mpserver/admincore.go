package main

import (
	"google.golang.org/grpc"

	"github.com/mallplatform/partnerapi/internal/platform"
	"github.com/mallplatform/partnerapi/internal/tlsfiles"
)

// adminCore is how an admin command reaches one of core's internal admin
// services as an internal caller: core's address, the caller's token and
// the TLS settings the gateway role takes.
type adminCore struct {
	addr, token, caFile, certFile, keyFile, serverName string
}

// register adds the flags to fs; service names the admin service the token
// must reach, for the help text.
func (c *adminCore) register(fs *flagSet, service string) {
	fs.str(&c.addr, "core-addr", "MP_CORE_ADDR", "127.0.0.1:9090", "gRPC target of the core tier")
	fs.secret(&c.token, "token", "MP_INTERNAL_CALLER_TOKEN", "an internal caller's token that reaches "+service)
	fs.str(&c.caFile, "core-tls-ca", "MP_CORE_TLS_CA", "", "PEM CA bundle verifying core's certificate (set: TLS to core)")
	fs.str(&c.certFile, "core-tls-cert", "MP_CORE_TLS_CERT", "", "PEM client certificate presented to core (mutual TLS)")
	fs.str(&c.keyFile, "core-tls-key", "MP_CORE_TLS_KEY", "", "PEM private key of the client certificate")
	fs.str(&c.serverName, "core-tls-server-name", "MP_CORE_TLS_SERVER_NAME", "", "name checked in core's certificate")
}

// dial connects to core with the token, over TLS when a CA is set.
func (c *adminCore) dial(opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	tlsCfg, err := tlsfiles.Client(c.caFile, c.certFile, c.keyFile, c.serverName)
	if err != nil {
		return nil, err
	}
	if tlsCfg != nil {
		opts = append(opts, platform.CoreTLS(tlsCfg))
	}
	return platform.DialCore(c.addr, c.token, opts...)
}
