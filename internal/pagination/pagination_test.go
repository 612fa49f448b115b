package pagination

import (
	"bytes"
	"encoding/base64"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

var testSecret = bytes.Repeat([]byte{7}, 32)

func testCursors(t *testing.T) *Cursors {
	t.Helper()
	cs, err := NewCursors(testSecret)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func TestResolveDefaultsAndOffsets(t *testing.T) {
	cs := testCursors(t)
	w, err := Resolve[TimeKey](cs, Request{}, "f")
	if err != nil || w.Page != 1 || w.Limit != DefaultLimit || w.Offset != 0 || w.After != nil {
		t.Fatalf("defaults: %+v %v", w, err)
	}
	w, err = Resolve[TimeKey](cs, Request{Page: 3, Limit: 10}, "f")
	if err != nil || w.Offset != 20 || w.Page != 3 {
		t.Fatalf("page 3: %+v %v", w, err)
	}
}

func TestCursorRoundTripAndMismatch(t *testing.T) {
	cs := testCursors(t)
	ts := time.Date(2026, 1, 2, 3, 4, 5, 6000000, time.UTC)
	w, _ := Resolve[TimeKey](cs, Request{Limit: 5}, "f1")
	next := w.Next(TimeKey{At: ts, ID: "ord_1"})
	got, err := Resolve[TimeKey](cs, Request{Cursor: next, Limit: 5}, "f1")
	if err != nil || got.Page != 2 || got.After == nil || !got.After.At.Equal(ts) || got.After.ID != "ord_1" {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	// A window resolved from a cursor issues the next one.
	if _, err := Resolve[TimeKey](cs, Request{Cursor: got.Next(TimeKey{At: ts, ID: "ord_2"})}, "f1"); err != nil {
		t.Fatalf("third page: %v", err)
	}
	if _, err := Resolve[TimeKey](cs, Request{Cursor: next}, "other"); apierr.CodeOf(err) != apierr.BadRequest {
		t.Fatalf("mismatched filter: %v", err)
	}
	// A listing sorted by number refuses a time cursor, even one issued for
	// the same filters.
	if _, err := Resolve[NumKey](cs, Request{Cursor: next}, "f1"); apierr.CodeOf(err) != apierr.BadRequest {
		t.Fatalf("a time cursor on a numbered listing: %v", err)
	}
	nw, _ := Resolve[NumKey](cs, Request{Limit: 5}, "f2")
	numbered, err := Resolve[NumKey](cs, Request{Cursor: nw.Next(NumKey{N: 42, ID: "evt_1"})}, "f2")
	if err != nil || numbered.After == nil || numbered.After.N != 42 || numbered.After.ID != "evt_1" {
		t.Fatalf("numbered round trip: %+v %v", numbered, err)
	}
	for _, bad := range []string{"!!", "e30", "bm90LWpzb24", "", string(make([]byte, 2000))} {
		if _, err := cs.Decode(bad); apierr.CodeOf(err) != apierr.BadRequest {
			t.Fatalf("cursor %q: %v", bad, err)
		}
	}
}

// A cursor is tamper-evident: editing any part of the position it carries,
// or forging one without the key, is BAD_REQUEST (an id edited to hold
// \u0000 once reached PostgreSQL and answered 500).
func TestCursorIsTamperEvident(t *testing.T) {
	cs := testCursors(t)
	ts := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	genuine := cs.Encode(Cursor{Page: 2, Filter: "f1", Time: &ts, ID: "ord_1"})
	raw, _ := base64.RawURLEncoding.DecodeString(genuine)
	payload, tag := raw[:len(raw)-tagBytes], raw[len(raw)-tagBytes:]
	edit := func(from, to string) string {
		p := bytes.Replace(payload, []byte(from), []byte(to), 1)
		if bytes.Equal(p, payload) {
			t.Fatalf("%s not in %s", from, payload)
		}
		return base64.RawURLEncoding.EncodeToString(append(p, tag...))
	}
	// Without the tag: the unsigned cursor of the platform before cursors
	// were signed, or a forged one.
	unsigned := base64.RawURLEncoding.EncodeToString(payload)
	other, _ := NewCursors(bytes.Repeat([]byte{8}, 32))
	cases := map[string]string{
		"id holding NUL":   edit(`"i":"ord_1"`, `"i":"ord_\u0000"`),
		"page":             edit(`"p":2`, `"p":9`),
		"filter":           edit(`"f":"f1"`, `"f":"f2"`),
		"unsigned":         unsigned,
		"another key":      other.Encode(Cursor{Page: 2, Filter: "f1", Time: &ts, ID: "ord_1"}),
		"tag cut":          genuine[:len(genuine)-2],
		"tag only":         base64.RawURLEncoding.EncodeToString(tag),
		"bit flipped":      genuine[:len(genuine)-5] + flip(genuine[len(genuine)-5]) + genuine[len(genuine)-4:],
		"bad JSON, signed": signed(cs, []byte(`{"p":2,`)),
		"no id, signed":    signed(cs, []byte(`{"p":2,"f":"f1","i":""}`)),
		"page one, signed": signed(cs, []byte(`{"p":1,"f":"f1","i":"x"}`)),
	}
	for name, c := range cases {
		if _, err := Resolve[TimeKey](cs, Request{Cursor: c}, "f1"); apierr.CodeOf(err) != apierr.BadRequest {
			t.Errorf("%s: %v, want BAD_REQUEST", name, err)
		}
	}
	if c, err := cs.Decode(genuine); err != nil || c.ID != "ord_1" {
		t.Fatalf("genuine cursor: %v", err)
	}
	// Two replicas configured with the same secret read each other's
	// cursors.
	replica, _ := NewCursors(testSecret)
	if _, err := replica.Decode(genuine); err != nil {
		t.Fatalf("same secret, other instance: %v", err)
	}
	if _, err := NewCursors(make([]byte, 16)); err == nil {
		t.Fatal("a 16-byte secret was accepted")
	}
}

func signed(cs *Cursors, payload []byte) string {
	return base64.RawURLEncoding.EncodeToString(append(payload, cs.tag(payload)...))
}

func flip(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}

func TestNewPageIssuesACursorOnlyWhenMoreItemsExist(t *testing.T) {
	cs := testCursors(t)
	w, _ := Resolve[NumKey](cs, Request{Limit: 2}, "f")
	key := func(n int64) NumKey { return NumKey{N: n, ID: "x"} }
	last := NewPage(w, []int64{1, 2}, false, 2, key)
	if last.NextCursor != "" || last.Meta().NextCursor != nil || last.Meta().GetTotal() != 2 || last.Meta().GetLimit() != 2 {
		t.Fatalf("last page: %+v", last)
	}
	more := NewPage(w, []int64{1, 2}, true, 5, key)
	next, err := Resolve[NumKey](cs, Request{Cursor: more.NextCursor}, "f")
	if err != nil || next.After.N != 2 || next.Page != 2 || more.Meta().GetNextCursor() != more.NextCursor {
		t.Fatalf("next page: %+v %v", next, err)
	}
}
