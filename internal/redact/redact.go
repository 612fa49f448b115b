// Package redact hides the passwords of connection strings (Redis and
// PostgreSQL URLs, PostgreSQL keyword/value strings) before they reach a
// log line, an error or a flag's help.
package redact

import (
	"regexp"
	"strings"
)

// Mask stands where a password was.
const Mask = "xxxxx"

// passwordParam is a password=value pair of a keyword/value DSN or of a
// URL's query (pgx reads ?password=), quoted or not.
var passwordParam = regexp.MustCompile(`(?i)(password\s*=\s*)('(?:[^'\\]|\\.)*'|[^&\s]*)`)

// URL returns raw with its password masked.
//
// The user information is taken as everything between "://" and the last
// '@', not as net/url reads it: a password with an unescaped '/', '?' or
// '#' (common in generated ones) ends net/url's authority early, so the
// password lands in the path, the query or the fragment, and
// url.URL.Redacted shows it. The user name is kept when it is plainly one
// ([A-Za-z0-9._-]); anything else in the user information is masked.
func URL(raw string) string {
	out := raw
	if scheme, rest, ok := strings.Cut(raw, "://"); ok {
		if at := strings.LastIndex(rest, "@"); at >= 0 {
			user, _, hasPassword := strings.Cut(rest[:at], ":")
			switch {
			case !plainName(user):
				user = Mask
			case hasPassword:
				user += ":" + Mask
			}
			out = scheme + "://" + user + rest[at:]
		}
	}
	return passwordParam.ReplaceAllString(out, "${1}"+Mask)
}

func plainName(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
