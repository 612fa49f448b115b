package maintenance

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/timestamppb"

	maintenancev1 "github.com/mallplatform/partnerapi/gen/mp/maintenance/v1"
)

// AdminServer is the operators' MaintenanceAdminService (internal callers
// only: mpserver admin maintenance).
type AdminServer struct {
	maintenancev1.UnimplementedMaintenanceAdminServiceServer
	svc *Service
}

// NewAdminServer returns the admin service's gRPC server over svc.
func NewAdminServer(svc *Service) *AdminServer { return &AdminServer{svc: svc} }

// Register registers the service; the method value is a core.Registrar.
func (s *AdminServer) Register(r grpc.ServiceRegistrar) {
	maintenancev1.RegisterMaintenanceAdminServiceServer(r, s)
}

// SetMaintenance implements maintenancev1.MaintenanceAdminServiceServer.
func (s *AdminServer) SetMaintenance(ctx context.Context, req *maintenancev1.SetMaintenanceRequest) (*maintenancev1.MaintenanceResponse, error) {
	var until time.Time
	if req.GetUntil() != nil {
		until = req.GetUntil().AsTime()
	}
	return response(s.svc.Set(ctx, req.GetEnvironment(), until, req.GetMessage()))
}

// ClearMaintenance implements maintenancev1.MaintenanceAdminServiceServer.
func (s *AdminServer) ClearMaintenance(ctx context.Context, req *maintenancev1.ClearMaintenanceRequest) (*maintenancev1.MaintenanceResponse, error) {
	return response(s.svc.Clear(ctx, req.GetEnvironment()))
}

// Server is the gateway's MaintenanceService.
type Server struct {
	maintenancev1.UnimplementedMaintenanceServiceServer
	svc *Service
}

// NewServer returns the gateway's read of the state over svc.
func NewServer(svc *Service) *Server { return &Server{svc: svc} }

// Register registers the service; the method value is a core.Registrar.
func (s *Server) Register(r grpc.ServiceRegistrar) {
	maintenancev1.RegisterMaintenanceServiceServer(r, s)
}

// GetMaintenance implements maintenancev1.MaintenanceServiceServer.
func (s *Server) GetMaintenance(ctx context.Context, req *maintenancev1.GetMaintenanceRequest) (*maintenancev1.MaintenanceResponse, error) {
	return response(s.svc.Get(ctx, req.GetEnvironment()))
}

func response(st State, err error) (*maintenancev1.MaintenanceResponse, error) {
	if err != nil {
		return nil, err
	}
	return &maintenancev1.MaintenanceResponse{Data: ToProto(st)}, nil
}

// ToProto is st on the wire.
func ToProto(st State) *maintenancev1.Maintenance {
	m := &maintenancev1.Maintenance{Environment: st.Environment, On: st.On, Message: st.Message, SetBy: st.SetBy}
	if !st.Until.IsZero() {
		m.Until = timestamppb.New(st.Until)
	}
	if !st.UpdatedAt.IsZero() {
		m.UpdatedAt = timestamppb.New(st.UpdatedAt)
	}
	return m
}
