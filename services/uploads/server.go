package uploads

import (
	"context"

	"google.golang.org/grpc"

	uploadsv1 "github.com/mallplatform/partnerapi/gen/mp/uploads/v1"
)

// Server is the thin gRPC layer of the upload route.
type Server struct {
	uploadsv1.UnimplementedUploadServiceServer
	svc *Service
}

// NewServer returns the gRPC server over svc.
func NewServer(svc *Service) *Server { return &Server{svc: svc} }

// Register registers the service.
func (s *Server) Register(r grpc.ServiceRegistrar) { uploadsv1.RegisterUploadServiceServer(r, s) }

// UploadImage stores the request's file.
func (s *Server) UploadImage(ctx context.Context, req *uploadsv1.UploadImageRequest) (*uploadsv1.UploadImageResponse, error) {
	f := req.GetFile()
	u, err := s.svc.Upload(ctx, f.GetContentType(), f.GetData())
	if err != nil {
		return nil, err
	}
	return &uploadsv1.UploadImageResponse{Data: &uploadsv1.Upload{
		Url: u.URL, ContentType: u.ContentType, Bytes: u.Bytes,
		Width: int32(u.Width), Height: int32(u.Height), Sha256: u.SHA256,
	}}, nil
}
