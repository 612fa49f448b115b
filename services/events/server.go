package events

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/timestamppb"

	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/internal/wirejson"
)

// Server exposes Service as mp.events.v1.EventsService.
type Server struct {
	eventsv1.UnimplementedEventsServiceServer
	svc *Service
}

// NewServer wraps svc.
func NewServer(svc *Service) *Server { return &Server{svc: svc} }

// Register registers the service; its signature fits core.Registrar.
func (s *Server) Register(r grpc.ServiceRegistrar) { eventsv1.RegisterEventsServiceServer(r, s) }

// ListEvents lists the seller's events.
func (s *Server) ListEvents(ctx context.Context, req *eventsv1.ListEventsRequest) (*eventsv1.ListEventsResponse, error) {
	p := ListParams{Limit: req.GetLimit(), Cursor: req.GetCursor()}
	if req.Type != nil {
		t := req.GetType()
		p.Type = &t
	}
	var err error
	if p.CreatedAfter, err = wirejson.Instant("created_after", req.GetCreatedAfter()); err != nil {
		return nil, err
	}
	res, err := s.svc.List(ctx, p)
	if err != nil {
		return nil, err
	}
	out := &eventsv1.ListEventsResponse{
		Data: make([]*eventsv1.Event, len(res.Items)),
		Meta: res.Meta(),
	}
	for i, e := range res.Items {
		out.Data[i] = ToProto(e)
	}
	return out, nil
}

// GetEvent reads one event.
func (s *Server) GetEvent(ctx context.Context, req *eventsv1.GetEventRequest) (*eventsv1.EventResponse, error) {
	e, err := s.svc.Get(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	return &eventsv1.EventResponse{Data: ToProto(e)}, nil
}

// ToProto is e as the feed and the webhooks render it.
func ToProto(e Event) *eventsv1.Event {
	t, _ := ParseType(e.Type)
	return &eventsv1.Event{
		Id: e.ID, Type: t, CreatedAt: timestamppb.New(e.CreatedAt),
		SellerId: e.SellerID, Sequence: e.Sequence, Data: e.Data,
	}
}
