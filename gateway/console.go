package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"time"

	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/gateway/admission"
	developerv1 "github.com/mallplatform/partnerapi/gen/mp/developer/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/policy"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/ttlcache"
)

// The developer console's session cookie: set from a response field marked
// (mp.options.v1.field).session_cookie on an AUTH_CONSOLE route, read back
// on every console route, renewed on every answer to a live session and
// cleared by the sign-out.
const (
	// ConsoleCookie is the cookie's name.
	ConsoleCookie = principal.ConsoleCookie
	// consoleCookieMaxAge is the session's idle lifetime, in seconds: the
	// cookie is set again with it on every answer core gave a live
	// session, so it lapses when core ends the session.
	consoleCookieMaxAge = int(policy.ConsoleSessionIdle / time.Second)
	// maxCSRFToken bounds the X-CSRF-Token value forwarded to core.
	maxCSRFToken = 128
	// consoleAccountsMax and consoleAccountTTL bound the sessions whose
	// account the gateway remembers for the per-account rate limit.
	consoleAccountsMax = 10_000
	consoleAccountTTL  = 10 * time.Minute
)

// HeaderCSRFToken carries a console session's CSRF token on the calls
// that change something.
const HeaderCSRFToken = "X-CSRF-Token"

// consoleCall is what a console request carries to core besides the
// client's address: the session cookie's value and the CSRF header.
type consoleCall struct {
	session string
	csrf    string
	// sessionKey is the session token's hash: the key of the session's
	// rate bucket and of its account in the gateway's memory.
	sessionKey string
	// secure: the platform is on https, so the cookie is Secure.
	secure bool
	// signOut: a successful answer ends the session (the sign-out, the
	// account's deletion) and clears the cookie.
	signOut bool
	// renew: a successful answer to a live session sets the cookie again
	// (every route but the sign-in, whose answer sets a new one, and the
	// sign-out).
	renew bool
}

// appendMetadata adds the console call's metadata for core.
func (c *consoleCall) appendMetadata(kv []string) []string {
	if c == nil {
		return kv
	}
	if c.session != "" {
		kv = append(kv, principal.KeyConsoleSession, c.session)
	}
	if c.csrf != "" {
		kv = append(kv, principal.KeyCSRFToken, c.csrf)
	}
	return kv
}

// consoleAccounts remembers which account a session acts in, as core
// reported it on an earlier answer, so a session's calls are charged to
// its account's bucket.
type consoleAccounts struct {
	cache *ttlcache.Cache[string]
}

func newConsoleAccounts() *consoleAccounts {
	return &consoleAccounts{cache: ttlcache.New[string](consoleAccountsMax)}
}

// admitConsole prepares a console route's call (after the cross-origin
// refusal, the body cap and the strict query): the cookie and the CSRF
// header for core, and, for a request with a session, the per-account
// rate limit. Whether the session is live and the CSRF token right is
// core's decision (UNAUTHORIZED, FORBIDDEN): one home for it.
func (g *Gateway) admitConsole(r *http.Request, st *requestState, m *policy.Method, now time.Time, out http.Header) error {
	c := &consoleCall{session: consoleSession(r), secure: g.publicBase(r).Scheme == "https",
		signOut: m.FullMethod == developerv1.DeveloperService_SignOut_FullMethodName ||
			m.FullMethod == developerv1.DeveloperService_DeleteAccount_FullMethodName}
	c.renew = !c.signOut && !policy.SignInLimited(m.FullMethod)
	if v := r.Header.Get(HeaderCSRFToken); len(v) <= maxCSRFToken && validCookieValue(v) {
		c.csrf = v
	}
	st.console = c
	if c.session == "" {
		// No session: core answers UNAUTHORIZED, or the route needs none
		// (sign-up, links, sign-in); the address's limits apply.
		return nil
	}
	sum := sha256.Sum256([]byte(c.session))
	c.sessionKey = hex.EncodeToString(sum[:16])
	key := "{cs:" + c.sessionKey + "}:console"
	if account, ok := g.consoleAccounts.cache.Get(c.sessionKey, now); ok {
		key = "{" + account + "}:console"
	}
	ctx, cancel := context.WithTimeout(r.Context(), g.cfg.AdmissionTimeout)
	res, err := g.cfg.Admission.Admit(ctx, admission.Request{Now: now,
		Buckets: []admission.Bucket{{Key: key, Limit: int64(g.cfg.ConsolePerMinute), Window: policy.ConsoleWindow}}})
	cancel()
	if err != nil {
		g.log.Error("admission store failed", zap.Error(err))
		return apierr.New(apierr.ServiceUnavailable, "the platform cannot admit requests right now; retry with backoff")
	}
	t := res.Tightest()
	setRateHeaders(out, t.Limit, t.Remaining, t.Reset)
	if !res.Allowed() {
		return &rateLimitedError{err: apierr.New(apierr.RateLimited, "too many console calls for this account; retry after the Retry-After delay"),
			retryAfter: res.RetryAfter(now), bucket: "console"}
	}
	return nil
}

// consoleSession is the console cookie's value, or "" when the request has
// none (core answers UNAUTHORIZED) or one that could not travel to core.
func consoleSession(r *http.Request) string {
	c, err := r.Cookie(ConsoleCookie)
	if err != nil || len(c.Value) > maxCookieValue || !validCookieValue(c.Value) {
		return ""
	}
	return c.Value
}

// consoleCookie is the console session cookie with value v; maxAge < 0
// deletes it.
func consoleCookie(v string, secure bool, maxAge int) *http.Cookie {
	return &http.Cookie{Name: ConsoleCookie, Value: v, Path: policy.ConsolePrefix[:len(policy.ConsolePrefix)-1], MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: secure}
}

// afterConsole runs on every successful answer of core and acts on console
// calls alone: the sign-out and the account's deletion clear the cookie; an
// answer core gave a live session (its account in the response metadata)
// renews the cookie's idle lifetime and tells the
// gateway which account the session's calls are charged to. The account
// never reaches the client (outgoingHeader drops it).
func (g *Gateway) afterConsole(st *requestState, w http.ResponseWriter) {
	c := st.console
	if c == nil {
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	if c.signOut {
		w.Header().Add("Set-Cookie", consoleCookie("", c.secure, -1).String())
		if c.sessionKey != "" {
			g.consoleAccounts.cache.Delete(c.sessionKey)
		}
		return
	}
	if c.session == "" || !c.renew {
		return
	}
	account := principal.First(st.header, principal.KeyConsoleAccount)
	if account == "" || !tokenChars(account, 64) {
		return
	}
	g.consoleAccounts.cache.Put(c.sessionKey, account, g.clock.Now().Add(consoleAccountTTL))
	w.Header().Add("Set-Cookie", consoleCookie(c.session, c.secure, consoleCookieMaxAge).String())
}
