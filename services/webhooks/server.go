package webhooks

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/timestamppb"

	webhooksv1 "github.com/mallplatform/partnerapi/gen/mp/webhooks/v1"
)

// Server exposes Service as mp.webhooks.v1.WebhooksService.
type Server struct {
	webhooksv1.UnimplementedWebhooksServiceServer
	svc *Service
}

// NewServer wraps svc.
func NewServer(svc *Service) *Server { return &Server{svc: svc} }

// Register registers the service; its signature fits core.Registrar.
func (s *Server) Register(r grpc.ServiceRegistrar) { webhooksv1.RegisterWebhooksServiceServer(r, s) }

// ListWebhooks lists the app's subscriptions.
func (s *Server) ListWebhooks(ctx context.Context, _ *webhooksv1.ListWebhooksRequest) (*webhooksv1.ListWebhooksResponse, error) {
	vs, err := s.svc.List(ctx)
	if err != nil {
		return nil, err
	}
	out := &webhooksv1.ListWebhooksResponse{Data: make([]*webhooksv1.Webhook, len(vs))}
	for i, v := range vs {
		out.Data[i] = toProto(v)
	}
	return out, nil
}

// CreateWebhook subscribes a callback URL.
func (s *Server) CreateWebhook(ctx context.Context, req *webhooksv1.CreateWebhookRequest) (*webhooksv1.CreatedWebhookResponse, error) {
	v, err := s.svc.Create(ctx, req.GetWebhook().GetEventType(), req.GetWebhook().GetCallbackUrl())
	if err != nil {
		return nil, err
	}
	return &webhooksv1.CreatedWebhookResponse{Data: createdToProto(v)}, nil
}

// GetWebhook reads one subscription.
func (s *Server) GetWebhook(ctx context.Context, req *webhooksv1.GetWebhookRequest) (*webhooksv1.WebhookResponse, error) {
	v, err := s.svc.Get(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	return &webhooksv1.WebhookResponse{Data: toProto(v)}, nil
}

// UpdateWebhook changes a subscription.
func (s *Server) UpdateWebhook(ctx context.Context, req *webhooksv1.UpdateWebhookRequest) (*webhooksv1.WebhookResponse, error) {
	in := req.GetWebhook()
	v, err := s.svc.Update(ctx, req.GetId(), in.CallbackUrl, in.IsActive)
	if err != nil {
		return nil, err
	}
	return &webhooksv1.WebhookResponse{Data: toProto(v)}, nil
}

// DeleteWebhook deletes a subscription.
func (s *Server) DeleteWebhook(ctx context.Context, req *webhooksv1.DeleteWebhookRequest) (*webhooksv1.DeleteWebhookResponse, error) {
	if err := s.svc.Delete(ctx, req.GetId()); err != nil {
		return nil, err
	}
	return &webhooksv1.DeleteWebhookResponse{Data: &webhooksv1.DeletedWebhook{Id: req.GetId(), Deleted: true}}, nil
}

// RotateWebhookSecret issues a new signing secret.
func (s *Server) RotateWebhookSecret(ctx context.Context, req *webhooksv1.RotateWebhookSecretRequest) (*webhooksv1.CreatedWebhookResponse, error) {
	v, err := s.svc.RotateSecret(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	return &webhooksv1.CreatedWebhookResponse{Data: createdToProto(v)}, nil
}

func toProto(v View) *webhooksv1.Webhook {
	return &webhooksv1.Webhook{
		Id: v.ID, EventType: v.Type, CallbackUrl: v.URL, IsActive: v.Active,
		CreatedAt: timestamppb.New(v.CreatedAt), UpdatedAt: timestamppb.New(v.UpdatedAt),
		ConsecutiveFailures: v.ConsecutiveFailures, DisabledReason: v.DisabledReason,
	}
}

func createdToProto(v View) *webhooksv1.CreatedWebhook {
	w := toProto(v)
	return &webhooksv1.CreatedWebhook{
		Id: w.Id, EventType: w.EventType, CallbackUrl: w.CallbackUrl, IsActive: w.IsActive,
		CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt, ConsecutiveFailures: w.ConsecutiveFailures,
		DisabledReason: w.DisabledReason, Secret: v.Secret,
	}
}
