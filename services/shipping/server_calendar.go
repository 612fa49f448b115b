package shipping

import (
	"context"

	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
	"github.com/mallplatform/partnerapi/services/shipping/calendar"
)

// GetCalendar implements shippingv1.ShippingServiceServer.
func (s *Server) GetCalendar(ctx context.Context, req *shippingv1.GetCalendarRequest) (*shippingv1.CalendarResponse, error) {
	y, err := s.svc.CalendarOf(ctx, int(req.GetYear()), req.GetRegion())
	if err != nil {
		return nil, err
	}
	out := &shippingv1.CalendarResponse{Data: make([]*shippingv1.CalendarDay, len(y.Days)), Etag: y.ETag}
	for i, d := range y.Days {
		out.Data[i] = dayToProto(d)
	}
	return out, nil
}

var kindToProto = map[calendar.Kind]shippingv1.CalendarDayKind{
	calendar.RegularHoliday:    shippingv1.CalendarDayKind_CALENDAR_DAY_KIND_REGULAR_HOLIDAY,
	calendar.SpecialNonWorking: shippingv1.CalendarDayKind_CALENDAR_DAY_KIND_SPECIAL_NON_WORKING,
	calendar.SpecialWorking:    shippingv1.CalendarDayKind_CALENDAR_DAY_KIND_SPECIAL_WORKING,
}

func dayToProto(d calendar.Day) *shippingv1.CalendarDay {
	p := &shippingv1.CalendarDay{Date: d.Date.String(), Kind: kindToProto[d.Kind], Name: d.Name, Tentative: d.Tentative}
	if d.Proclamation != "" {
		p.Proclamation = &d.Proclamation
	}
	if d.Scope != "" {
		p.Scope = &d.Scope
	}
	return p
}
