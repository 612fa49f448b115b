package developer

import (
	"context"

	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/protobuf/types/known/timestamppb"

	developerv1 "github.com/mallplatform/partnerapi/gen/mp/developer/v1"
)

// ListApps implements DeveloperServiceServer.
func (s *Server) ListApps(ctx context.Context, _ *developerv1.ListAppsRequest) (*developerv1.ListAppsResponse, error) {
	a, err := s.actor(ctx, reads)
	if err != nil {
		return nil, err
	}
	apps, err := s.svc.Apps(ctx, a)
	if err != nil {
		return nil, err
	}
	out := &developerv1.ListAppsResponse{Data: make([]*developerv1.App, len(apps))}
	for i, v := range apps {
		out.Data[i] = appProto(v)
	}
	return out, nil
}

// CreateApp implements DeveloperServiceServer.
func (s *Server) CreateApp(ctx context.Context, in *developerv1.CreateAppRequest) (*developerv1.CreateAppResponse, error) {
	a, err := s.actor(ctx, changes)
	if err != nil {
		return nil, err
	}
	made, err := s.svc.CreateApp(ctx, caller(ctx), a, NewApp{Name: in.GetName(), Environment: in.GetEnvironment(),
		Scopes: in.GetScopes(), RedirectURIs: in.GetRedirectUris()})
	if err != nil {
		return nil, err
	}
	return &developerv1.CreateAppResponse{Data: &developerv1.CreatedApp{App: appProto(made.App),
		ClientSecret: made.ClientSecret}}, nil
}

// GetApp implements DeveloperServiceServer.
func (s *Server) GetApp(ctx context.Context, in *developerv1.GetAppRequest) (*developerv1.AppResponse, error) {
	a, err := s.actor(ctx, reads)
	if err != nil {
		return nil, err
	}
	v, err := s.svc.App(ctx, a, in.GetId())
	if err != nil {
		return nil, err
	}
	return &developerv1.AppResponse{Data: appProto(v)}, nil
}

// RotateAppSecret implements DeveloperServiceServer.
func (s *Server) RotateAppSecret(ctx context.Context, in *developerv1.RotateAppSecretRequest) (*developerv1.RotateAppSecretResponse, error) {
	a, err := s.actor(ctx, changes)
	if err != nil {
		return nil, err
	}
	secret, expires, err := s.svc.RotateSecret(ctx, caller(ctx), a, in.GetId())
	if err != nil {
		return nil, err
	}
	return &developerv1.RotateAppSecretResponse{Data: &developerv1.RotatedSecret{ClientSecret: secret,
		PreviousSecretExpiresAt: timestamppb.New(expires)}}, nil
}

func appProto(v AppView) *developerv1.App {
	out := &developerv1.App{AppId: v.ID, ClientId: v.ClientID, Name: v.Name, Environment: v.Environment,
		Scopes: append([]string{}, v.Scopes...), RedirectUris: append([]string{}, v.RedirectURIs...), Active: v.Active,
		SecretCreatedAt: timestamppb.New(v.SecretCreatedAt), CreatedAt: timestamppb.New(v.CreatedAt)}
	if v.PreviousSecretExpiresAt != nil {
		out.PreviousSecretExpiresAt = timestamppb.New(*v.PreviousSecretExpiresAt)
	}
	return out
}

// UpdateApp implements DeveloperServiceServer.
func (s *Server) UpdateApp(ctx context.Context, in *developerv1.UpdateAppRequest) (*developerv1.AppResponse, error) {
	a, err := s.actor(ctx, changes)
	if err != nil {
		return nil, err
	}
	v, err := s.svc.UpdateApp(ctx, caller(ctx), a, in.GetId(), AppChange{Name: in.GetName(), Scopes: in.GetScopes(),
		RedirectURIs: in.GetRedirectUris()})
	if err != nil {
		return nil, err
	}
	return &developerv1.AppResponse{Data: appProto(v)}, nil
}

// DeactivateApp implements DeveloperServiceServer.
func (s *Server) DeactivateApp(ctx context.Context, in *developerv1.DeactivateAppRequest) (*developerv1.AppResponse, error) {
	a, err := s.actor(ctx, changes)
	if err != nil {
		return nil, err
	}
	v, err := s.svc.DeactivateApp(ctx, caller(ctx), a, in.GetId())
	if err != nil {
		return nil, err
	}
	return &developerv1.AppResponse{Data: appProto(v)}, nil
}

// DeleteApp implements DeveloperServiceServer.
func (s *Server) DeleteApp(ctx context.Context, in *developerv1.DeleteAppRequest) (*developerv1.DeleteAppResponse, error) {
	a, err := s.actor(ctx, changes)
	if err != nil {
		return nil, err
	}
	if err := s.svc.DeleteApp(ctx, caller(ctx), a, in.GetId()); err != nil {
		return nil, err
	}
	return &developerv1.DeleteAppResponse{}, nil
}

// GetAppCredentials implements DeveloperServiceServer: the file as raw
// JSON.
func (s *Server) GetAppCredentials(ctx context.Context, in *developerv1.GetAppCredentialsRequest) (*httpbody.HttpBody, error) {
	a, err := s.actor(ctx, reads)
	if err != nil {
		return nil, err
	}
	b, err := s.svc.AppCredentialsFile(ctx, caller(ctx), a, in.GetId())
	if err != nil {
		return nil, err
	}
	return &httpbody.HttpBody{ContentType: "application/json", Data: b}, nil
}
