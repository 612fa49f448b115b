package auth

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/ids"
)

// InternalCaller is a platform team's identity on core's gRPC port. Core
// resolves it from the caller's bearer token; only the token's SHA-256 is
// stored.
type InternalCaller struct {
	ID        string
	Name      string
	TokenHash string
	// Services are the full gRPC service names the caller may reach; empty
	// means every service open to internal callers.
	Services  []string
	CreatedAt time.Time
	RevokedAt *time.Time
}

// InternalCallerStore keeps internal callers.
type InternalCallerStore interface {
	CreateInternalCaller(ctx context.Context, c *InternalCaller) error
	InternalCallerByTokenHash(ctx context.Context, hash string) (*InternalCaller, error)
	// RevokeInternalCaller sets revoked_at once; revoking again keeps the
	// first time and returns the caller as it is.
	RevokeInternalCaller(ctx context.Context, id string, now time.Time) (*InternalCaller, error)
	ListInternalCallers(ctx context.Context) ([]*InternalCaller, error)
}

// InternalCallerTokenPrefix starts every internal caller's token, so a token
// found in a log or a repository names what it opens, and core skips the
// lookup for anything else.
const InternalCallerTokenPrefix = "mpic_"

// InternalCallerCacheTTL bounds how long core trusts a verified internal
// caller without asking the database again, and so how long a revocation
// may take to reach every core replica.
const InternalCallerCacheTTL = 5 * time.Second

const internalCallerCacheMax = 1024

// 32 random bytes: 52 characters after the prefix.
const internalCallerTokenBytes = 32

var (
	callerName  = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)
	serviceName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$`)
)

// NewInternalCaller describes an internal caller to issue.
type NewInternalCaller struct {
	Name     string
	Services []string
}

// IssuedInternalCaller is a new caller with its token, shown once.
type IssuedInternalCaller struct {
	Caller *InternalCaller
	Token  string
}

// CreateInternalCaller issues a caller and its bearer token. Which services
// exist and are open to internal callers is core's knowledge: the operator
// command checks the names against it before calling this.
func (s *Service) CreateInternalCaller(ctx context.Context, in NewInternalCaller) (*IssuedInternalCaller, error) {
	if !callerName.MatchString(in.Name) {
		return nil, apierr.New(apierr.ValidationError, "an internal caller's name is 1-64 characters of a-z, 0-9, '.', '_' and '-' (e.g. checkout)")
	}
	for _, svc := range in.Services {
		if !serviceName.MatchString(svc) {
			return nil, apierr.Newf(apierr.ValidationError, "%q is not a full gRPC service name (e.g. mp.orders.v1.OrdersService)", svc)
		}
	}
	token := InternalCallerTokenPrefix + ids.Token(internalCallerTokenBytes)
	now := s.clock.Now()
	c := &InternalCaller{ID: ids.NewAt("icl", now), Name: in.Name, TokenHash: HashToken(token), Services: nonNil(in.Services), CreatedAt: now}
	if err := s.store.CreateInternalCaller(ctx, c); err != nil {
		return nil, err
	}
	return &IssuedInternalCaller{Caller: c, Token: token}, nil
}

// RevokeInternalCaller ends a caller's access; core replicas refuse its
// token within InternalCallerCacheTTL.
func (s *Service) RevokeInternalCaller(ctx context.Context, id string) (*InternalCaller, error) {
	c, err := s.store.RevokeInternalCaller(ctx, id, s.clock.Now())
	if isNotFound(err) {
		return nil, apierr.New(apierr.NotFound, "no internal caller with this id")
	}
	return c, err
}

// ListInternalCallers lists every caller, revoked ones included.
func (s *Service) ListInternalCallers(ctx context.Context) ([]*InternalCaller, error) {
	return s.store.ListInternalCallers(ctx)
}

// VerifyInternalCaller resolves a bearer token to its caller. Anything but a
// live caller's token is the same UNAUTHORIZED, so nothing tells a revoked
// token from one never issued.
func (s *Service) VerifyInternalCaller(ctx context.Context, token string) (*InternalCaller, error) {
	refused := apierr.New(apierr.Unauthorized, "missing or invalid internal credential")
	if !strings.HasPrefix(token, InternalCallerTokenPrefix) || len(token) > 128 {
		return nil, refused
	}
	hash := HashToken(token)
	now := s.clock.Now()
	if c, ok := s.callers.Get(hash, now); ok {
		return c, nil
	}
	c, err := s.store.InternalCallerByTokenHash(ctx, hash)
	if isNotFound(err) {
		return nil, refused
	}
	if err != nil {
		return nil, err
	}
	if c.RevokedAt != nil {
		return nil, refused
	}
	s.callers.Put(hash, c, now.Add(InternalCallerCacheTTL))
	return c, nil
}
