package shipping

import (
	"context"

	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/grpc"

	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
)

// LabelServer is LabelService over the service: the label routes answer
// the document itself (the gateway writes a google.api.HttpBody as its
// bytes), with its entity tag.
type LabelServer struct {
	shippingv1.UnimplementedLabelServiceServer
	svc *Service
}

// NewLabelServer returns the label service's gRPC server over svc.
func NewLabelServer(svc *Service) *LabelServer { return &LabelServer{svc: svc} }

// Register registers the service; the method value is a core.Registrar.
func (s *LabelServer) Register(r grpc.ServiceRegistrar) { shippingv1.RegisterLabelServiceServer(r, s) }

// GetLabel implements shippingv1.LabelServiceServer.
func (s *LabelServer) GetLabel(ctx context.Context, req *shippingv1.GetLabelRequest) (*shippingv1.LabelDocument, error) {
	doc, err := s.svc.Label(ctx, req.GetId(), req.GetFormat(), req.GetSize())
	if err != nil {
		return nil, err
	}
	return documentToProto(doc), nil
}

// PrintLabels implements shippingv1.LabelServiceServer.
func (s *LabelServer) PrintLabels(ctx context.Context, req *shippingv1.PrintLabelsRequest) (*shippingv1.LabelsDocument, error) {
	doc, err := s.svc.Labels(ctx, req.GetOrderIds())
	if err != nil {
		return nil, err
	}
	return &shippingv1.LabelsDocument{Document: &httpbody.HttpBody{ContentType: doc.ContentType, Data: doc.Data}}, nil
}

func documentToProto(d Document) *shippingv1.LabelDocument {
	return &shippingv1.LabelDocument{Document: &httpbody.HttpBody{ContentType: d.ContentType, Data: d.Data}, Etag: d.ETag}
}
