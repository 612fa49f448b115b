package auth_test

import (
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/services/auth"
)

func TestPasswordHashes(t *testing.T) {
	h, err := auth.HashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q is not argon2id at the documented parameters", h)
	}
	if other, _ := auth.HashPassword("correct horse battery"); other == h {
		t.Fatal("two hashes of one password are equal: no salt")
	}
	if ok, err := auth.CheckPassword(h, "correct horse battery"); !ok || err != nil {
		t.Fatalf("the password does not check: %v %v", ok, err)
	}
	if ok, _ := auth.CheckPassword(h, "correct horse batterY"); ok {
		t.Fatal("a wrong password checks")
	}
	for _, bad := range []string{"", "plain", "$argon2i$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA", "$argon2id$v=19$m=x$c2FsdA$aGFzaA"} {
		if _, err := auth.CheckPassword(bad, "x"); err == nil {
			t.Errorf("malformed hash %q accepted", bad)
		}
	}
}

// BenchmarkCheckPassword is one sign-in's password check, the consent flow's
// costliest step (19 MiB and two passes of argon2id).
//
//	go test -run '^$' -bench CheckPassword -benchmem ./services/auth/
func BenchmarkCheckPassword(b *testing.B) {
	h, err := auth.HashPassword("correct horse battery")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if ok, _ := auth.CheckPassword(h, "correct horse battery"); !ok {
			b.Fatal("no match")
		}
	}
}
