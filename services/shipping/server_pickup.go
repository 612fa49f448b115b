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
	// The slots' messages and the values their optional fields point to are
	// allocated once per answer rather than once per slot.
	out := &shippingv1.EligibleDatesResponse{Data: make([]*shippingv1.PickupSlot, len(slots))}
	msgs := make([]shippingv1.PickupSlot, len(slots))
	windows := make([]shippingv1.TimeWindow, len(slots))
	reasons := make([]shippingv1.PickupSlotReason, len(slots))
	recommended := make([]bool, len(slots))
	for i, sl := range slots {
		p := &msgs[i]
		fillSlot(p, &windows[i], &reasons[i], sl)
		recommended[i] = i == rec
		p.Recommended = &recommended[i]
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
	p := &shippingv1.PickupSlot{}
	var r shippingv1.PickupSlotReason
	fillSlot(p, &shippingv1.TimeWindow{}, &r, s)
	return p
}

// fillSlot writes s into the empty message p, with window and reason as
// the storage of its time window and reason.
func fillSlot(p *shippingv1.PickupSlot, window *shippingv1.TimeWindow, reason *shippingv1.PickupSlotReason, s PickupSlot) {
	p.Date, p.Available, p.CutoffTime, p.Channel = s.Date.String(), s.Available, s.Cutoff, s.Channel
	window.Start, window.End = s.Window.Start, s.Window.End
	p.TimeWindow = window
	if s.Reason != "" {
		*reason = slotReasonToProto[s.Reason]
		p.Reason = reason
	}
	if s.Holiday != nil {
		name, tentative := s.Holiday.Name, s.Holiday.Tentative
		p.Holiday, p.Tentative = &name, &tentative
	}
}
