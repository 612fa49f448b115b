package ids

import (
	"testing"
	"time"
)

func TestValid(t *testing.T) {
	for range 100 {
		if id := New("prd"); !Valid("prd", id) || !Plausible("prd", id) {
			t.Fatalf("%s made by New is not valid", id)
		}
	}
	if id := NewAt("ord", time.Unix(0, 0)); !Valid("ord", id) {
		t.Fatalf("%s made by NewAt is not valid", id)
	}
	id := New("prd")
	for _, bad := range []string{
		"", "prd", "prd_", "prd_x", id[:len(id)-1], id + "0", "ord" + id[3:], "PRD" + id[3:],
		id[:10] + "\x00" + id[11:], id[:10] + "\xff" + id[11:], id[:10] + "I" + id[11:], id[:10] + "l" + id[11:],
		"%00", "\xc0\xaf",
	} {
		if Valid("prd", bad) {
			t.Errorf("%q is valid", bad)
		}
	}
}

func TestPlausible(t *testing.T) {
	for _, good := range []string{"ord_rts_late", "ord_1", "ord_" + encodeAt(time.Now())} {
		if !Plausible("ord", good) {
			t.Errorf("%q is not plausible", good)
		}
	}
	for _, bad := range []string{"", "ord_", "ord", "prd_1", "ord_A", "ord_\x00", "ord_\xff", "ord_\xc0\xaf", "\x00", "ord_a-b", "ord_a b",
		"ord_" + string(make([]byte, 65))} {
		if Plausible("ord", bad) {
			t.Errorf("%q is plausible", bad)
		}
	}
}
