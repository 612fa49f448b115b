package gateway

// OnCredentialWait has waiting called as each request of g begins waiting on
// a credential lookup (its own or one it shares) and stopped as it stops,
// with ctx's error when the request ended first. Set it before g serves.
func OnCredentialWait(g *Gateway, waiting func(clientID string), stopped func(clientID string, err error)) {
	g.creds.waiting, g.creds.stopped = waiting, stopped
}
