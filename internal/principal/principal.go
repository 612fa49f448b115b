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
	KeyAppID       = "x-mp-app-id"
	KeyClientID    = "x-mp-client-id"
	KeyAccountID   = "x-mp-account-id"
	KeyEnvironment = "x-mp-environment"
	KeyScopes      = "x-mp-scopes"
	KeySellerID    = "x-mp-seller-id"
	KeyAccessToken = "x-mp-access-token"
	KeyRateLimits  = "x-mp-rate-limits"
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

// AppendMetadata adds p to outgoing metadata pairs.
func (p *Principal) AppendMetadata(kv []string) []string {
	kv = append(kv,
		KeyAppID, p.AppID,
		KeyClientID, p.ClientID,
		KeyAccountID, p.AccountID,
		KeyEnvironment, p.Environment,
		KeyScopes, strings.Join(p.Scopes, " "),
	)
	if p.SellerID != "" || p.AccessToken != "" {
		kv = append(kv, KeySellerID, p.SellerID, KeyAccessToken, p.AccessToken)
	}
	if len(p.RateLimits) > 0 {
		kv = append(kv, KeyRateLimits, encodeRateLimits(p.RateLimits))
	}
	return kv
}

// FromMetadata reads a principal from incoming metadata; ok is false when
// the call carries no partner app (an internal caller acting for itself).
func FromMetadata(md metadata.MD) (*Principal, bool) {
	appID := first(md, KeyAppID)
	if appID == "" {
		return nil, false
	}
	p := &Principal{
		AppID:         appID,
		ClientID:      first(md, KeyClientID),
		AccountID:     first(md, KeyAccountID),
		Environment:   first(md, KeyEnvironment),
		Scopes:        strings.Fields(first(md, KeyScopes)),
		SellerID:      first(md, KeySellerID),
		AccessToken:   first(md, KeyAccessToken),
		rawRateLimits: first(md, KeyRateLimits),
	}
	return p, true
}

func first(md metadata.MD, key string) string {
	if v := md.Get(key); len(v) > 0 {
		return v[0]
	}
	return ""
}

// bucket:limit:remaining:windowSeconds:resetUnixMillis, comma-separated.
func encodeRateLimits(rls []RateLimit) string {
	var b []byte
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
	return string(b)
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
// 128 characters of [A-Za-z0-9._-], so it is safe in logs and headers.
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
