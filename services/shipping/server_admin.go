package shipping

import (
	"context"

	"google.golang.org/grpc"

	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
	"github.com/mallplatform/partnerapi/services/shipping/calendar"
)

// AdminServer is the operators' CalendarAdminService (internal callers
// only: mpserver admin calendar).
type AdminServer struct {
	shippingv1.UnimplementedCalendarAdminServiceServer
	svc *Service
}

// NewAdminServer returns the calendar admin service's gRPC server over svc.
func NewAdminServer(svc *Service) *AdminServer { return &AdminServer{svc: svc} }

// Register registers the service; the method value is a core.Registrar.
func (s *AdminServer) Register(r grpc.ServiceRegistrar) {
	shippingv1.RegisterCalendarAdminServiceServer(r, s)
}

// SetCalendarDay implements shippingv1.CalendarAdminServiceServer.
func (s *AdminServer) SetCalendarDay(ctx context.Context, req *shippingv1.SetCalendarDayRequest) (*shippingv1.CalendarEditResponse, error) {
	return editResponse(s.svc.SetCalendarDay(ctx, dayFromProto(req.GetDay())))
}

// DeleteCalendarDay implements shippingv1.CalendarAdminServiceServer.
func (s *AdminServer) DeleteCalendarDay(ctx context.Context, req *shippingv1.DeleteCalendarDayRequest) (*shippingv1.CalendarEditResponse, error) {
	return editResponse(s.svc.DeleteCalendarDay(ctx, req.GetDate(), req.GetScope()))
}

// ImportCalendar implements shippingv1.CalendarAdminServiceServer.
func (s *AdminServer) ImportCalendar(ctx context.Context, req *shippingv1.ImportCalendarRequest) (*shippingv1.CalendarEditResponse, error) {
	days := make([]calendar.FileDay, len(req.GetDays()))
	for i, d := range req.GetDays() {
		days[i] = dayFromProto(d)
	}
	return editResponse(s.svc.ImportCalendar(ctx, days))
}

func editResponse(e CalendarEdit, err error) (*shippingv1.CalendarEditResponse, error) {
	if err != nil {
		return nil, err
	}
	return &shippingv1.CalendarEditResponse{Days: int32(e.Days), Version: e.Version}, nil
}

var kindFromProto = map[shippingv1.CalendarDayKind]calendar.Kind{
	shippingv1.CalendarDayKind_CALENDAR_DAY_KIND_REGULAR_HOLIDAY:     calendar.RegularHoliday,
	shippingv1.CalendarDayKind_CALENDAR_DAY_KIND_SPECIAL_NON_WORKING: calendar.SpecialNonWorking,
	shippingv1.CalendarDayKind_CALENDAR_DAY_KIND_SPECIAL_WORKING:     calendar.SpecialWorking,
}

// DayInput is d as the admin service takes it: the CLI builds requests
// from calendar files through it.
func DayInput(d calendar.FileDay) *shippingv1.CalendarDayInput {
	return &shippingv1.CalendarDayInput{Date: d.Date, Kind: kindToProto[d.Kind], Name: d.Name,
		Proclamation: d.Proclamation, Tentative: d.Tentative, Scope: d.Scope}
}

func dayFromProto(p *shippingv1.CalendarDayInput) calendar.FileDay {
	return calendar.FileDay{Date: p.GetDate(), Kind: kindFromProto[p.GetKind()], Name: p.GetName(),
		Proclamation: p.GetProclamation(), Tentative: p.GetTentative(), Scope: p.GetScope()}
}
