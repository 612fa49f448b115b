package platform

import (
	"bytes"
	"encoding/base64"
	"testing"

	"github.com/mallplatform/partnerapi/internal/pagination"
)

// Core replicas configured with the same secret key, however its base64 is
// spelled, read each other's cursors; another key does not.
func TestReplicasShareTheCursorKey(t *testing.T) {
	key := bytes.Repeat([]byte{0xfb}, 32)
	a, err := cursorsFromSecret(base64.StdEncoding.EncodeToString(key))
	if err != nil {
		t.Fatal(err)
	}
	b, err := cursorsFromSecret(base64.RawURLEncoding.EncodeToString(key))
	if err != nil {
		t.Fatal(err)
	}
	c := a.Encode(pagination.Cursor{Page: 2, Filter: "f", ID: "ord_1"})
	if _, err := b.Decode(c); err != nil {
		t.Fatalf("replica: %v", err)
	}
	other, _ := cursorsFromSecret(base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{1}, 32)))
	if _, err := other.Decode(c); err == nil {
		t.Fatal("a core with another secret key read the cursor")
	}
	if _, err := cursorsFromSecret("c2hvcnQ="); err == nil {
		t.Fatal("a short key was accepted")
	}
}
