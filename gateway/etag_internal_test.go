package gateway

import "testing"

func TestNoneMatchNames(t *testing.T) {
	const tag = `"abc123"`
	for header, want := range map[string]bool{
		`"abc123"`:          true,
		`W/"abc123"`:        true,
		`"x", "abc123"`:     true,
		` "x" ,W/"abc123" `: true,
		`*`:                 true,
		`"abc1234"`:         false,
		`abc123`:            false,
		`"x", "y"`:          false,
		`W/"abc123`:         false,
		`"ABC123"`:          false,
	} {
		if got := noneMatchNames(header, tag); got != want {
			t.Errorf("If-None-Match %s: %v, want %v", header, got, want)
		}
	}
	for v, want := range map[string]bool{"3f1c9a": true, "a b": false, `a"b`: false, "é": false, "a/b-c_d": true} {
		if got := validETagValue(v); got != want {
			t.Errorf("validETagValue(%q) = %v, want %v", v, got, want)
		}
	}
}
