package auth

import (
	"context"
	"time"

	"google.golang.org/grpc"

	authv1 "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
)

// FlowServer exposes the seller authorization flow over gRPC
// (AuthorizationService, the gateway's alone).
type FlowServer struct {
	authv1.UnimplementedAuthorizationServiceServer
	flow *Flow
}

// NewFlowServer wraps flow.
func NewFlowServer(flow *Flow) *FlowServer { return &FlowServer{flow: flow} }

// Register registers AuthorizationService.
func (s *FlowServer) Register(r grpc.ServiceRegistrar) {
	authv1.RegisterAuthorizationServiceServer(r, s)
}

func seconds(d time.Duration) int64 { return int64(d / time.Second) }

// Authorize starts a consent session.
func (s *FlowServer) Authorize(ctx context.Context, req *authv1.AuthorizeRequest) (*authv1.AuthorizeResponse, error) {
	st, err := s.flow.Authorize(ctx, AuthorizeParams{ClientID: req.GetClientId(), RedirectURI: req.GetRedirectUri(),
		State: req.GetState(), CodeChallenge: req.GetCodeChallenge(), CodeChallengeMethod: req.GetCodeChallengeMethod()})
	if err != nil {
		return nil, err
	}
	return &authv1.AuthorizeResponse{Data: &authv1.Authorization{Location: st.Location, ExpiresIn: seconds(st.ExpiresIn)}}, nil
}

// DescribeSession names a session's app and scopes for the consent page.
func (s *FlowServer) DescribeSession(ctx context.Context, req *authv1.DescribeSessionRequest) (*authv1.DescribeSessionResponse, error) {
	v, err := s.flow.DescribeSession(ctx, req.GetSession())
	if err != nil {
		return nil, err
	}
	return &authv1.DescribeSessionResponse{Data: &authv1.SessionView{App: &authv1.ConsentApp{Name: v.AppName},
		Scopes: v.Scopes, ExpiresIn: seconds(v.ExpiresIn)}}, nil
}

// VerifySeller signs the seller in.
func (s *FlowServer) VerifySeller(ctx context.Context, req *authv1.VerifySellerRequest) (*authv1.VerifySellerResponse, error) {
	in, err := s.flow.VerifySeller(ctx, req.GetSession(), req.GetUsername(), req.GetPassword())
	if err != nil {
		return nil, err
	}
	return &authv1.VerifySellerResponse{Data: &authv1.SellerVerified{OtpRequired: true, OtpExpiresIn: seconds(in.OTPExpiresIn),
		MaskedDestination: in.MaskedDestination, SessionCookie: in.Cookie}}, nil
}

// VerifySellerOtp checks the one-time code.
func (s *FlowServer) VerifySellerOtp(ctx context.Context, req *authv1.VerifySellerOtpRequest) (*authv1.VerifySellerOtpResponse, error) {
	ask, err := s.flow.VerifySellerOtp(ctx, req.GetCode())
	if err != nil {
		return nil, err
	}
	return &authv1.VerifySellerOtpResponse{Data: &authv1.ConsentRequested{App: &authv1.ConsentApp{Name: ask.AppName}, Scopes: ask.Scopes}}, nil
}

// Consent issues the authorization code.
func (s *FlowServer) Consent(ctx context.Context, req *authv1.ConsentRequest) (*authv1.RedirectResponse, error) {
	var scopes []string
	if req.GetScopes() != nil {
		scopes = append([]string{}, req.GetScopes().GetScopes()...)
	}
	u, err := s.flow.Consent(ctx, scopes)
	if err != nil {
		return nil, err
	}
	return &authv1.RedirectResponse{Data: &authv1.Redirect{RedirectUrl: u}}, nil
}

// Deny ends the session with access_denied.
func (s *FlowServer) Deny(ctx context.Context, _ *authv1.DenyRequest) (*authv1.RedirectResponse, error) {
	u, err := s.flow.Deny(ctx)
	if err != nil {
		return nil, err
	}
	return &authv1.RedirectResponse{Data: &authv1.Redirect{RedirectUrl: u}}, nil
}

func tokens(t *Issued) *authv1.TokenResponse {
	return &authv1.TokenResponse{Data: &authv1.Tokens{AccessToken: t.AccessToken, RefreshToken: t.RefreshToken,
		TokenType: "Bearer", ExpiresIn: seconds(t.AccessExpiresIn), RefreshTokenExpiresIn: seconds(t.RefreshExpiresIn),
		SellerId: t.SellerID, Scopes: t.Scopes}}
}

// ExchangeCode issues a grant's first tokens.
func (s *FlowServer) ExchangeCode(ctx context.Context, req *authv1.ExchangeCodeRequest) (*authv1.TokenResponse, error) {
	t, err := s.flow.ExchangeCode(ctx, req.GetCode(), req.GetRedirectUri(), req.GetCodeVerifier())
	if err != nil {
		return nil, err
	}
	return tokens(t), nil
}

// RefreshToken rotates a grant's tokens.
func (s *FlowServer) RefreshToken(ctx context.Context, req *authv1.RefreshTokenRequest) (*authv1.TokenResponse, error) {
	t, err := s.flow.Refresh(ctx, req.GetRefreshToken())
	if err != nil {
		return nil, err
	}
	return tokens(t), nil
}

// Revoke ends the app's grant of a seller.
func (s *FlowServer) Revoke(ctx context.Context, req *authv1.RevokeRequest) (*authv1.RevokeResponse, error) {
	if err := s.flow.Revoke(ctx, req.GetSellerId()); err != nil {
		return nil, err
	}
	return &authv1.RevokeResponse{Data: &authv1.Revoked{SellerId: req.GetSellerId(), Revoked: true}}, nil
}
