package mail

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
)

// relayTimeout bounds one call to the relay.
const relayTimeout = 5 * time.Second

// Relay hands messages to the operator's mail relay (MP_MAIL_RELAY_URL): a
// POST of {"to","subject","text"} signed as the one-time-code relay's are,
// an HMAC-SHA256 of "{timestamp}.{body}" under Secret in X-Relay-Signature
// with X-Relay-Timestamp beside it, answered 2xx.
type Relay struct {
	URL    string
	Secret []byte
	Clock  clock.Clock
	// Client sends the request (no redirects followed).
	Client *http.Client
}

// NewRelay checks the relay's address and secret.
func NewRelay(rawURL, secret string, c clock.Clock) (*Relay, error) {
	u, err := url.Parse(rawURL)
	if err != nil || !u.IsAbs() || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, errors.New("mail: the mail relay URL must be an absolute http(s) URL")
	}
	if len(secret) < 32 {
		return nil, errors.New("mail: the mail relay secret must be at least 32 characters")
	}
	return &Relay{URL: rawURL, Secret: []byte(secret), Clock: c, Client: &http.Client{
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}, nil
}

// Send implements Sender.
func (r *Relay) Send(ctx context.Context, m Message) error {
	body, err := json.Marshal(map[string]string{"to": m.To, "subject": m.Subject, "text": m.Text})
	if err != nil {
		return err
	}
	ts := strconv.FormatInt(r.Clock.Now().Unix(), 10)
	mac := hmac.New(sha256.New, r.Secret)
	mac.Write([]byte(ts + "."))
	mac.Write(body)
	ctx, cancel := context.WithTimeout(ctx, relayTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Relay-Timestamp", ts)
	req.Header.Set("X-Relay-Signature", hex.EncodeToString(mac.Sum(nil)))
	resp, err := r.Client.Do(req)
	if err != nil {
		// Never the body: it holds a link that signs a person in to a step.
		return fmt.Errorf("mail: relay: %w", errors.Unwrap(err))
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("mail: relay answered %d", resp.StatusCode)
	}
	return nil
}
