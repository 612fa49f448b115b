package gateway

// OnCredentialWait has onWait called as each request of g begins waiting on a
// credential lookup (its own or one it shares), and the function it returns
// as the request stops waiting, with ctx's error when the request ended
// first. Set it before g serves.
func OnCredentialWait(g *Gateway, onWait func(clientID string) (stopped func(err error))) {
	g.creds.onWait = onWait
}

// RendersFromWire reports whether g renders the answers of fullMethod's
// route from the wire.
func RendersFromWire(g *Gateway, fullMethod string) bool {
	for _, c := range g.calls {
		if c.method.FullMethod == fullMethod {
			return c.wire
		}
	}
	return false
}
