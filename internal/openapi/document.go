// Package openapi builds the OpenAPI 3.1 document of /open/v1 from what the
// wire is built from: the routes and policy of internal/policy (read from
// the proto descriptors), the wire-JSON shapes of internal/wirejson
// (names, presence, enums' wire names, int64 as JSON integers), the
// protovalidate rules, the error catalogue of internal/apierr and the
// header names of the SDK. Nothing in it is written by hand: a route added
// to the protos is described by the next build. The gateway serves the
// document (GET /open/v1/openapi.json) and gen/openapi/openapi.json holds a
// copy that CI keeps in step.
package openapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"google.golang.org/protobuf/reflect/protoreflect"

	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/policy"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/wirejson"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/sdk/signing"
)

// Version is the interface version the document carries (the spec's
// "machine-readable description carries version 1.0.0").
const Version = "1.0.0"

// httpBody is the response type of routes that answer raw bytes rather
// than the success envelope.
const httpBody protoreflect.FullName = "google.api.HttpBody"

// document is one of the two documents: /open/v1's, or the developer
// console's (/console/v1), each describing its own routes alone.
type document struct {
	title, description string
	console            bool
}

// Build renders the document of /open/v1 (every route of table outside the
// console's), as indented JSON ending in a newline. The same table gives
// the same bytes.
func Build(table *policy.Table) ([]byte, error) {
	return build(table, document{title: "Partner Marketplace Open API", description: infoDescription})
}

// BuildConsole renders the document of the developer console's JSON API:
// the routes under /console/ alone.
func BuildConsole(table *policy.Table) ([]byte, error) {
	return build(table, document{title: "Partner Marketplace developer console API", description: consoleDescription, console: true})
}

func build(table *policy.Table, d document) ([]byte, error) {
	b := &builder{schemas: newSchemas(), operationIDs: map[string]string{}, console: d.console}
	doc := obj(
		"openapi", "3.1.0",
		"info", obj(
			"title", d.title,
			"version", Version,
			"description", d.description,
		),
		"servers", []any{obj(
			"url", "{baseUrl}",
			"description", "The production or sandbox host; sandbox credentials work only on the sandbox host.",
			"variables", obj("baseUrl", obj("default", "http://127.0.0.1:8080", "description", "Scheme and host of the deployment (the dev role listens on 127.0.0.1:8080).")),
		)},
	)
	paths, tags := b.paths(table)
	doc.set("tags", tags)
	doc.set("paths", paths)
	doc.set("components", obj(
		"schemas", b.schemas.section,
		"headers", headerComponents(d.console),
		"securitySchemes", securitySchemes(d.console),
	))
	if len(b.schemas.errs) > 0 || len(b.errs) > 0 {
		return nil, fmt.Errorf("openapi: %s", strings.Join(append(b.errs, b.schemas.errs...), "; "))
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	return append(out, '\n'), nil
}

const infoDescription = `HTTP/JSON interface through which partner apps manage a seller's catalog and read orders on the marketplace.

Every answer that succeeds is {"success": true, "data": ...}, lists add "meta" {page, limit, total, next_cursor}. Every failure is {"success": false, "error": {"code", "message"}, "requestId"}: clients branch on error.code, messages may change; some codes add a machine-readable error.reason and error.retryable. Money is integer centavos (PHP) and every count and amount is a JSON integer, never a string. Timestamps are ISO-8601 date-times, in UTC with milliseconds in answers. In request bodies, JSON null means the field is not sent.

Every route is signed with HMAC-SHA256, signature version 3: the string {timestamp}:{clientId}:{METHOD}:{path}:{canonicalQuery}:{sha256(body)}:{nonce} keyed with the app's client secret, sent in the five X-Platform-* signing headers (see the security schemes). Seller-scoped routes add the seller's access token and shop id. The exceptions are this document and the calls the consent pages make from the seller's browser in the seller authorization flow: the sign-in is unsigned, and the later steps carry the consent session cookie (mp_consent) that the sign-in's answer sets; cross-origin browser requests to them are refused.

Every answer carries X-Request-Id and the X-RateLimit-* headers of the most constrained bucket; 429, 409 and 503 carry Retry-After. A path no route has answers 404 NOT_FOUND; a path with another method answers 405 INVALID_REQUEST with an Allow header.`

const consoleDescription = `JSON API of the developer console, through which partners sign up, verify their email address, sign in and manage their developer account and its apps without an operator. The console's pages (GET /console/…, HTML the gateway renders itself, listed here too) call it from the person's browser; it is also usable with curl.

Every answer that succeeds is {"success": true, "data": ...}; every failure is {"success": false, "error": {"code", "message"}, "requestId"}: clients branch on error.code, messages may change. Timestamps are ISO-8601 date-times in UTC.

The sign-in (POST /console/v1/session) sets the session cookie mp_console (HttpOnly, SameSite=Strict, Path=/console, Secure on https) and answers the session's csrfToken. The cookie lapses after 12 hours without a call; every answer to a live session renews it, and the sign-out clears it. Without a session the answer is 401 UNAUTHORIZED. Every call that changes something (any method but GET) carries the csrfToken in the X-CSRF-Token header: missing or wrong, the answer is 403 FORBIDDEN. A cross-origin browser request (Sec-Fetch-Site cross-site or same-site, or an Origin other than the host) is refused with 403 FORBIDDEN.

Rate limits: the platform's limit per client address, the sign-in's attempts per address and per email address, and the calls of one developer account (across its sessions) per minute; every answer carries X-Request-Id and the X-RateLimit-* headers of the most constrained bucket, and 429 RATE_LIMITED carries Retry-After.`

type builder struct {
	schemas      *schemas
	operationIDs map[string]string
	errs         []string
	// console: the console's document (its routes alone).
	console bool
}

// verbOrder is the order of operations within a path.
var verbOrder = map[string]int{http.MethodGet: 0, http.MethodPost: 1, http.MethodPut: 2, http.MethodPatch: 3, http.MethodDelete: 4}

func (b *builder) paths(table *policy.Table) (*node, []any) {
	var routes []*policy.Route
	for _, rt := range table.Routes() {
		if rt.OnConsole() == b.console {
			routes = append(routes, rt)
		}
	}
	sort.Slice(routes, func(i, j int) bool {
		if routes[i].Template != routes[j].Template {
			return routes[i].Template < routes[j].Template
		}
		return verbOrder[routes[i].HTTPMethod] < verbOrder[routes[j].HTTPMethod]
	})
	paths := obj()
	tagSet := map[string]bool{}
	tagDescriptions := map[string]string{}
	for _, rt := range routes {
		item, _ := paths.get(rt.Template).(*node)
		if item == nil {
			item = obj()
			paths.set(rt.Template, item)
		}
		op := b.operation(rt)
		item.set(strings.ToLower(rt.HTTPMethod), op)
		tagSet[tagOf(rt.Method)] = true
		tagDescriptions[tagOf(rt.Method)] = comment(rt.Method.Desc.Parent())
	}
	names := make([]string, 0, len(tagSet))
	for t := range tagSet {
		names = append(names, t)
	}
	sort.Strings(names)
	tags := make([]any, 0, len(names))
	for _, t := range names {
		tags = append(tags, obj("name", t, "description", tagDescriptions[t]))
	}
	return paths, tags
}

// tagOf groups operations by service: CatalogService → Catalog.
func tagOf(m *policy.Method) string {
	return strings.TrimSuffix(string(m.Desc.Parent().Name()), "Service")
}

func (b *builder) operation(rt *policy.Route) *node {
	m := rt.Method
	id := string(m.Desc.Name())
	if other, dup := b.operationIDs[id]; dup && other != m.FullMethod {
		b.errs = append(b.errs, fmt.Sprintf("operationId %s is used by %s and %s", id, other, m.FullMethod))
	}
	b.operationIDs[id] = m.FullMethod
	ex := exampleFields(m)
	op := obj(
		"operationId", id,
		"summary", summaryOf(id),
		"description", describe(m),
		"tags", []any{tagOf(m)},
		"security", security(m),
	)
	if params := b.parameters(rt, ex); len(params) > 0 {
		op.set("parameters", params)
	}
	if body := b.requestBody(m, ex); body != nil {
		op.set("requestBody", body)
	}
	op.set("responses", b.responses(m))
	op.set("x-mp-policy", policyExtension(m))
	return op
}

// summaryOf turns a method name into words: ListCategoryAttributes → "List
// category attributes".
func summaryOf(name string) string {
	var words []string
	start := 0
	for i, r := range name {
		if i > 0 && unicode.IsUpper(r) {
			words = append(words, strings.ToLower(name[start:i]))
			start = i
		}
	}
	words = append(words, strings.ToLower(name[start:]))
	s := strings.Join(words, " ")
	return strings.ToUpper(s[:1]) + s[1:]
}

func describe(m *policy.Method) string {
	p := m.Policy
	var lines []string
	if c := comment(m.Desc); c != "" {
		lines = append(lines, c)
	}
	if NotBuilt(m) {
		lines = append(lines, "**Not built yet.** The route is declared with its contract (request rules, scope, seller token), "+
			"checks requests as described, then answers 501 NOT_IMPLEMENTED. The success response below is the answer it will give once built.")
	}
	if m.GatewayOwned() && len(p.GetMediaTypes()) > 0 {
		lines = append(lines, "Unsigned: the gateway answers it itself, for a browser. The body is "+strings.Join(p.GetMediaTypes(), " or ")+", not the success envelope.")
		return strings.Join(lines, "\n\n")
	}
	if !m.GatewayOwned() && m.RawAnswer() && len(p.GetMediaTypes()) > 0 {
		lines = append(lines, "The body is the document itself ("+strings.Join(p.GetMediaTypes(), " or ")+"), not the success envelope; errors keep the error envelope.")
	}
	if m.GatewayOwned() {
		lines = append(lines, "Unsigned: the gateway answers it itself, from the same descriptors, policy and error catalogue the interface is built from. The body is the document itself, not inside the success envelope.")
		return strings.Join(lines, "\n\n")
	}
	switch p.GetAuth() {
	case optionsv1.Auth_AUTH_NONE:
		lines = append(lines, "Unsigned: the consent pages call it from the seller's browser. A cross-origin browser request (Sec-Fetch-Site cross-site or same-site, or an Origin other than the host) is refused with 403 FORBIDDEN.")
	case optionsv1.Auth_AUTH_SESSION:
		lines = append(lines, "Session: the consent session cookie ("+principal.ConsentCookie+") identifies the authorization; without it the answer is 401 SESSION_EXPIRED. "+
			"The app's signing headers may be sent too, and are then verified as on any signed route. A cross-origin browser request is refused with 403 FORBIDDEN.")
	case optionsv1.Auth_AUTH_CONSOLE:
		if consoleSessionRequired(m) {
			line := "Console session: the " + principal.ConsoleCookie + " cookie; without a live one the answer is 401 UNAUTHORIZED."
			if consoleCSRF(m) {
				line += " The session's csrfToken goes in the X-CSRF-Token header: missing or wrong, the answer is 403 FORBIDDEN."
			}
			lines = append(lines, line+fmt.Sprintf(" Charged to the account's console rate limit (%d calls a minute by default).", policy.ConsolePerAccount))
		} else {
			lines = append(lines, "No session needed.")
		}
		lines = append(lines, "A cross-origin browser request is refused with 403 FORBIDDEN.")
	}
	if policy.SignInLimited(m.FullMethod) {
		who := "username (as typed, whether or not a seller has it)"
		if m.Console() {
			who = "email address (as typed, whether or not an account has it)"
		}
		lines = append(lines, fmt.Sprintf("Attempts: %d per client address and %d per "+who+" in a rolling %d minutes; every attempt counts, "+
			"a refused one is not counted and does not extend the window; over either limit the answer is 429 RATE_LIMITED with Retry-After (seconds until the oldest counted attempt leaves the window).",
			policy.SignInPerAddress, policy.SignInPerUsername, int(policy.SignInWindow/time.Minute)))
	}
	if rf := responseFields(m); rf != nil {
		if rf.Location != nil {
			lines = append(lines, "Redirect: the answer's Location header is the body's `"+rf.Location[len(rf.Location)-1].JSONName()+"`, absolute on the platform's address.")
		}
		if rf.EntityTag != nil {
			lines = append(lines, "Caching: the answer carries a strong ETag, a hash of its content; a request whose If-None-Match names it answers 304 Not Modified with no body.")
		}
		if rf.Cookies != nil && m.Console() {
			lines = append(lines, fmt.Sprintf("The answer sets the console session cookie (%s; Path=/console; Max-Age=%d; HttpOnly; SameSite=Strict; Secure on https), which the following calls send.",
				principal.ConsoleCookie, int(policy.ConsoleSessionIdle/time.Second)))
		} else if rf.Cookies != nil {
			lines = append(lines, "The answer sets the consent session cookie ("+principal.ConsentCookie+"; Path=/open/v1/auth; Max-Age=600; HttpOnly; SameSite=Strict; Secure on https), which the following steps send.")
		}
	}
	if m.Unsigned() {
		// No app: no scope.
	} else if s := p.GetScope(); s != "" {
		lines = append(lines, "Scope: `"+s+"` (held by the app and, on seller routes, granted by the seller).")
	} else {
		lines = append(lines, "Scope: none; any verified app may call it.")
	}
	if m.SellerToken() {
		lines = append(lines, "Seller token: required ("+signing.HeaderAccessToken+" and "+signing.HeaderSellerID+").")
	} else if m.SellerOptional() {
		lines = append(lines, "Seller token: optional ("+signing.HeaderAccessToken+" and "+signing.HeaderSellerID+"); when sent, both headers are verified and the call acts for that seller.")
	}
	if p.GetSandbox() {
		lines = append(lines, "Sandbox tool: charged to the sandbox rate sub-limit besides the app's; live credentials get 403 SANDBOX_ONLY.")
	}
	switch p.GetIdempotency() {
	case optionsv1.Idempotency_IDEMPOTENCY_OPTIONAL:
		lines = append(lines, "Idempotency-Key: optional; a repeat with the same key and request replays the first answer (marked Idempotent-Replayed).")
	case optionsv1.Idempotency_IDEMPOTENCY_REQUIRED:
		lines = append(lines, "Idempotency-Key: required; a repeat with the same key and request replays the first answer (marked Idempotent-Replayed).")
	}
	if m.BodyField != "" {
		lines = append(lines, "Request body: at most "+strconv.FormatInt(m.MaxBodyBytes(), 10)+" bytes.")
	}
	if m.GzipBody() {
		lines = append(lines, "Content-Encoding: gzip is accepted: the signature covers the compressed bytes as sent, which the body limit above counts; "+
			"the decompressed body may hold at most "+strconv.FormatInt(policy.MaxInflatedBodyBytes, 10)+" bytes (413 PAYLOAD_TOO_LARGE past it); "+
			"a body that is not a valid gzip stream is 400 BAD_REQUEST.")
	}
	return strings.Join(lines, "\n\n")
}

// policyExtension repeats the route policy in machine-readable form.
func policyExtension(m *policy.Method) *node {
	p := m.Policy
	auth := "hmac-v3"
	switch p.GetAuth() {
	case optionsv1.Auth_AUTH_NONE:
		auth = "none"
	case optionsv1.Auth_AUTH_SESSION:
		auth = "session"
	case optionsv1.Auth_AUTH_CONSOLE:
		auth = "console"
	}
	x := obj("auth", auth, "successStatus", m.SuccessStatus())
	if policy.SignInLimited(m.FullMethod) {
		x.set("signInLimits", obj("perAddress", policy.SignInPerAddress, "perUsername", policy.SignInPerUsername, "windowSeconds", int(policy.SignInWindow/time.Second)))
	}
	if m.Console() && consoleSessionRequired(m) {
		x.set("consoleSession", true)
		if consoleCSRF(m) {
			x.set("csrf", true)
		}
	}
	if s := p.GetScope(); s != "" {
		x.set("scope", s)
	}
	if m.SellerToken() {
		x.set("sellerToken", true)
	} else if m.SellerOptional() {
		x.set("sellerTokenOptional", true)
	}
	if p.GetSandbox() {
		x.set("sandbox", true)
	}
	switch p.GetIdempotency() {
	case optionsv1.Idempotency_IDEMPOTENCY_OPTIONAL:
		x.set("idempotency", "optional")
	case optionsv1.Idempotency_IDEMPOTENCY_REQUIRED:
		x.set("idempotency", "required")
	}
	if m.BodyField != "" {
		x.set("maxBodyBytes", m.MaxBodyBytes())
	}
	if m.GzipBody() {
		x.set("gzipBody", true)
		x.set("maxInflatedBodyBytes", int64(policy.MaxInflatedBodyBytes))
	}
	if NotBuilt(m) {
		x.set("notBuilt", true)
	}
	if m.GatewayOwned() {
		x.set("gatewayOwned", true)
	}
	return x
}

// The security schemes: the signature's five headers and the seller's two,
// required together.
const (
	schemePartnerID        = "PartnerId"
	schemeTimestamp        = "Timestamp"
	schemeSignatureVersion = "SignatureVersion"
	schemeNonce            = "Nonce"
	schemeSignature        = "Signature"
	schemeAccessToken      = "SellerAccessToken"
	schemeSellerID         = "SellerId"
	schemeConsentSession   = "ConsentSession"
	schemeConsoleSession   = "ConsoleSession"
	schemeConsoleCSRF      = "ConsoleCsrf"
)

// consoleSessionRequired reports whether a console route needs a session:
// it answers UNAUTHORIZED for want of one (the sign-in answers it for a
// wrong password, and needs none).
func consoleSessionRequired(m *policy.Method) bool {
	if policy.SignInLimited(m.FullMethod) {
		return false
	}
	for _, c := range DeclaredCodes(m) {
		if c == apierr.Unauthorized {
			return true
		}
	}
	return false
}

// consoleCSRF reports whether a console route that needs a session also
// needs its CSRF token: every one that changes something (any verb but GET).
func consoleCSRF(m *policy.Method) bool { return m.Routes[0].HTTPMethod != http.MethodGet }

func security(m *policy.Method) []any {
	switch m.Policy.GetAuth() {
	case optionsv1.Auth_AUTH_NONE:
		return []any{}
	case optionsv1.Auth_AUTH_CONSOLE:
		if !consoleSessionRequired(m) {
			return []any{}
		}
		if !consoleCSRF(m) {
			return []any{obj(schemeConsoleSession, []any{})}
		}
		return []any{obj(schemeConsoleSession, []any{}, schemeConsoleCSRF, []any{})}
	case optionsv1.Auth_AUTH_SESSION:
		// The session alone, or with the app's signature (then verified).
		return []any{
			obj(schemeConsentSession, []any{}),
			obj(schemeConsentSession, []any{}, schemePartnerID, []any{}, schemeTimestamp, []any{}, schemeSignatureVersion, []any{}, schemeNonce, []any{}, schemeSignature, []any{}),
		}
	}
	scopes := []any{}
	if s := m.Policy.GetScope(); s != "" {
		scopes = append(scopes, s)
	}
	req := obj(
		schemePartnerID, scopes,
		schemeTimestamp, []any{},
		schemeSignatureVersion, []any{},
		schemeNonce, []any{},
		schemeSignature, []any{},
	)
	if m.SellerToken() {
		req.set(schemeAccessToken, []any{})
		req.set(schemeSellerID, []any{})
	}
	if m.SellerOptional() {
		// Two alternatives: signed alone, or signed with the seller pair.
		withSeller := obj(
			schemePartnerID, scopes,
			schemeTimestamp, []any{},
			schemeSignatureVersion, []any{},
			schemeNonce, []any{},
			schemeSignature, []any{},
			schemeAccessToken, []any{},
			schemeSellerID, []any{},
		)
		return []any{req, withSeller}
	}
	return []any{req}
}

func securitySchemes(console bool) *node {
	header := func(name, desc string) *node {
		return obj("type", "apiKey", "in", "header", "name", name, "description", desc)
	}
	if console {
		return obj(
			schemeConsoleSession, obj("type", "apiKey", "in", "cookie", "name", principal.ConsoleCookie,
				"description", "The console session: set HttpOnly by the sign-in's answer (POST /console/v1/session), renewed by every answer to a live session, cleared by the sign-out."),
			schemeConsoleCSRF, header("X-CSRF-Token", "The session's csrfToken (from the sign-in's answer or GET /console/v1/session), on every call that changes something."),
		)
	}
	return obj(
		schemePartnerID, header(signing.HeaderPartnerID, "The app's client id (sandbox ids start test_, live ids live_). The scopes listed on an operation are those the app must hold."),
		schemeTimestamp, header(signing.HeaderTimestamp, "Unix epoch seconds; accepted within the deployment's window (default 90 s) of the server's time."),
		schemeSignatureVersion, header(signing.HeaderSignatureVersion, "Must be 3."),
		schemeNonce, header(signing.HeaderNonce, "32 to 64 lowercase hexadecimal characters, used once per app within the window."),
		schemeSignature, header(signing.HeaderSignature, "Lowercase hex HMAC-SHA256, keyed with the client secret, of {timestamp}:{clientId}:{METHOD}:{path}:{canonicalQuery}:{sha256(body)}:{nonce}."),
		schemeAccessToken, header(signing.HeaderAccessToken, "The seller's access token from the consent flow; not part of the signed string."),
		schemeSellerID, header(signing.HeaderSellerID, "The seller's shop id; not part of the signed string."),
		schemeConsentSession, obj("type", "apiKey", "in", "cookie", "name", principal.ConsentCookie,
			"description", "The consent session: set HttpOnly by the sign-in's answer in the seller's browser, sent back by the consent pages' later calls."),
	)
}

// Response header components, keyed by header name.
var headerRefs = map[string]string{
	sdk.HeaderRequestID:          "RequestId",
	sdk.HeaderRateLimitLimit:     "RateLimitLimit",
	sdk.HeaderRateLimitRemaining: "RateLimitRemaining",
	sdk.HeaderRateLimitReset:     "RateLimitReset",
	sdk.HeaderRetryAfter:         "RetryAfter",
	sdk.HeaderIdempotentReplayed: "IdempotentReplayed",
}

func headerComponents(console bool) *node {
	integer := obj("type", "integer", "format", "int64", "minimum", 0)
	h := obj(
		"RequestId", obj("description", "The request's id (the client's X-Request-Id when it is 1 to 128 of [A-Za-z0-9._-], otherwise made by the platform); error bodies repeat it as requestId.", "required", true, "schema", obj("type", "string")),
		"RateLimitLimit", obj("description", "Ceiling of the most constrained rate bucket (before the app is known: the caller's address's).", "required", true, "schema", integer),
		"RateLimitRemaining", obj("description", "Requests left in that bucket's window.", "required", true, "schema", integer),
		"RateLimitReset", obj("description", "Unix time (seconds) when the window ends.", "required", true, "schema", integer),
		"RetryAfter", obj("description", "Seconds to wait before retrying.", "required", true, "schema", obj("type", "integer", "minimum", 1)),
	)
	if !console {
		// The console's routes take no Idempotency-Key.
		h.set("IdempotentReplayed", obj("description", "Present on an answer replayed for an Idempotency-Key.", "schema", obj("type", "string", "const", "true")))
	}
	return h
}

func headerRef(name string) *node { return obj("$ref", "#/components/headers/"+headerRefs[name]) }

// commonHeaders are on every answer.
func commonHeaders(m *policy.Method) *node {
	h := obj(
		sdk.HeaderRequestID, headerRef(sdk.HeaderRequestID),
		sdk.HeaderRateLimitLimit, headerRef(sdk.HeaderRateLimitLimit),
		sdk.HeaderRateLimitRemaining, headerRef(sdk.HeaderRateLimitRemaining),
		sdk.HeaderRateLimitReset, headerRef(sdk.HeaderRateLimitReset),
	)
	if m.Policy.GetIdempotency() != optionsv1.Idempotency_IDEMPOTENCY_NONE_UNSPECIFIED {
		h.set(sdk.HeaderIdempotentReplayed, headerRef(sdk.HeaderIdempotentReplayed))
	}
	return h
}

// exampleFields renders a method's example request through the wire codec
// and returns its members by wire name.
func exampleFields(m *policy.Method) map[string]json.RawMessage {
	ex, ok := examples[m.FullMethod]
	if !ok {
		return nil
	}
	raw, err := wirejson.Marshal(ex)
	if err != nil {
		return nil
	}
	var out map[string]json.RawMessage
	if json.Unmarshal(raw, &out) != nil {
		return nil
	}
	return out
}

func exampleValue(raw json.RawMessage) any {
	if raw == nil {
		return nil
	}
	var v any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return nil
	}
	return pruneEmpty(v)
}

// pruneEmpty drops the empty lists the encoder writes for fields an
// example leaves unset: a request need not send them.
func pruneEmpty(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if l, ok := e.([]any); ok && len(l) == 0 {
				delete(t, k)
				continue
			}
			t[k] = pruneEmpty(e)
		}
	case []any:
		for i, e := range t {
			t[i] = pruneEmpty(e)
		}
	}
	return v
}

func (b *builder) parameters(rt *policy.Route, ex map[string]json.RawMessage) []any {
	m := rt.Method
	var params []any
	shape := wirejson.Shape(m.Desc.Input())
	byProtoName := map[string]wirejson.FieldShape{}
	for _, f := range shape.Fields {
		byProtoName[string(f.Desc.Name())] = f
	}
	// Path parameters, in the template's order.
	for _, name := range rt.Variables() {
		f := byProtoName[name]
		sch, _ := b.schemas.field(f, input)
		params = append(params, obj("name", name, "in", "path", "required", true, "schema", sch, "example", exampleValue(ex[f.Name])))
	}
	if m.BodyField != "*" {
		for _, f := range shape.Fields {
			name := string(f.Desc.Name())
			if m.PathFields[name] || name == m.BodyField {
				continue
			}
			sch, req := b.schemas.field(f, input)
			p := obj("name", f.Name, "in", "query", "required", req, "schema", sch, "example", exampleValue(ex[f.Name]))
			params = append(params, p)
		}
	}
	if rf := responseFields(m); rf != nil && rf.EntityTag != nil {
		params = append(params, obj(
			"name", "If-None-Match", "in", "header", "required", false,
			"description", "Entity tags of copies the client holds (or *): when one is current the answer is 304 Not Modified with no body.",
			"schema", obj("type", "string", "maxLength", 1024),
			"example", `"3f1c9a6e7b2d4c1e9a5f0d8e2b4c6a10"`,
		))
	}
	switch m.Policy.GetIdempotency() {
	case optionsv1.Idempotency_IDEMPOTENCY_OPTIONAL, optionsv1.Idempotency_IDEMPOTENCY_REQUIRED:
		required := m.Policy.GetIdempotency() == optionsv1.Idempotency_IDEMPOTENCY_REQUIRED
		params = append(params, obj(
			"name", sdk.HeaderIdempotencyKey, "in", "header", "required", required,
			"description", "A key for safe retries, unique per logical request; kept 24 hours.",
			"schema", obj("type", "string", "minLength", 1, "maxLength", 255, "pattern", "^[\\x20-\\x7E]+$"),
			"example", "3f1c9a6e-7b2d-4c1e-9a5f-0d8e2b4c6a10",
		))
	}
	return params
}

func (b *builder) requestBody(m *policy.Method, ex map[string]json.RawMessage) *node {
	var sch *node
	var example any
	if m.RawBody {
		// The bytes as sent, in one of the declared media types.
		content := obj()
		for _, mt := range m.Policy.GetRequestMediaTypes() {
			content.set(mt, obj("schema", obj("type", "string", "format", "binary")))
		}
		if len(m.Policy.GetRequestMediaTypes()) == 0 {
			b.errs = append(b.errs, m.FullMethod+": a raw request body needs (mp.options.v1.policy).request_media_types")
		}
		return obj("required", true, "content", content)
	}
	switch m.BodyField {
	case "":
		return nil
	case "*":
		sch = b.schemas.message(m.Desc.Input(), input)
		if ex != nil {
			all, _ := json.Marshal(ex)
			example = exampleValue(all)
		}
	default:
		fd := m.Desc.Input().Fields().ByName(protoreflect.Name(m.BodyField))
		if fd == nil {
			b.errs = append(b.errs, m.FullMethod+": body field "+m.BodyField+" does not exist")
			return nil
		}
		sch = b.schemas.message(fd.Message(), input)
		example = exampleValue(ex[fd.JSONName()])
	}
	media := obj("schema", sch, "example", example)
	// The consent flow's routes take an empty body as an empty request.
	return obj("required", !m.Unsigned(), "content", obj("application/json", media))
}

func (b *builder) responses(m *policy.Method) *node {
	resp := obj()
	status := strconv.Itoa(m.SuccessStatus())
	out := m.Desc.Output()
	if m.GatewayOwned() && isRedirect(m.SuccessStatus()) {
		resp.set(status, redirectResponse(m))
	} else if m.RawAnswer() && len(m.Policy.GetMediaTypes()) > 0 {
		// A page or an asset for a browser, or a document (a label): its
		// own media types, a string body, binary unless it is text.
		content := obj()
		for _, mt := range m.Policy.GetMediaTypes() {
			sch := obj("type", "string")
			if !strings.HasPrefix(mt, "text/") {
				sch.set("format", "binary")
			}
			content.set(mt, obj("schema", sch))
		}
		headers := commonHeaders(m)
		rf := responseFields(m)
		if rf != nil && rf.EntityTag != nil {
			headers.set("ETag", obj("description", "A strong entity tag of the document: send it back in If-None-Match to be answered 304 while it is current.",
				"required", true, "schema", obj("type", "string")))
		}
		resp.set(status, obj(
			"description", http.StatusText(m.SuccessStatus()),
			"headers", headers,
			"content", content,
		))
		if rf != nil && rf.EntityTag != nil {
			nm := commonHeaders(m)
			nm.set("ETag", obj("description", "The entity tag the request named: the client's copy is current.", "required", true, "schema", obj("type", "string")))
			resp.set(strconv.Itoa(http.StatusNotModified), obj(
				"description", "Not Modified: the If-None-Match header names the current entity tag; no body.",
				"headers", nm,
			))
		}
	} else if out.FullName() == httpBody {
		resp.set(status, obj(
			"description", "The OpenAPI 3.1 document of this interface.",
			"headers", commonHeaders(m),
			"content", obj("application/json", obj("schema", obj("type", "object"))),
		))
	} else {
		desc := http.StatusText(m.SuccessStatus())
		if NotBuilt(m) {
			desc += " (once built; today the route answers 501)"
		}
		headers := commonHeaders(m)
		if rf := responseFields(m); rf != nil {
			if rf.Location != nil {
				headers.set("Location", obj("description", "Where to send the browser: the body's "+rf.Location[len(rf.Location)-1].JSONName()+", absolute on the platform's address.",
					"required", true, "schema", obj("type", "string", "format", "uri")))
			}
			if rf.EntityTag != nil {
				headers.set("ETag", obj("description", "A strong entity tag of the answer's content: send it back in If-None-Match to be answered 304 while it is current.",
					"required", true, "schema", obj("type", "string")))
			}
			if rf.Cookies != nil {
				headers.set("Set-Cookie", obj("description", "The consent session: "+principal.ConsentCookie+"=…; Path=/open/v1/auth; Max-Age=600; HttpOnly; SameSite=Strict (Secure on https). It is not in the body.",
					"required", true, "schema", obj("type", "string")))
			}
		}
		resp.set(status, obj(
			"description", desc,
			"headers", headers,
			"content", obj("application/json", obj("schema", b.schemas.envelope(out))),
		))
		if rf := responseFields(m); rf != nil && rf.EntityTag != nil {
			nm := commonHeaders(m)
			nm.set("ETag", obj("description", "The entity tag the request named: the client's copy is current.", "required", true, "schema", obj("type", "string")))
			resp.set(strconv.Itoa(http.StatusNotModified), obj(
				"description", "Not Modified: the If-None-Match header names the current entity tag; no body.",
				"headers", nm,
			))
		}
	}
	byStatus := map[int][]string{}
	var statuses []int
	for _, c := range RouteCodes(m) {
		s := apierr.HTTPStatus(c)
		if _, seen := byStatus[s]; !seen {
			statuses = append(statuses, s)
		}
		byStatus[s] = append(byStatus[s], apierr.Name(c))
	}
	for _, s := range statuses {
		codes := byStatus[s]
		headers := commonHeaders(m)
		switch s {
		case http.StatusConflict, http.StatusTooManyRequests, http.StatusServiceUnavailable:
			headers.set(sdk.HeaderRetryAfter, headerRef(sdk.HeaderRetryAfter))
		}
		sch := obj("allOf", []any{
			ref(errorSchema),
			obj("properties", obj("error", obj("properties", obj("code", obj("enum", codes))))),
		})
		resp.set(strconv.Itoa(s), obj(
			"description", http.StatusText(s)+": "+strings.Join(codes, ", "),
			"headers", headers,
			"content", obj("application/json", obj("schema", sch)),
		))
	}
	// A page answers its refusals with a page of its own (HTML), beside
	// the error body of the pipeline's refusals at the same status.
	for _, ps := range m.Policy.GetPageStatuses() {
		if len(m.Policy.GetMediaTypes()) == 0 {
			b.errs = append(b.errs, m.FullMethod+": page statuses without a media type")
			break
		}
		key := strconv.Itoa(int(ps))
		if isRedirect(int(ps)) {
			resp.set(key, redirectResponse(m))
			continue
		}
		page := obj("schema", obj("type", "string"))
		if r, ok := resp.get(key).(*node); ok {
			r.get("content").(*node).set(m.Policy.GetMediaTypes()[0], page)
			r.set("description", r.get("description").(string)+"; or a page that says why")
			continue
		}
		resp.set(key, obj(
			"description", http.StatusText(int(ps))+": a page that says why",
			"headers", commonHeaders(m),
			"content", obj(m.Policy.GetMediaTypes()[0], page),
		))
	}
	return resp
}

// isRedirect reports whether an HTTP status is a redirect.
func isRedirect(status int) bool { return status >= 300 && status < 400 }

// redirectResponse is a page's redirect to another page: a Location
// header, no body.
func redirectResponse(m *policy.Method) *node {
	headers := commonHeaders(m)
	headers.set("Location", obj("description", "The page to go to, a path on this origin.",
		"required", true, "schema", obj("type", "string")))
	return obj("description", http.StatusText(http.StatusSeeOther)+": to another page", "headers", headers)
}

// responseFields are the fields of m's response sent as HTTP (nil: none,
// or a response the gateway would refuse to start with).
func responseFields(m *policy.Method) *policy.ResponseFields {
	rf, _ := policy.FindResponseFields(m.Desc.Output())
	return rf
}

const (
	errorSchema     = "Error"
	errorCodeSchema = "ErrorCode"
)

// envelope is the success body of a response message: its fields ({data,
// meta}) with "success": true before them.
func (s *schemas) envelope(md protoreflect.MessageDescriptor) *node {
	if _, done := s.names[errorSchema]; !done {
		s.errorComponents()
	}
	key := schemaKey{md.FullName(), envelopeDir}
	if name, ok := s.byKey[key]; ok {
		return ref(name)
	}
	name := string(md.Name())
	if other, taken := s.names[name]; taken {
		s.errs = append(s.errs, fmt.Sprintf("component name %s is taken by %s and %s", name, other.msg, md.FullName()))
	}
	s.names[name], s.byKey[key] = key, name
	s.section.set(name, obj())
	s.section.set(name, s.object(md, wirejson.Shape(md), output, obj("success", obj("const", true))))
	return ref(name)
}

// envelopeDir keys the success envelopes of response messages.
const envelopeDir direction = -1

// errorComponents adds the error body and the catalogue of codes.
func (s *schemas) errorComponents() {
	codes := apierr.Codes()
	sort.Slice(codes, func(i, j int) bool { return apierr.Name(codes[i]) < apierr.Name(codes[j]) })
	names := make([]string, 0, len(codes))
	catalogue := obj()
	for _, c := range codes {
		names = append(names, apierr.Name(c))
		catalogue.set(apierr.Name(c), obj("httpStatus", apierr.HTTPStatus(c), "description", comment(c.Descriptor().Values().ByNumber(c.Number()))))
	}
	s.names[errorCodeSchema] = schemaKey{msg: errorCodeSchema, dir: envelopeDir}
	s.section.set(errorCodeSchema, obj(
		"type", "string",
		"description", "The error catalogue; x-mp-codes gives the status each code is answered with and when. Clients branch on the code.",
		"enum", names,
		"x-mp-codes", catalogue,
	))
	s.names[errorSchema] = schemaKey{msg: errorSchema, dir: envelopeDir}
	s.section.set(errorSchema, obj(
		"type", "object",
		"properties", obj(
			"success", obj("const", false),
			"error", obj(
				"type", "object",
				"properties", obj(
					"code", ref(errorCodeSchema),
					"message", obj("type", "string", "description", "For people; may change between versions."),
					"reason", obj("type", "string", "description",
						"Machine-readable cause, on codes that have several (SHIP_FAILED: ADDRESS_UNSERVICEABLE, OVERWEIGHT, ...; INVALID_PICKUP_DATE: the pickup slot's reason). Absent when the code says it all."),
					"retryable", obj("type", "boolean", "description",
						"Whether the same request may pass if retried later unchanged. Absent when the code alone decides (see the catalogue)."),
				),
				"required", []any{"code", "message"},
				"additionalProperties", false,
			),
			"requestId", obj("type", "string", "description", "The request's id; report it to support."),
		),
		"required", []any{"success", "error", "requestId"},
		"additionalProperties", false,
	))
}
