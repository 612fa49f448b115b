package gateway

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/mallplatform/partnerapi/gateway/iplimit"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/policy"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/telemetry"
	"github.com/mallplatform/partnerapi/internal/wirejson"
	"github.com/mallplatform/partnerapi/sdk"
)

// requestState is what the pipeline verified and decided about a request,
// for the call to core and the writing of its answer.
type requestState struct {
	requestID   string
	principal   *principal.Principal
	idempotency string
	// fingerprint binds the idempotency key to what the partner signed.
	fingerprint string
	// clientIP is the address an unsigned call is attributed to.
	clientIP string
	// consentSession is the consent cookie's value on AUTH_SESSION routes.
	consentSession string
	// console is a developer console call's session and CSRF token.
	console *consoleCall
	// base is the public origin a response's location field is made
	// absolute on (set when the method's response has one).
	base *url.URL
	// ifNoneMatch is the request's If-None-Match, kept when the method's
	// response has an entity tag field.
	ifNoneMatch string
	// header receives core's header metadata (the replay marks), through
	// callOpts; the second option, on calls whose answer is rendered from
	// the wire, is the link's codec (rawCodec).
	header   metadata.MD
	callOpts [2]grpc.CallOption
}

// ServeHTTP runs the request path of the design, in order: request id,
// recovery, pre-authentication limiter, route lookup, body cap, HMAC v3,
// nonce and rate buckets, route policy, strict query, then core. The
// consent flow's unsigned and session routes take serveUnsigned's path
// after the route lookup. With tracing on, the request runs in a server
// span.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if g.traced != nil {
		g.traced.ServeHTTP(w, r)
		return
	}
	g.serve(w, r)
}

func (g *Gateway) serve(w http.ResponseWriter, r *http.Request) {
	began := time.Now() // for metrics; g.clock is security time, which tests move
	start := g.clock.Now()
	rid := r.Header.Get(sdk.HeaderRequestID)
	if !principal.ValidRequestID(rid) {
		rid = ids.NewRequestID()
	}
	w.Header().Set(sdk.HeaderRequestID, rid)
	span, traced := telemetry.Recording(r.Context())
	if traced {
		span.SetAttributes(telemetry.AttrRequestID.String(rid))
	}
	sw := &statusWriter{ResponseWriter: w, success: http.StatusOK}
	route := "unmatched"
	defer func() {
		if p := recover(); p != nil {
			if err, ok := p.(error); ok && errors.Is(err, http.ErrAbortHandler) {
				panic(p)
			}
			g.log.Error("panic serving request", zap.String("request_id", rid), zap.Any("panic", p), zap.Stack("stack"))
			if !sw.wrote {
				writeError(sw, rid, apierr.Internal, "internal error")
			}
		}
		g.observe(r, route, sw, rid, time.Since(began))
	}()

	// Pre-authentication limiter: cheap, per source address, before any work.
	ip := iplimit.ClientIP(r, g.cfg.TrustedProxies)
	d := g.ipLimiter.Take(ip, start)
	// Until the app is known, the address's bucket is the one that applies.
	setRateHeaders(sw.Header(), int64(d.Limit), int64(d.Remaining), d.Reset)
	if !d.Allowed {
		sw.bucket = "ip"
		sw.Header().Set(sdk.HeaderRetryAfter, strconv.Itoa(int(d.RetryAfter/time.Second)))
		writeError(sw, rid, apierr.RateLimited, "too many requests from this address; retry after the Retry-After delay")
		return
	}

	if !canonicalPath(r.URL.Path) {
		writeError(sw, rid, apierr.NotFound, "no endpoint at this path (paths have no empty, . or .. segments)")
		return
	}
	match := g.table.Match(r.Method, r.URL.Path)
	switch match.Status {
	case http.StatusNotFound:
		writeError(sw, rid, apierr.NotFound, "no endpoint at "+r.Method+" "+r.URL.Path)
		return
	case http.StatusMethodNotAllowed:
		sw.Header().Set("Allow", strings.Join(match.Allowed, ", "))
		writeError(sw, rid, apierr.InvalidRequest, r.Method+" is not allowed here; allowed: "+strings.Join(match.Allowed, ", "))
		return
	}
	rt := match.Route
	route = rt.Template
	if traced {
		span.SetName(r.Method + " " + route)
	}
	method := rt.Method
	if g.refuseInMaintenance(sw, rid, method) {
		return
	}
	sw.success = method.SuccessStatus()

	// A route the gateway answers itself is unsigned (checkRoutes allows
	// nothing else): no body, signature or app bucket applies.
	if owned, ok := g.owned[method.FullMethod]; ok {
		if err := g.checkQuery(r, method); err != nil {
			g.refuseQuery(sw, rid, method, err)
			return
		}
		owned(sw, r)
		return
	}
	call, ok := g.calls[rt]
	if !ok {
		// In the policy table, but no partner-facing service serves it.
		writeError(sw, rid, apierr.NotFound, "no endpoint at "+r.Method+" "+r.URL.Path)
		return
	}
	// The consent flow's unsigned and session routes.
	if method.Unsigned() {
		g.serveUnsigned(sw, r, rid, &match, call, start, ip)
		return
	}

	body, err := readBody(r, method.MaxBodyBytes())
	if err != nil {
		writeAPIError(sw, rid, err)
		return
	}
	gzipped, err := bodyEncoding(r.Header, method)
	if err != nil {
		writeAPIError(sw, rid, err)
		return
	}

	// A malformed key is refused before the request is charged, so the
	// client can fix it and retry.
	idempotencyKey, err := readIdempotencyKey(r.Header)
	if err != nil {
		writeAPIError(sw, rid, err)
		return
	}

	p, err := g.authenticate(r, body, method, start, sw.Header())
	if err != nil {
		writeRefusal(sw, rid, err)
		return
	}
	sw.clientID = p.ClientID

	req := call.input.New()
	if err := g.queryInto(r, call, req); err != nil {
		writeAPIError(sw, rid, err)
		return
	}
	// The signature covered the bytes as sent; only a verified request is
	// worth inflating.
	if gzipped {
		if body, err = inflate(body, policy.MaxInflatedBodyBytes); err != nil {
			writeAPIError(sw, rid, err)
			return
		}
	}

	st := g.newState(r, rid, method)
	st.principal, st.idempotency = p, idempotencyKey
	if idempotencyKey != "" {
		st.fingerprint = requestFingerprint(r, body)
	}

	ctx, cancel := context.WithTimeout(r.Context(), g.cfg.RequestTimeout)
	defer cancel()
	in := coreRequest{body: body, optional: method.BodyOptional}
	if method.RawBody {
		// Valid UTF-8, as a proto string must be: a mangled header is a
		// type the service refuses, not a call that cannot be encoded.
		in.contentType = strings.ToValidUTF8(r.Header.Get("Content-Type"), "\uFFFD")
	}
	g.callCore(ctx, sw, st, &match, call, req, in)
}

// readBody reads the whole body under the route's cap: a declared length
// over the cap is refused before reading, and a chunked body is cut off one
// byte past it.
func readBody(r *http.Request, max int64) ([]byte, error) {
	tooLarge := func() error { return apierr.Newf(apierr.PayloadTooLarge, "request body is larger than %d bytes", max) }
	if r.ContentLength > max {
		return nil, tooLarge()
	}
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		return nil, nil
	}
	n := r.ContentLength
	if n < 0 {
		n = 512
	}
	buf := make([]byte, 0, n+1)
	for {
		if int64(len(buf)) > max {
			return nil, tooLarge()
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := r.Body.Read(buf[len(buf):min(int64(cap(buf)), max+1)])
		buf = buf[:len(buf)+m]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, tooLarge()
			}
			return nil, apierr.New(apierr.BadRequest, "request body could not be read")
		}
	}
	if int64(len(buf)) > max {
		return nil, tooLarge()
	}
	return buf, nil
}

// bucketNames name Limits.Buckets' entries, in its order.
var bucketNames = [...]string{"app", "account", "sandbox"}

// bucketName names the i-th bucket of an admission (a bucket past the known
// ones takes the last name).
func bucketName(i int) string { return bucketNames[min(i, len(bucketNames)-1)] }

// The rate headers' names in their canonical form, so that writing them
// does not canonicalize (and copy) the names on every request.
var (
	rateLimitKey     = http.CanonicalHeaderKey(sdk.HeaderRateLimitLimit)
	rateRemainingKey = http.CanonicalHeaderKey(sdk.HeaderRateLimitRemaining)
	rateResetKey     = http.CanonicalHeaderKey(sdk.HeaderRateLimitReset)
)

// setRateHeaders sets the three X-RateLimit-* headers (replacing earlier
// values) from one string and one slice: the three numbers are written
// into one buffer and each header's value is a part of it.
func setRateHeaders(h http.Header, limit, remaining int64, reset time.Time) {
	var buf [64]byte
	b := strconv.AppendInt(buf[:0], limit, 10)
	l := len(b)
	b = strconv.AppendInt(b, max(remaining, 0), 10)
	r := len(b)
	b = strconv.AppendInt(b, reset.Unix(), 10)
	s := string(b)
	// A request sets them twice (the address's bucket, then the app's):
	// the second time the values this function made are overwritten in place.
	limitV, remainingV, resetV := h[rateLimitKey], h[rateRemainingKey], h[rateResetKey]
	if len(limitV) == 1 && len(remainingV) == 1 && len(resetV) == 1 {
		limitV[0], remainingV[0], resetV[0] = s[:l], s[l:r], s[r:]
		return
	}
	vals := make([]string, 3)
	vals[0], vals[1], vals[2] = s[:l], s[l:r], s[r:]
	h[rateLimitKey] = vals[0:1:1]
	h[rateRemainingKey] = vals[1:2:2]
	h[rateResetKey] = vals[2:3:3]
}

// checkQuery parses the query strictly against the method's request type, so
// unknown or malformed parameters get the spec's codes instead of being
// dropped: for the routes the gateway answers itself, which take no request
// message (core's routes parse theirs once, into the request: queryInto).
func (g *Gateway) checkQuery(r *http.Request, m *policy.Method) error {
	if r.URL.RawQuery == "" {
		return nil
	}
	values, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return apierr.New(apierr.BadRequest, "the query string is malformed")
	}
	q := g.queries[m.FullMethod]
	return wirejson.ParseQuery(q.input.New().Interface(), values, q.excluded)
}

// pageRefusal renders a page set's error page for a refused request: its
// status and the refusal's message, which the platform wrote (never
// core's).
type pageRefusal func(w http.ResponseWriter, status int, message string)

// refuseQuery answers a query an owned route does not take: a page (HTML)
// route with its page set's error page, at the error's status and with its
// code recorded for the access log and metrics; any other with the error
// body.
func (g *Gateway) refuseQuery(w http.ResponseWriter, rid string, m *policy.Method, err error) {
	page, isPage := g.pageRefusals[m.FullMethod]
	e, ok := apierr.As(err)
	if !isPage || !ok {
		writeAPIError(w, rid, err)
		return
	}
	recordError(w, e.Code)
	page(w, apierr.HTTPStatus(e.Code), e.Message)
}

func writeAPIError(w http.ResponseWriter, rid string, err error) {
	if e, ok := apierr.As(err); ok {
		writeErrorFields(w, rid, e.Code, e.Message, e.Fields)
		return
	}
	writeError(w, rid, apierr.Internal, "internal error")
}

// statusWriter applies the route's success status (201, 202) to the 200 that
// grpc-gateway writes, and remembers for logs, metrics and traces the status,
// the error code the error writer answered with, the verified client id and
// the rate bucket that refused the request.
type statusWriter struct {
	http.ResponseWriter
	success int
	code    int
	wrote   bool
	// bodyless: the answer is 304 Not Modified, whose body is dropped.
	bodyless bool
	errCode  apierr.Code
	clientID string
	bucket   string
}

func (s *statusWriter) recordError(code apierr.Code) { s.errCode = code }

func (s *statusWriter) WriteHeader(code int) {
	if s.wrote {
		return
	}
	if code == http.StatusOK {
		code = s.success
	}
	s.code, s.wrote = code, true
	if code == http.StatusNotModified {
		s.Header().Del("Content-Type")
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if !s.wrote {
		s.WriteHeader(http.StatusOK)
	}
	if s.bodyless {
		return len(b), nil
	}
	return s.ResponseWriter.Write(b)
}

// notModified turns the success answer about to be written into 304 Not
// Modified with no body (the client's copy, named by If-None-Match, is
// current).
func (s *statusWriter) notModified() {
	if !s.wrote {
		s.success, s.bodyless = http.StatusNotModified, true
	}
}

func (s *statusWriter) status() int {
	if !s.wrote {
		return http.StatusOK
	}
	return s.code
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
