package pagination

import (
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

func TestResolveDefaultsAndOffsets(t *testing.T) {
	w, err := Resolve(Request{}, "f")
	if err != nil || w.Page != 1 || w.Limit != DefaultLimit || w.Offset != 0 || w.After != nil {
		t.Fatalf("defaults: %+v %v", w, err)
	}
	w, err = Resolve(Request{Page: 3, Limit: 10}, "f")
	if err != nil || w.Offset != 20 || w.Page != 3 {
		t.Fatalf("page 3: %+v %v", w, err)
	}
}

func TestCursorRoundTripAndMismatch(t *testing.T) {
	ts := time.Date(2026, 1, 2, 3, 4, 5, 6000000, time.UTC)
	w := Window{Page: 1, Limit: 5}
	next := w.Next("f1", &ts, nil, "ord_1")
	got, err := Resolve(Request{Cursor: next, Limit: 5}, "f1")
	if err != nil || got.Page != 2 || got.After == nil || !got.After.Time.Equal(ts) || got.After.ID != "ord_1" {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	if _, err := Resolve(Request{Cursor: next}, "other"); apierr.CodeOf(err) != apierr.BadRequest {
		t.Fatalf("mismatched filter: %v", err)
	}
	for _, bad := range []string{"!!", "e30", "bm90LWpzb24"} {
		if _, err := Resolve(Request{Cursor: bad}, "f1"); apierr.CodeOf(err) != apierr.BadRequest {
			t.Fatalf("cursor %q: %v", bad, err)
		}
	}
}
