package relay

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
)

const secret = "0123456789abcdef0123456789abcdef"

// The relay receives the JSON body with the time it was sent and an
// HMAC-SHA256 of "{timestamp}.{body}" under the shared secret.
func TestPostIsSigned(t *testing.T) {
	c := clock.NewManual(time.Date(2026, 3, 10, 2, 0, 0, 0, time.UTC))
	var got map[string]string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		ts := r.Header.Get("X-Relay-Timestamp")
		m := hmac.New(sha256.New, []byte(secret))
		m.Write([]byte(ts + "."))
		m.Write(body)
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" || ts != "1773108000" ||
			!hmac.Equal([]byte(r.Header.Get("X-Relay-Signature")), []byte(hex.EncodeToString(m.Sum(nil)))) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_ = json.Unmarshal(body, &got)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	e, err := New("the test relay", srv.URL+"/send", secret, c)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Post(context.Background(), map[string]string{"to": "ana@example.com"}); err != nil {
		t.Fatal(err)
	}
	if got["to"] != "ana@example.com" {
		t.Fatalf("relay received %v", got)
	}
	if _, err := New("the test relay", srv.URL, "short", c); err == nil || !strings.Contains(err.Error(), "the test relay secret") {
		t.Fatalf("a short secret: %v", err)
	}
	for _, u := range []string{"relay.example/send", "ftp://relay.example/send", "https://"} {
		if _, err := New("the test relay", u, secret, c); err == nil {
			t.Fatalf("%q was accepted", u)
		}
	}
}

// A refusal or a redirect is an error naming the status, never the body;
// a relay that does not answer within the timeout is an error too, even
// when the caller's context has no deadline.
func TestPostFailures(t *testing.T) {
	status := http.StatusBadGateway
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			<-release
			return
		}
		if status == http.StatusFound {
			w.Header().Set("Location", "/elsewhere")
		}
		w.WriteHeader(status)
	}))
	defer srv.Close()
	defer close(release)
	e, err := New("the test relay", srv.URL, secret, clock.System{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []int{http.StatusBadGateway, http.StatusFound} {
		status = s
		err := e.Post(context.Background(), map[string]string{"code": "482913"})
		if err == nil || strings.Contains(err.Error(), "482913") || !strings.Contains(err.Error(), "answered") {
			t.Fatalf("status %d: %v", s, err)
		}
	}
	slow, err := New("the test relay", srv.URL+"/slow", secret, clock.System{})
	if err != nil {
		t.Fatal(err)
	}
	slow.timeout = time.Millisecond
	if err := slow.Post(context.Background(), map[string]string{"code": "482913"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a relay that does not answer: %v", err)
	}
}
