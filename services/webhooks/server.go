package webhooks

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/timestamppb"

	webhooksv1 "github.com/mallplatform/partnerapi/gen/mp/webhooks/v1"
	"github.com/mallplatform/partnerapi/internal/wirejson"
	"github.com/mallplatform/partnerapi/services/events"
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

// ListWebhookDeliveries lists a subscription's attempts.
func (s *Server) ListWebhookDeliveries(ctx context.Context, req *webhooksv1.ListWebhookDeliveriesRequest) (*webhooksv1.ListWebhookDeliveriesResponse, error) {
	as, err := s.svc.Deliveries(ctx, req.GetId(), int(req.GetLimit()))
	if err != nil {
		return nil, err
	}
	out := &webhooksv1.ListWebhookDeliveriesResponse{Data: make([]*webhooksv1.Delivery, len(as))}
	for i, a := range as {
		t, _ := events.ParseType(a.EventType)
		d := &webhooksv1.Delivery{
			Id: a.ID, EventId: a.EventID, EventType: t, Attempt: a.Number, Status: webhooksv1.DeliveryStatus_DELIVERY_STATUS_FAILED,
			ResponseStatus: a.ResponseStatus, DurationMs: a.Duration.Milliseconds(), CreatedAt: timestamppb.New(a.At),
		}
		switch {
		case a.Pending:
			d.Status = webhooksv1.DeliveryStatus_DELIVERY_STATUS_PENDING
		case a.Succeeded:
			d.Status = webhooksv1.DeliveryStatus_DELIVERY_STATUS_SUCCEEDED
		case a.Error != "":
			d.Error = &a.Error
		}
		if a.NextAttemptAt != nil {
			d.NextAttemptAt = timestamppb.New(*a.NextAttemptAt)
		}
		out.Data[i] = d
	}
	return out, nil
}

// RetryWebhookDelivery queues an attempt's event again.
func (s *Server) RetryWebhookDelivery(ctx context.Context, req *webhooksv1.RetryWebhookDeliveryRequest) (*webhooksv1.QueuedResponse, error) {
	n, err := s.svc.Retry(ctx, req.GetId(), req.GetDeliveryId())
	return queued(n, err)
}

// ReplayWebhook queues the events since a time again.
func (s *Server) ReplayWebhook(ctx context.Context, req *webhooksv1.ReplayWebhookRequest) (*webhooksv1.QueuedResponse, error) {
	// since is required (the request's rules): never nil here.
	since, err := wirejson.Instant("since", req.GetReplay().GetSince())
	if err != nil {
		return nil, err
	}
	n, err := s.svc.Replay(ctx, req.GetId(), *since)
	return queued(n, err)
}

// TestWebhook queues a synthetic event.
func (s *Server) TestWebhook(ctx context.Context, req *webhooksv1.TestWebhookRequest) (*webhooksv1.QueuedResponse, error) {
	n, err := s.svc.Test(ctx, req.GetSubscriptionId())
	return queued(n, err)
}

func queued(n int, err error) (*webhooksv1.QueuedResponse, error) {
	if err != nil {
		return nil, err
	}
	return &webhooksv1.QueuedResponse{Data: &webhooksv1.Queued{Queued: int64(n)}}, nil
}
