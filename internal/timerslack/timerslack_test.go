package timerslack

import (
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  time.Duration
	}{
		{"", Default},
		{"0", 0},
		{"250us", 250 * time.Microsecond},
		{"1ms", time.Millisecond},
		{"100ms", 100 * time.Millisecond},
	} {
		got, err := Parse(tc.value)
		if err != nil || got != tc.want {
			t.Errorf("Parse(%q) = %s, %v; want %s", tc.value, got, err, tc.want)
		}
	}
	for _, value := range []string{"1", "fast", "-1ms", "101ms", "1h"} {
		if _, err := Parse(value); err == nil || !strings.Contains(err.Error(), EnvVar) {
			t.Errorf("Parse(%q): error %v, want one naming %s", value, err, EnvVar)
		}
	}
}
