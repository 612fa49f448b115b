package shipping

import (
	"bytes"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/wirejson"
	"github.com/mallplatform/partnerapi/services/shipping/calendar"
	"github.com/mallplatform/partnerapi/services/shipping/channels"
)

// The eligible dates travel rendered by core: each slot is byte for byte
// what rendering its own message writes (what the gateway wrote when the
// slots crossed as messages), and nothing of one slot (a holiday, a reason)
// carries into the next through the message the slots share.
func TestRenderSlotsAsEachSlotsMessage(t *testing.T) {
	day := calendar.NewDate(2026, time.March, 30)
	window := channels.Window{Start: "09:00", End: "17:00"}
	slots := []PickupSlot{
		{Date: day, Reason: SlotPastCutoff, Channel: "FLASH_STANDARD", Cutoff: "17:00", Window: window},
		{Date: day.AddDays(1), Available: true, Channel: "FLASH_STANDARD", Cutoff: "17:00", Window: window},
		{Date: day.AddDays(2), Reason: SlotHoliday, Holiday: &calendar.Day{Name: "Eid'l Fitr \"tentative\"", Tentative: true},
			Channel: "FLASH_STANDARD", Cutoff: "17:00", Window: window},
		{Date: day.AddDays(3), Reason: SlotHoliday, Holiday: &calendar.Day{Name: "Maundy Thursday"}, Channel: "FLASH_STANDARD",
			Cutoff: "17:00", Window: window},
		{Date: day.AddDays(4), Available: true, Channel: "JNT_STANDARD", Cutoff: "16:00", Window: channels.Window{Start: "10:00", End: "18:00"}},
		{Date: day.AddDays(5), Reason: SlotNonWorkingDay, Channel: "JNT_STANDARD", Cutoff: "16:00"},
	}
	const rec = 1
	got, err := renderSlots(slots, rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(slots) {
		t.Fatalf("%d renderings for %d slots", len(got), len(slots))
	}
	for i, sl := range slots {
		m := slotToProto(sl)
		recommended := i == rec
		m.Recommended = &recommended
		want, err := wirejson.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got[i], want) {
			t.Errorf("slot %d\n got %s\nwant %s", i, got[i], want)
		}
	}
	// The renderings are apart: extending one does not write over the next.
	_ = append(got[0], '!')
	if got[1][0] != '{' {
		t.Errorf("slot 1 was overwritten: %s", got[1])
	}
}
