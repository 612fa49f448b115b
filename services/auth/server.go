package auth

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/timestamppb"

	authv1 "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	credentialsv1 "github.com/mallplatform/partnerapi/gen/mp/credentials/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// Server exposes the auth service over gRPC: the partner-facing AuthService
// and the internal CredentialService the gateway calls.
type Server struct {
	authv1.UnimplementedAuthServiceServer
	credentialsv1.UnimplementedCredentialServiceServer
	svc *Service
}

// NewServer wraps svc.
func NewServer(svc *Service) *Server { return &Server{svc: svc} }

// Register registers both services.
func (s *Server) Register(r grpc.ServiceRegistrar) {
	authv1.RegisterAuthServiceServer(r, s)
	credentialsv1.RegisterCredentialServiceServer(r, s)
}

// GetAppCredentials returns an app's verification material to the gateway.
func (s *Server) GetAppCredentials(ctx context.Context, req *credentialsv1.GetAppCredentialsRequest) (*credentialsv1.GetAppCredentialsResponse, error) {
	c, err := s.svc.AppCredentials(ctx, req.GetClientId())
	if err != nil {
		return nil, err
	}
	out := &credentialsv1.AppCredentials{
		AppId:                     c.App.ID,
		ClientId:                  c.App.ClientID,
		AccountId:                 c.App.AccountID,
		Environment:               c.App.Environment,
		Scopes:                    c.App.Scopes,
		Active:                    c.App.Active,
		AppRateLimitPerMinute:     c.AppRatePerMinute,
		AccountRateLimitPerMinute: c.AccountRatePerMinute,
	}
	for _, sec := range c.Secrets {
		as := &credentialsv1.AppSecret{Secret: sec.Value}
		if sec.ExpiresAt != nil {
			as.ExpiresAt = timestamppb.New(*sec.ExpiresAt)
		}
		out.Secrets = append(out.Secrets, as)
	}
	return &credentialsv1.GetAppCredentialsResponse{Data: out}, nil
}

// GetUsage reports the calling app's limits and how much of each window the
// gateway has counted, including this request.
func (s *Server) GetUsage(ctx context.Context, _ *authv1.GetUsageRequest) (*authv1.UsageResponse, error) {
	p, ok := principal.FromContext(ctx)
	if !ok {
		return nil, apierr.New(apierr.Unauthorized, "usage is reported to partner apps only")
	}
	u := &authv1.Usage{ClientId: p.ClientID, Environment: p.Environment, Scopes: p.Scopes}
	if u.Scopes == nil {
		u.Scopes = []string{}
	}
	for _, rl := range p.RateLimits {
		u.RateLimits = append(u.RateLimits, &authv1.RateLimitUsage{
			Bucket:        rl.Bucket,
			Limit:         rl.Limit,
			Remaining:     rl.Remaining,
			Used:          rl.Limit - rl.Remaining,
			WindowSeconds: int64(rl.Window.Seconds()),
			ResetAt:       timestamppb.New(rl.Reset),
		})
	}
	return &authv1.UsageResponse{Data: u}, nil
}

// GetCredentials describes the calling app's credentials, never a secret.
func (s *Server) GetCredentials(ctx context.Context, _ *authv1.GetCredentialsRequest) (*authv1.CredentialsResponse, error) {
	p, ok := principal.FromContext(ctx)
	if !ok {
		return nil, apierr.New(apierr.Unauthorized, "credentials are described to partner apps only")
	}
	v, err := s.svc.Credentials(ctx, p.ClientID)
	if err != nil {
		return nil, err
	}
	out := &authv1.ClientCredentials{ClientId: v.ClientID, Environment: v.Environment, SecretCreatedAt: timestamppb.New(v.SecretCreatedAt)}
	if v.PreviousExpiresAt != nil {
		out.PreviousSecretExpiresAt = timestamppb.New(*v.PreviousExpiresAt)
	}
	return &authv1.CredentialsResponse{Data: out}, nil
}

// RotateClientSecret issues the calling app a new secret.
func (s *Server) RotateClientSecret(ctx context.Context, _ *authv1.RotateClientSecretRequest) (*authv1.RotatedSecretResponse, error) {
	p, ok := principal.FromContext(ctx)
	if !ok {
		return nil, apierr.New(apierr.Unauthorized, "a secret is rotated by the partner app it belongs to")
	}
	secret, expires, err := s.svc.RotateClientSecret(ctx, p.AppID)
	if err != nil {
		return nil, err
	}
	return &authv1.RotatedSecretResponse{Data: &authv1.RotatedSecret{
		ClientSecret: secret, PreviousSecretExpiresAt: timestamppb.New(expires),
	}}, nil
}
