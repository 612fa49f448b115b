package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"go.uber.org/zap"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/mallplatform/partnerapi/gateway/admission"
	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/policy"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/sdk/signing"
)

// The consent session cookie: set from a response field marked
// (mp.options.v1.field).session_cookie, read back on AUTH_SESSION routes.
const (
	// ConsentCookie is the cookie's name.
	ConsentCookie = principal.ConsentCookie
	// consentCookiePath scopes the cookie to the authorization routes (the
	// consent pages and the calls they make).
	consentCookiePath = "/open/v1/auth"
	// consentCookieMaxAge is the session's lifetime, in seconds.
	consentCookieMaxAge = int(policy.ConsentSessionTTL / time.Second)
	// maxCookieValue bounds the cookie value forwarded to core.
	maxCookieValue = 512
)

// signInTag is the Redis Cluster hash tag of every sign-in key: one call
// checks an address's and a username's keys together, so they share a slot
// (sign-ins are few; one slot carries them easily).
const signInTag = "{sv}"

// serveUnsigned is the request path of the consent flow's routes (after the
// request id, the address limiter, the canonical path and the route match):
// cross-origin refusal, body cap, strict query, on AUTH_SESSION routes the
// app's signature when the request carries one and the session cookie, on
// the sign-in route its limits, then core with the client's address.
func (g *Gateway) serveUnsigned(sw *statusWriter, r *http.Request, rid string, match *policy.Matched, call *coreCall, now time.Time, ip string) {
	m := match.Route.Method
	// A browser on another site must not drive a seller's session: refuse
	// cross-origin unsafe requests (Sec-Fetch-Site, else Origin vs Host).
	// Requests without either header (not from a browser) pass.
	if err := g.crossOrigin.Check(r); err != nil {
		writeError(sw, rid, apierr.Forbidden, "cross-origin request refused: this endpoint takes requests from the platform's own pages only")
		return
	}
	body, err := readBody(r, m.MaxBodyBytes())
	if err != nil {
		writeAPIError(sw, rid, err)
		return
	}
	req := call.input.New()
	if err := g.queryInto(r, call, req); err != nil {
		writeAPIError(sw, rid, err)
		return
	}
	st := g.newState(r, rid, m)
	st.clientIP = ip
	if m.Console() {
		if err := g.admitConsole(r, st, m, now, sw.Header()); err != nil {
			writeRefusal(sw, rid, err)
			return
		}
	}
	if m.Policy.GetAuth() == optionsv1.Auth_AUTH_SESSION {
		// Signing headers are never ignored: when present they must verify
		// as on any signed route, and the app goes to core with the session.
		if carriesSignature(r.Header) {
			p, err := g.authenticate(r, body, m, now, sw.Header())
			if err != nil {
				writeRefusal(sw, rid, err)
				return
			}
			sw.clientID = p.ClientID
			st.principal = p
		}
		st.consentSession = consentSession(r)
	}
	if member := policy.SignInIdentity(m.FullMethod); member != "" {
		if err := g.chargeSignIn(r.Context(), ip, member, body, now, sw.Header()); err != nil {
			writeRefusal(sw, rid, err)
			return
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), g.cfg.RequestTimeout)
	defer cancel()
	// These routes' bodies are optional: an empty one is an empty request.
	g.callCore(ctx, sw, st, match, call, req, coreRequest{body: body, optional: true})
}

// writeRefusal answers a refused request, with Retry-After and the bucket
// for the metrics when a rate limit refused it.
func writeRefusal(sw *statusWriter, rid string, err error) {
	var rl *rateLimitedError
	if errors.As(err, &rl) {
		sw.bucket = rl.bucket
		sw.Header().Set(sdk.HeaderRetryAfter, strconv.Itoa(int(rl.retryAfter/time.Second)))
	}
	writeAPIError(sw, rid, err)
}

// carriesSignature reports whether a request carries any of the app's
// signing headers.
func carriesSignature(h http.Header) bool {
	for _, name := range [...]string{signing.HeaderPartnerID, signing.HeaderTimestamp, signing.HeaderSignatureVersion, signing.HeaderSignature, signing.HeaderNonce} {
		if _, ok := h[http.CanonicalHeaderKey(name)]; ok {
			return true
		}
	}
	return false
}

// consentSession is the consent cookie's value, or "" when the request has
// none (core answers SESSION_EXPIRED) or one that could not travel to core.
func consentSession(r *http.Request) string {
	c, err := r.Cookie(ConsentCookie)
	if err != nil || len(c.Value) > maxCookieValue || !validCookieValue(c.Value) {
		return ""
	}
	return c.Value
}

// validCookieValue reports whether v is 1 or more cookie-octets (RFC 6265),
// which are also valid gRPC metadata.
func validCookieValue(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c <= 0x20 || c >= 0x7f || c == '"' || c == ',' || c == ';' || c == '\\' {
			return false
		}
	}
	return true
}

// chargeSignIn counts a sign-in attempt against the client address's limit
// and, when the body names a username (or, on the console, an email
// address: member names the body's member), the username's: trimmed and
// lowercased, whether or not such an account exists, and hashed so no
// username is kept in the store. Sellers' usernames and console addresses
// are counted apart. The tightest limit goes into the X-RateLimit-*
// headers.
func (g *Gateway) chargeSignIn(ctx context.Context, ip, member string, body []byte, now time.Time, out http.Header) error {
	limits := make([]admission.AttemptLimit, 1, 2)
	limits[0] = admission.AttemptLimit{Key: signInTag + ":ip:" + ip, Limit: policy.SignInPerAddress}
	if u := signInUsername(body, member); u != "" {
		kind := ":user:"
		if member != "username" {
			kind = ":" + member + ":"
		}
		sum := sha256.Sum256([]byte(u))
		limits = append(limits, admission.AttemptLimit{Key: signInTag + kind + hex.EncodeToString(sum[:]), Limit: policy.SignInPerUsername})
	}
	ctx, cancel := context.WithTimeout(ctx, g.cfg.AdmissionTimeout)
	res, err := g.attempts.Attempt(ctx, admission.AttemptRequest{Limits: limits, Window: policy.SignInWindow, Now: now})
	cancel()
	if err != nil {
		g.log.Error("sign-in attempt store failed", zap.Error(err))
		return apierr.New(apierr.ServiceUnavailable, "the platform cannot take sign-in attempts right now; retry with backoff")
	}
	t := res.Tightest()
	setRateHeaders(out, t.Limit, t.Remaining, t.Reset)
	if !res.Allowed {
		return &rateLimitedError{
			err:        apierr.New(apierr.RateLimited, "too many sign-in attempts from this address or for this username; retry after the Retry-After delay"),
			retryAfter: res.RetryAfter,
			bucket:     "sign_in",
		}
	}
	return nil
}

// signInUsername is the body's member (e.g. "username"), trimmed and
// lowercased, or "" when the body has none (the attempt then counts
// against the address alone). Only the exact member name counts, as core
// reads it.
func signInUsername(body []byte, member string) string {
	var members map[string]json.RawMessage
	if json.Unmarshal(body, &members) != nil {
		return ""
	}
	var u string
	if json.Unmarshal(members[member], &u) != nil {
		return ""
	}
	return policy.NormalizeUsername(u)
}

// newState is the request state for core, with the public base the
// response's location field is made absolute on when the method has one.
func (g *Gateway) newState(r *http.Request, rid string, m *policy.Method) *requestState {
	st := &requestState{requestID: rid}
	if rf := g.fields[m.Desc.Output().FullName()]; rf != nil {
		st.base = g.publicBase(r)
		if rf.EntityTag != nil {
			st.ifNoneMatch = r.Header.Get("If-None-Match")
		}
	}
	return st
}

// publicBase is the platform's public origin: the configured one, else the
// request's own scheme and Host.
func (g *Gateway) publicBase(r *http.Request) *url.URL {
	if g.publicURL != nil {
		return g.publicURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return &url.URL{Scheme: scheme, Host: r.Host}
}

// resolve returns the message holding the path's last field, when every
// message on the way is set.
func resolve(p policy.FieldPath, m protoreflect.Message) (protoreflect.Message, protoreflect.FieldDescriptor, bool) {
	for _, fd := range p[:len(p)-1] {
		if !m.Has(fd) {
			return nil, nil, false
		}
		m = m.Mutable(fd).Message()
	}
	return m, p[len(p)-1], true
}

// responseFieldPlans finds the response fields sent as HTTP on the response
// message of every routed method, by message name.
func responseFieldPlans(routes []*policy.Route) (map[protoreflect.FullName]*policy.ResponseFields, error) {
	out := map[protoreflect.FullName]*policy.ResponseFields{}
	for _, rt := range routes {
		md := rt.Method.Desc.Output()
		if _, done := out[md.FullName()]; done {
			continue
		}
		rf, err := policy.FindResponseFields(md)
		if err != nil {
			return nil, fmt.Errorf("gateway: %s: %w", rt.Method.FullMethod, err)
		}
		out[md.FullName()] = rf
	}
	for k, v := range out {
		if v == nil {
			delete(out, k)
		}
	}
	return out, nil
}

// applyResponseFields runs on every successful answer before it is written
// (writeAnswer calls it): the location field is made
// absolute on the public address and sent as the Location header (the
// route's success status is its redirect, checked at start-up); each
// session cookie field is sent as the route's session cookie (the
// console's on console routes, the consent flow's otherwise) and left out
// of the body.
func (g *Gateway) applyResponseFields(st *requestState, w http.ResponseWriter, resp proto.Message) error {
	m := resp.ProtoReflect()
	rf := g.fields[m.Descriptor().FullName()]
	if rf == nil {
		return nil
	}
	if st.base == nil {
		return errors.New("gateway: a response with a location or cookie field outside the request path")
	}
	if rf.Location != nil {
		if parent, fd, ok := resolve(rf.Location, m); ok {
			if v := parent.Get(fd).String(); v != "" {
				abs, err := absoluteOn(st.base, v)
				if err != nil {
					return err
				}
				parent.Set(fd, protoreflect.ValueOfString(abs))
				w.Header().Set("Location", abs)
			}
		}
	}
	for _, p := range rf.Cookies {
		parent, fd, ok := resolve(p, m)
		if !ok {
			continue
		}
		v := parent.Get(fd).String()
		parent.Clear(fd)
		if v == "" {
			continue
		}
		if len(v) > maxCookieValue || !validCookieValue(v) {
			return errors.New("gateway: core's session cookie value is not a valid cookie value")
		}
		secure := st.base.Scheme == "https"
		c := consoleCookie(v, secure, consoleCookieMaxAge) // the console's routes set the console's cookie
		if st.console == nil {
			c = &http.Cookie{Name: ConsentCookie, Value: v, Path: consentCookiePath, MaxAge: consentCookieMaxAge,
				HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: secure}
		}
		w.Header().Add("Set-Cookie", c.String())
	}
	if rf.EntityTag != nil {
		return applyEntityTag(w, rf.EntityTag, m, st.ifNoneMatch)
	}
	return nil
}

// absoluteOn makes a path (or URL) absolute on base; a URL on another
// origin is refused, since the platform redirects only to itself here.
func absoluteOn(base *url.URL, v string) (string, error) {
	ref, err := url.Parse(v)
	if err != nil {
		return "", fmt.Errorf("gateway: location %q does not parse: %w", v, err)
	}
	u := base.ResolveReference(ref)
	if u.Scheme != base.Scheme || u.Host != base.Host {
		return "", fmt.Errorf("gateway: location %q is not on the public address %s", v, base)
	}
	return u.String(), nil
}
