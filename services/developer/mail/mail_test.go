package mail_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/services/developer/mail"
)

const secret = "0123456789abcdef0123456789abcdef"

var msg = mail.Message{To: "ana@example.com", Subject: "Verify your email address", Text: "Open https://x.example/v?token=t\n"}

// The relay receives the message signed as the one-time-code relay's are.
func TestRelaySignsLikeTheCodeRelay(t *testing.T) {
	c := clock.NewManual(time.Date(2026, 3, 10, 2, 0, 0, 0, time.UTC))
	var got map[string]string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		ts := r.Header.Get("X-Relay-Timestamp")
		m := hmac.New(sha256.New, []byte(secret))
		m.Write([]byte(ts + "."))
		m.Write(body)
		if ts != "1773108000" || r.Header.Get("X-Relay-Signature") != hex.EncodeToString(m.Sum(nil)) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_ = json.Unmarshal(body, &got)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	r, err := mail.NewRelay(srv.URL, secret, c)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	if got["to"] != msg.To || got["subject"] != msg.Subject || got["text"] != msg.Text {
		t.Fatalf("relay received %v", got)
	}
	if _, err := mail.NewRelay(srv.URL, "short", c); err == nil {
		t.Fatal("a short secret was accepted")
	}
	if _, err := mail.NewRelay("relay.example/send", secret, c); err == nil {
		t.Fatal("a relative URL was accepted")
	}
}

func TestRelayRefusalIsAnError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
	}))
	defer srv.Close()
	r, err := mail.NewRelay(srv.URL, secret, clock.System{})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Send(context.Background(), msg); err == nil || strings.Contains(err.Error(), "token") {
		t.Fatalf("error %v: want the status, never the message", err)
	}
}

func TestDirWritesEML(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mail")
	var console strings.Builder
	d := &mail.Dir{Path: dir, Console: &console, Clock: clock.NewManual(time.Date(2026, 3, 10, 2, 0, 0, 0, time.UTC))}
	evil := msg
	evil.Subject = "Hi\r\nBcc: someone@example.com"
	if err := d.Send(context.Background(), evil); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.eml"))
	if err != nil || len(files) != 1 {
		t.Fatalf("files %v (%v)", files, err)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if !strings.Contains(s, "To: <ana@example.com>\r\n") || strings.Contains(s, "\r\nBcc:") ||
		!strings.Contains(s, "\r\n\r\nOpen https://x.example/v?token=t\r\n") {
		t.Fatalf("eml:\n%s", s)
	}
	if !strings.Contains(console.String(), "https://x.example/v?token=t") {
		t.Fatalf("console: %q", console.String())
	}
}
