package auth_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/services/auth"
)

// The relay receives the destination and the code, signed with the shared
// secret; a relay that fails is an error (the sign-in answers 503), and the
// error does not carry the code.
func TestRelaySender(t *testing.T) {
	secret := strings.Repeat("k", 32)
	var got map[string]any
	status := http.StatusAccepted
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mac := hmac.New(sha256.New, []byte(secret))
		mac.Write([]byte(r.Header.Get("X-Relay-Timestamp") + "."))
		mac.Write(body)
		if !hmac.Equal([]byte(hex.EncodeToString(mac.Sum(nil))), []byte(r.Header.Get("X-Relay-Signature"))) {
			t.Error("the relay request's signature does not verify")
		}
		_ = json.Unmarshal(body, &got)
		w.WriteHeader(status)
	}))
	defer srv.Close()
	s, err := auth.NewRelaySender(srv.URL+"/otp", secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SendOTP(context.Background(), "+639171234567", "482913"); err != nil {
		t.Fatal(err)
	}
	if got["destination"] != "+639171234567" || got["code"] != "482913" || got["expires_in"] != float64(300) {
		t.Fatalf("relay got %v", got)
	}
	status = http.StatusBadGateway
	err = s.SendOTP(context.Background(), "+639171234567", "482913")
	if err == nil || strings.Contains(err.Error(), "482913") {
		t.Fatalf("a failing relay: %v", err)
	}
	if _, err := auth.NewRelaySender("ftp://relay", secret); err == nil {
		t.Error("a non-http relay URL was accepted")
	}
	if _, err := auth.NewRelaySender(srv.URL, "short"); err == nil {
		t.Error("a short relay secret was accepted")
	}
}
