package admission

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/redis/rueidis"

	"github.com/mallplatform/partnerapi/internal/redact"
)

// ParseRedisURL reads a Redis URL as managed Redis services give them:
// redis://[user[:password]@]host[:port][/db][?option=…], or rediss://… for
// TLS (the server name is the host's). The options are rueidis's
// (dial_timeout, write_timeout, addr, master_set, …).
//
// A URL carries a password, and an error ends up in logs and on terminals:
// no error repeats the URL or any part of its user information. Parse
// errors of net/url quote the offending text (a bad percent-escape in the
// password, say), so they are replaced rather than wrapped.
func ParseRedisURL(raw string) (rueidis.ClientOption, error) {
	var none rueidis.ClientOption
	scheme, _, ok := strings.Cut(raw, "://")
	if !ok {
		return none, errors.New("admission: the Redis URL must start with redis:// or rediss://")
	}
	switch scheme {
	case "redis", "rediss":
	default:
		return none, errors.New("admission: the Redis URL's scheme must be redis or rediss (TLS)")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return none, errors.New("admission: the Redis URL does not parse; check its host, port and the percent-escapes of its user and password")
	}
	// A '/', '?' or '#' left unescaped in the password ends the authority
	// early: the rest of the password would be read as the database, an
	// option or a fragment, and quoted by the errors about those (and
	// shown by url.URL.Redacted). An '@' after the authority's end is the
	// sign of it.
	rest := raw[len(scheme)+len("://"):]
	if end := strings.IndexAny(rest, "/?#"); end >= 0 && strings.Contains(rest[end:], "@") {
		return none, errors.New("admission: the Redis URL's password (or an option) holds a '/', '?', '#' or '@' that is not percent-encoded: write %2F, %3F, %23, %40")
	}
	if u.Host == "" {
		return none, errors.New("admission: the Redis URL names no host")
	}
	if u.Port() != "" {
		if _, err := parsePort(u.Port()); err != nil {
			return none, err
		}
	}
	if u.Fragment != "" {
		return none, errors.New("admission: the Redis URL may not have a #fragment")
	}
	opt, err := rueidis.ParseURL(raw)
	if err != nil {
		// rueidis's errors name the database or an option's value; the
		// password is cut out in case an option repeats it.
		return none, fmt.Errorf("admission: the Redis URL: %s", hidePassword(err.Error(), u))
	}
	return opt, nil
}

func parsePort(p string) (int, error) {
	n := 0
	for _, c := range p {
		if c < '0' || c > '9' {
			return 0, errors.New("admission: the Redis URL's port is not a number")
		}
		n = n*10 + int(c-'0')
		if n > 65535 {
			return 0, errors.New("admission: the Redis URL's port is above 65535")
		}
	}
	return n, nil
}

// hidePassword removes u's password (raw and escaped) from s.
func hidePassword(s string, u *url.URL) string {
	if u.User == nil {
		return s
	}
	if p, ok := u.User.Password(); ok && p != "" {
		s = strings.ReplaceAll(s, p, "xxxxx")
		s = strings.ReplaceAll(s, url.QueryEscape(p), "xxxxx")
	}
	return s
}

// RedactRedisURL returns raw with its password replaced, for logs.
func RedactRedisURL(raw string) string { return redact.URL(raw) }
