// Package principal carries who is calling from the gateway to core. The
// gateway verifies the partner request and sends the result as gRPC metadata
// next to the internal credential; core trusts that metadata only when the
// credential checks out, and keeps the outcome in the request context.
package principal

import (
	"context"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc/metadata"
)

// Metadata keys (gRPC lowercases them).
const (
	// KeyApp carries what the gateway verified about the app, in one value:
	// "appID|clientID|accountID|environment|scopes|rateLimits" (scopes
	// space-separated). None of these fields can hold a '|'; what the
	// partner sends (seller id, token) travels in keys of its own.
	KeyApp         = "x-mp-app"
	KeySellerID    = "x-mp-seller-id"
	KeyAccessToken = "x-mp-access-token"
	KeyRequestID   = "x-request-id"
	KeyIdempotency = "x-mp-idempotency-key"
)

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
	// request, as the gateway sets it; core reads it with Limits.
	RateLimits []RateLimit
	// rawRateLimits is the metadata form, decoded only when asked for.
	rawRateLimits string
}

// Limits returns the rate-limit state, decoding it from metadata on first
// use (only the usage endpoint needs it).
func (p *Principal) Limits() []RateLimit {
	if p.RateLimits == nil && p.rawRateLimits != "" {
		p.RateLimits = decodeRateLimits(p.rawRateLimits)
	}
	return p.RateLimits
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
	if scope == "" {
		return true
	}
	for _, s := range p.Scopes {
		if s == scope {
			return true
		}
	}
	return false
}

// WithGrant returns a copy of p whose scopes are the effective scopes of a
// seller-scoped call: those the app holds that the seller also granted.
func (p *Principal) WithGrant(granted []string) *Principal {
	q := *p
	q.Scopes = make([]string, 0, len(p.Scopes))
	for _, s := range p.Scopes {
		for _, g := range granted {
			if s == g {
				q.Scopes = append(q.Scopes, s)
				break
			}
		}
	}
	return &q
}

// AppendMetadata adds p to outgoing metadata pairs.
func (p *Principal) AppendMetadata(kv []string) []string {
	b := make([]byte, 0, 160)
	b = append(b, p.AppID...)
	b = append(b, '|')
	b = append(b, p.ClientID...)
	b = append(b, '|')
	b = append(b, p.AccountID...)
	b = append(b, '|')
	b = append(b, p.Environment...)
	b = append(b, '|')
	for i, sc := range p.Scopes {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, sc...)
	}
	b = append(b, '|')
	b = appendRateLimits(b, p.RateLimits)
	kv = append(kv, KeyApp, string(b))
	if p.SellerID != "" || p.AccessToken != "" {
		kv = append(kv, KeySellerID, p.SellerID, KeyAccessToken, p.AccessToken)
	}
	return kv
}

// FromMetadata reads a principal from incoming metadata; ok is false when
// the call carries no partner app (an internal caller acting for itself).
func FromMetadata(md metadata.MD) (*Principal, bool) {
	app := First(md, KeyApp)
	var f [6]string
	for i := 0; i < len(f)-1; i++ {
		j := strings.IndexByte(app, '|')
		if j < 0 {
			return nil, false
		}
		f[i], app = app[:j], app[j+1:]
	}
	f[5] = app
	if f[0] == "" {
		return nil, false
	}
	p := &Principal{
		AppID:         f[0],
		ClientID:      f[1],
		AccountID:     f[2],
		Environment:   f[3],
		Scopes:        strings.Fields(f[4]),
		SellerID:      First(md, KeySellerID),
		AccessToken:   First(md, KeyAccessToken),
		rawRateLimits: f[5],
	}
	return p, true
}

// First returns the first value of key in md, or "".
func First(md metadata.MD, key string) string {
	if v := md.Get(key); len(v) > 0 {
		return v[0]
	}
	return ""
}

// bucket:limit:remaining:windowSeconds:resetUnixMillis, comma-separated.
func appendRateLimits(b []byte, rls []RateLimit) []byte {
	for i, r := range rls {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, r.Bucket...)
		b = append(b, ':')
		b = strconv.AppendInt(b, r.Limit, 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, r.Remaining, 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(r.Window/time.Second), 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, r.Reset.UnixMilli(), 10)
	}
	return b
}

func decodeRateLimits(s string) []RateLimit {
	if s == "" {
		return nil
	}
	var out []RateLimit
	for _, part := range strings.Split(s, ",") {
		f := strings.Split(part, ":")
		if len(f) != 5 {
			continue
		}
		limit, err1 := strconv.ParseInt(f[1], 10, 64)
		remaining, err2 := strconv.ParseInt(f[2], 10, 64)
		window, err3 := strconv.ParseInt(f[3], 10, 64)
		reset, err4 := strconv.ParseInt(f[4], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
			continue
		}
		out = append(out, RateLimit{Bucket: f[0], Limit: limit, Remaining: remaining, Window: time.Duration(window) * time.Second, Reset: time.UnixMilli(reset).UTC()})
	}
	return out
}

type ctxKey struct{}
type sellerKey struct{}

// NewContext returns ctx carrying p.
func NewContext(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, ctxKey{}, p)
}

// FromContext returns the principal of the call, if any.
func FromContext(ctx context.Context) (*Principal, bool) {
	p, ok := ctx.Value(ctxKey{}).(*Principal)
	return p, ok
}

// WithSeller records the seller whose token core has verified.
func WithSeller(ctx context.Context, sellerID string) context.Context {
	return context.WithValue(ctx, sellerKey{}, sellerID)
}

// Seller is the verified seller of the call; services filter every query by it.
func Seller(ctx context.Context) (string, bool) {
	s, ok := ctx.Value(sellerKey{}).(string)
	return s, ok && s != ""
}

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
