// Package paginationtest helps tests check that listings refuse cursors a
// client edited.
package paginationtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"testing"
)

// Tampered returns edits of a genuine cursor that a client could make, by
// name: a cursor's JSON position is readable (base64url of the JSON, then
// the tag), and each edit keeps the tag that came with the genuine one.
// "id holding NUL": an id edited to hold \u0000 once reached PostgreSQL
// and answered 500.
func Tampered(t testing.TB, genuine string) map[string]string {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(genuine)
	if err != nil {
		t.Fatalf("cursor %q is not base64url: %v", genuine, err)
	}
	// The tag is the last sha256.Size bytes (internal/pagination): split
	// there, not at the last '}', which the tag's own bytes may hold.
	end := len(raw) - sha256.Size
	if end < 2 || raw[end-1] != '}' {
		t.Fatalf("cursor %q holds no JSON position", genuine)
	}
	payload, tag := raw[:end], raw[end:]
	out := map[string]string{}
	edit := func(name, pattern, replacement string) {
		i := bytes.Index(payload, []byte(pattern))
		if i < 0 {
			t.Fatalf("%s not in cursor %s", pattern, payload)
		}
		p := append(append(append([]byte{}, payload[:i]...), replacement...), payload[i+len(pattern):]...)
		out[name] = base64.RawURLEncoding.EncodeToString(append(p, tag...))
	}
	edit("id holding NUL", `"i":"`, `"i":"\u0000`)
	edit("page", `"p":`, `"p":1`)
	edit("filter", `"f":"`, `"f":"0`)
	out["unsigned"] = base64.RawURLEncoding.EncodeToString(payload)
	return out
}
