package shipping

import (
	"context"

	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
)

// GetPickupSlot implements shippingv1.ShippingServiceServer.
func (s *Server) GetPickupSlot(ctx context.Context, req *shippingv1.GetPickupSlotRequest) (*shippingv1.PickupSlotResponse, error) {
	slot, err := s.svc.PickupSlot(ctx, req.GetId(), req.GetDate())
	if err != nil {
		return nil, err
	}
	return &shippingv1.PickupSlotResponse{Data: slotToProto(slot)}, nil
}

// ListEligibleDates implements shippingv1.ShippingServiceServer.
func (s *Server) ListEligibleDates(ctx context.Context, req *shippingv1.ListEligibleDatesRequest) (*shippingv1.EligibleDatesResponse, error) {
	slots, rec, err := s.svc.EligibleDates(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	out := &shippingv1.EligibleDatesResponse{Data: make([]*shippingv1.PickupSlot, len(slots))}
	for i, sl := range slots {
		p := slotToProto(sl)
		recommended := i == rec
		p.Recommended = &recommended
		out.Data[i] = p
	}
	return out, nil
}

var slotReasonToProto = map[SlotReason]shippingv1.PickupSlotReason{
	SlotPastDate:      shippingv1.PickupSlotReason_PICKUP_SLOT_REASON_PAST_DATE,
	SlotBeyondWindow:  shippingv1.PickupSlotReason_PICKUP_SLOT_REASON_BEYOND_WINDOW,
	SlotAfterShipBy:   shippingv1.PickupSlotReason_PICKUP_SLOT_REASON_AFTER_SHIP_BY,
	SlotNonWorkingDay: shippingv1.PickupSlotReason_PICKUP_SLOT_REASON_NON_WORKING_DAY,
	SlotHoliday:       shippingv1.PickupSlotReason_PICKUP_SLOT_REASON_HOLIDAY,
	SlotPastCutoff:    shippingv1.PickupSlotReason_PICKUP_SLOT_REASON_PAST_CUTOFF,
}

func slotToProto(s PickupSlot) *shippingv1.PickupSlot {
	p := &shippingv1.PickupSlot{Date: s.Date.String(), Available: s.Available, CutoffTime: s.Cutoff, Channel: s.Channel,
		TimeWindow: &shippingv1.TimeWindow{Start: s.Window.Start, End: s.Window.End}}
	if s.Reason != "" {
		r := slotReasonToProto[s.Reason]
		p.Reason = &r
	}
	if s.Holiday != nil {
		name, tentative := s.Holiday.Name, s.Holiday.Tentative
		p.Holiday, p.Tentative = &name, &tentative
	}
	return p
}
