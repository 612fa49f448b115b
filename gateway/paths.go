package gateway

import "strings"

// canonicalPath reports whether p (the decoded path) is one the gateway
// routes: absolute, with no empty, "." or ".." segment. Anything else gets
// 404 NOT_FOUND from the pipeline, never a redirect to a cleaned path: the
// signature covers the path as sent, and a redirect would skip the request
// id, the limiter and the error envelope. "%2e%2e" arrives here decoded, as
// "..". "OPTIONS *" has the path "*" and a CONNECT request none.
func canonicalPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	for rest := p[1:]; ; {
		seg, next, more := strings.Cut(rest, "/")
		if seg == "." || seg == ".." || (seg == "" && more) {
			return false
		}
		if !more {
			return true
		}
		rest = next
	}
}
