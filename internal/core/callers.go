package core

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/x509"
	"slices"
	"strings"

	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// InternalCaller is a platform team calling core directly (checkout,
// logistics...). It reaches the services open to internal callers, never
// the gateway's own, and never acts as a partner app.
type InternalCaller struct {
	ID   string
	Name string
	// Services narrows the caller to these full service names; empty means
	// every service open to internal callers.
	Services []string
}

// InternalCallerVerifier resolves an internal caller's bearer token. An
// unknown or revoked token is an apierr UNAUTHORIZED; any other error is a
// failure to check (the call answers INTERNAL_ERROR).
type InternalCallerVerifier interface {
	VerifyInternalCaller(ctx context.Context, token string) (*InternalCaller, error)
}

// InternalCallerFunc adapts a function to InternalCallerVerifier.
type InternalCallerFunc func(ctx context.Context, token string) (*InternalCaller, error)

// VerifyInternalCaller calls f.
func (f InternalCallerFunc) VerifyInternalCaller(ctx context.Context, token string) (*InternalCaller, error) {
	return f(ctx, token)
}

// Caller is who presented a call's credential: the gateway, or an internal
// caller.
type Caller struct {
	Gateway  bool
	Internal *InternalCaller
}

// String names the caller in logs.
func (c Caller) String() string {
	switch {
	case c.Gateway:
		return "gateway"
	case c.Internal != nil:
		return c.Internal.Name + " (" + c.Internal.ID + ")"
	}
	return ""
}

// CallerOf returns the caller of the call being served (zero before
// authentication, and for the health service).
func CallerOf(ctx context.Context) Caller {
	return callOf(ctx).caller
}

// errNoCredential is every answer to a call whose bearer is missing or
// matches no caller: the same words whatever was wrong.
var errNoCredential = apierr.New(apierr.Unauthorized, "missing or invalid internal credential")

// identity checks a call's credential and what that caller may do.
type identity struct {
	// gatewayDigest is the SHA-256 of the gateway's token: comparing digests
	// takes the same time whatever the length of what was presented.
	gatewayDigest [sha256.Size]byte
	// gatewayCertName, when set, is the name the gateway's client
	// certificate must carry for its token to count.
	gatewayCertName string
	internal        InternalCallerVerifier
	access          *access
}

// identify authenticates a call to fullMethod and applies the service's
// caller policy. Principal metadata counts only from the gateway: an
// internal caller that sends it is refused rather than silently trusted
// or silently ignored.
func (id *identity) identify(ctx context.Context, fullMethod string, md metadata.MD) (Caller, error) {
	token, ok := bearer(md)
	if !ok {
		return Caller{}, errNoCredential
	}
	digest := sha256.Sum256([]byte(token))
	if subtle.ConstantTimeCompare(digest[:], id.gatewayDigest[:]) == 1 {
		if id.gatewayCertName != "" && !peerCertNames(ctx, id.gatewayCertName) {
			return Caller{}, errNoCredential
		}
		if !id.access.gatewayMay(fullMethod) {
			return Caller{}, apierr.Newf(apierr.Forbidden, "the gateway's credential does not call %s", serviceOf(fullMethod))
		}
		return Caller{Gateway: true}, nil
	}
	if id.internal == nil {
		return Caller{}, errNoCredential
	}
	ic, err := id.internal.VerifyInternalCaller(ctx, token)
	if err != nil {
		if _, isAPI := apierr.As(err); isAPI {
			return Caller{}, errNoCredential
		}
		return Caller{}, err
	}
	if !id.access.internalMay(ic, fullMethod) {
		return Caller{}, apierr.Newf(apierr.Forbidden, "internal caller %s may not call %s", ic.Name, serviceOf(fullMethod))
	}
	if principal.First(md, principal.KeyApp) != "" {
		return Caller{}, apierr.New(apierr.Forbidden, "internal callers cannot act as a partner app: drop "+principal.KeyApp)
	}
	return Caller{Internal: ic}, nil
}

func bearer(md metadata.MD) (string, bool) {
	for _, v := range md.Get("authorization") {
		if token, found := strings.CutPrefix(v, "Bearer "); found && token != "" {
			return token, true
		}
	}
	return "", false
}

// peerCertNames reports whether the call came over TLS with a verified
// client certificate naming name (a DNS name or the common name).
func peerCertNames(ctx context.Context, name string) bool {
	p, ok := peer.FromContext(ctx)
	if !ok {
		return false
	}
	info, ok := p.AuthInfo.(credentials.TLSInfo)
	if !ok || len(info.State.VerifiedChains) == 0 || len(info.State.VerifiedChains[0]) == 0 {
		return false
	}
	return certNames(info.State.VerifiedChains[0][0], name)
}

func certNames(cert *x509.Certificate, name string) bool {
	return slices.Contains(cert.DNSNames, name) || cert.Subject.CommonName == name
}

// serviceOf returns "pkg.Service" of "/pkg.Service/Method".
func serviceOf(fullMethod string) string {
	s := strings.TrimPrefix(fullMethod, "/")
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[:i]
	}
	return s
}
