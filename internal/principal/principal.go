// Package principal carries who is calling from the gateway to core. The
// gateway verifies the partner request and sends the result as gRPC metadata
// next to its credential; core trusts that metadata only from the gateway,
// and keeps the outcome in the request context.
package principal

import (
	"context"
	"slices"
	"time"

	"google.golang.org/grpc/metadata"

	principalv1 "github.com/mallplatform/partnerapi/gen/mp/principal/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/ttlcache"
	"github.com/mallplatform/partnerapi/sdk/signing"
)

// Metadata keys (gRPC lowercases them).
const (
	// KeyApp carries what the gateway verified about the app: an
	// mp.principal.v1.Principal in protobuf binary (a "-bin" key, which
	// gRPC base64-encodes on the wire). What the partner sends (seller id,
	// token) travels in keys of its own.
	KeyApp         = "x-mp-principal-bin"
	KeySellerID    = "x-mp-seller-id"
	KeyAccessToken = "x-mp-access-token"
	KeyRequestID   = "x-request-id"
	KeyIdempotency = "x-mp-idempotency-key"
	// KeyFingerprint is the gateway's hex SHA-256 of what the partner
	// signed (method, path, canonical query, body), the request an
	// idempotency key is bound to.
	KeyFingerprint = "x-mp-idempotency-fingerprint"
	// KeyReplayed, in core's response header, marks an answer replayed for
	// an idempotency key; the gateway sends it as Idempotent-Replayed.
	KeyReplayed = "x-mp-idempotent-replayed"
	// KeyReplayOf, beside KeyReplayed, is the request id of the request
	// whose answer is replayed.
	KeyReplayOf = "x-mp-replay-of"
	// KeyConsentSession carries the consent session cookie's value, as the
	// seller's browser sent it, on the consent pages' session-bound calls.
	KeyConsentSession = "x-mp-consent-session"
	// KeyClientIP is the address the gateway attributes an unsigned call
	// to (the TCP peer, or what a trusted proxy reported), for the
	// consent pages' audit trail.
	KeyClientIP = "x-mp-client-ip"
	// KeyConsoleSession carries the developer console session cookie's
	// value, as the person's browser sent it.
	KeyConsoleSession = "x-mp-console-session"
	// KeyCSRFToken carries a console call's X-CSRF-Token header.
	KeyCSRFToken = "x-mp-csrf-token"
	// KeyConsoleAccount is core's response metadata naming the account a
	// console session acts in, for the gateway's per-account rate limit
	// (never sent on to the client).
	KeyConsoleAccount = "x-mp-console-account"
)

// ConsoleCookie is the name of the cookie the gateway keeps the developer
// console session in (Path=/console, HttpOnly, SameSite=Strict).
const ConsoleCookie = "mp_console"

// ConsoleCall is what the gateway forwards with a developer console call:
// the session cookie's value, the CSRF header and the client's address,
// each "" when absent.
func ConsoleCall(ctx context.Context) (session, csrf, clientIP string) {
	md, _ := metadata.FromIncomingContext(ctx)
	return First(md, KeyConsoleSession), First(md, KeyCSRFToken), First(md, KeyClientIP)
}

// ConsentCookie is the name of the cookie the gateway keeps the consent
// session in, in the seller's browser (Path=/open/v1/auth, HttpOnly,
// SameSite=Strict).
const ConsentCookie = "mp_consent"

// ConsentSession returns the consent session cookie's value the gateway
// forwarded with the call, or "".
func ConsentSession(ctx context.Context) string {
	md, _ := metadata.FromIncomingContext(ctx)
	return First(md, KeyConsentSession)
}

// Principal is a verified partner app, and the seller it acts for when the
// call carries seller headers.
type Principal struct {
	AppID       string
	ClientID    string
	AccountID   string
	Environment string
	Scopes      []string
	// SellerID and AccessToken are as sent; core verifies the pair.
	SellerID    string
	AccessToken string
	// RateLimits is the state of the app's buckets after charging this
	// request, as the gateway sets it for a method whose policy reports
	// them (reports_rate_limits); empty on every other call.
	RateLimits []RateLimit
}

// RateLimit is one bucket as the gateway charged it.
type RateLimit struct {
	Bucket    string
	Limit     int64
	Remaining int64
	Window    time.Duration
	Reset     time.Time
}

// HasScope reports whether the app holds scope ("" is always held).
func (p *Principal) HasScope(scope string) bool {
	return scope == "" || slices.Contains(p.Scopes, scope)
}

// WithGrant returns a copy of p whose scopes are the effective scopes of a
// seller-scoped call: those the app holds that the seller also granted.
func (p *Principal) WithGrant(granted []string) *Principal {
	q := *p
	notGranted := func(s string) bool { return !slices.Contains(granted, s) }
	// Scopes are never written, so a grant that covers them all (the
	// usual consent) shares the app's.
	if slices.ContainsFunc(p.Scopes, notGranted) {
		q.Scopes = slices.DeleteFunc(slices.Clone(p.Scopes), notGranted)
	}
	return &q
}

// AppendMetadata adds p to outgoing metadata pairs.
func (p *Principal) AppendMetadata(kv []string) []string {
	// The buckets travel only to a method that reports them (the usage
	// route), off the hot path; the message is marshalled into a stack
	// buffer.
	rls := make([]*principalv1.RateLimit, len(p.RateLimits))
	for i, r := range p.RateLimits {
		rls[i] = &principalv1.RateLimit{
			Bucket: r.Bucket, Limit: r.Limit, Remaining: r.Remaining,
			WindowSeconds: int64(r.Window / time.Second), ResetUnixMs: r.Reset.UnixMilli(),
		}
	}
	m := &principalv1.Principal{
		AppId:       p.AppID,
		ClientId:    p.ClientID,
		AccountId:   p.AccountID,
		Environment: p.Environment,
		Scopes:      p.Scopes,
		RateLimits:  rls,
	}
	var buf [512]byte
	var b []byte
	if size := m.SizeVT(); size <= len(buf) {
		b = buf[:size]
	} else {
		b = make([]byte, size)
	}
	if _, err := m.MarshalToSizedBufferVT(b); err != nil {
		// Strings and integers always marshal; nothing to send otherwise.
		return kv
	}
	kv = append(kv, KeyApp, string(b))
	if p.SellerID != "" || p.AccessToken != "" {
		kv = append(kv, KeySellerID, p.SellerID, KeyAccessToken, p.AccessToken)
	}
	return kv
}

// FromMetadata reads a principal from incoming metadata; ok is false when
// the call carries no partner app (an internal caller acting for itself) or
// one that does not decode.
func FromMetadata(md metadata.MD) (*Principal, bool) {
	raw := First(md, KeyApp)
	if raw == "" {
		return nil, false
	}
	now := time.Now()
	app, ok := decodedApps.Get(raw, now)
	if !ok {
		var m principalv1.Principal
		if err := m.UnmarshalVT([]byte(raw)); err != nil || m.GetAppId() == "" {
			return nil, false
		}
		app = &Principal{
			AppID:       m.GetAppId(),
			ClientID:    m.GetClientId(),
			AccountID:   m.GetAccountId(),
			Environment: m.GetEnvironment(),
			Scopes:      m.GetScopes(),
		}
		for _, r := range m.GetRateLimits() {
			app.RateLimits = append(app.RateLimits, RateLimit{Bucket: r.GetBucket(), Limit: r.GetLimit(), Remaining: r.GetRemaining(),
				Window: time.Duration(r.GetWindowSeconds()) * time.Second, Reset: time.UnixMilli(r.GetResetUnixMs()).UTC()})
		}
		if len(app.RateLimits) == 0 {
			decodedApps.Put(raw, app, now.Add(decodedAppTTL))
		}
	}
	p := *app
	p.SellerID, p.AccessToken = First(md, KeySellerID), First(md, KeyAccessToken)
	return &p, true
}

// decodedApps keeps the principals already decoded, by their encoding: an
// app's calls carry the same bytes from one request to the next (the
// buckets' state, which changes with each, travels only to the method that
// reports it, and such an encoding is not kept). A kept principal is copied
// for each call, and its scopes are never written (WithGrant makes new
// ones). The same bytes always decode to the same principal, so the time
// to live only lets the entries of apps that stopped calling go.
var decodedApps = ttlcache.New[*Principal](maxDecodedApps)

const (
	maxDecodedApps = 4096
	decodedAppTTL  = 10 * time.Minute
)

// First returns the first value of key in md, or "".
func First(md metadata.MD, key string) string {
	if v := md.Get(key); len(v) > 0 {
		return v[0]
	}
	return ""
}

type ctxKey struct{}
type sellerKey struct{}

// scoped is one link of a context chain that carries a principal, a
// verified seller, or both: what a call acts as costs one allocation and one
// link however much of it there is (context.WithValue would take a link
// each, and box the seller's string).
type scoped struct {
	context.Context
	p         *Principal // nil: the link carries no principal
	seller    string
	hasSeller bool // a seller recorded as "" hides any outer one
}

func (c *scoped) Value(key any) any {
	switch key.(type) {
	case ctxKey:
		if c.p != nil {
			return c.p
		}
	case sellerKey:
		if c.hasSeller {
			return &c.seller
		}
	}
	return c.Context.Value(key)
}

// NewContext returns ctx carrying p.
func NewContext(ctx context.Context, p *Principal) context.Context {
	return &scoped{Context: ctx, p: p}
}

// NewVerifiedContext returns ctx carrying p and, as the call's verified
// seller, p.SellerID: for a principal whose seller token core has verified.
func NewVerifiedContext(ctx context.Context, p *Principal) context.Context {
	return &scoped{Context: ctx, p: p, seller: p.SellerID, hasSeller: true}
}

// FromContext returns the principal of the call, if any.
func FromContext(ctx context.Context) (*Principal, bool) {
	p, ok := ctx.Value(ctxKey{}).(*Principal)
	return p, ok
}

// WithSeller records the seller whose token core has verified.
func WithSeller(ctx context.Context, sellerID string) context.Context {
	return &scoped{Context: ctx, seller: sellerID, hasSeller: true}
}

// Seller is the verified seller of the call; services filter every query by it.
func Seller(ctx context.Context) (string, bool) {
	if s, ok := ctx.Value(sellerKey{}).(*string); ok && *s != "" {
		return *s, true
	}
	return "", false
}

// RequireSeller is the verified seller of a call that acts for one, or
// SELLER_TOKEN_REQUIRED. Core's policy interceptor puts the seller there for
// every seller-token method; services ask here rather than trust that their
// methods are all declared so, and a query of seller data never runs without
// one.
func RequireSeller(ctx context.Context) (string, error) {
	if s, ok := Seller(ctx); ok {
		return s, nil
	}
	return "", apierr.New(apierr.SellerTokenRequired, MissingSellerMessage)
}

// MissingSellerMessage is the answer to a seller-token call without the
// seller headers.
const MissingSellerMessage = "this endpoint needs the " + signing.HeaderAccessToken + " and " + signing.HeaderSellerID + " headers"

// ValidRequestID reports whether an incoming request id may be kept: 1 to
// 128 characters of [A-Za-z0-9._-], so it is safe in logs and headers. The
// same rule bounds the seller ids and tokens the gateway forwards.
func ValidRequestID(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}
