package shipping

import (
	"context"

	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
	"github.com/mallplatform/partnerapi/internal/wirejson"
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
	data, err := renderSlots(slots, rec)
	if err != nil {
		return nil, err
	}
	return &shippingv1.EligibleDatesResponse{Data: data}, nil
}

// renderSlots renders the eligible dates' slots as the route writes them,
// slot rec flagged recommended and every other one not. The answer carries
// them rendered: the gateway copies the bytes into its answer instead of
// decoding fourteen messages only to render them. One message and one
// buffer serve all the slots; each rendering is a slice of the buffer.
func renderSlots(slots []PickupSlot, rec int) ([][]byte, error) {
	var (
		msg    shippingv1.PickupSlot
		window shippingv1.TimeWindow
		reason shippingv1.PickupSlotReason
		// recommended[1] is the recommended slot's flag, [0] every other's.
		recommended = [2]bool{false, true}
		err         error
	)
	out := make([][]byte, len(slots))
	buf := make([]byte, 0, len(slots)*renderedSlotBytes)
	for i, sl := range slots {
		// Reset whole, so that nothing of the previous slot (a holiday)
		// stays in the message.
		msg, window, reason = shippingv1.PickupSlot{}, shippingv1.TimeWindow{}, 0
		fillSlot(&msg, &window, &reason, sl)
		msg.Recommended = &recommended[0]
		if i == rec {
			msg.Recommended = &recommended[1]
		}
		start := len(buf)
		if buf, err = wirejson.AppendMessage(buf, &msg); err != nil {
			return nil, err
		}
		out[i] = buf[start:len(buf):len(buf)]
	}
	return out, nil
}

// renderedSlotBytes is room for one rendered slot with a holiday's name, so
// that fourteen of them fill one buffer without growing it.
const renderedSlotBytes = 256

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
