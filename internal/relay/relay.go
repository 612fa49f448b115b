// Package relay posts to an operator's relay: the service that owns the
// delivery of the platform's one-time codes (MP_OTP_RELAY_URL) and of the
// console's mail (MP_MAIL_RELAY_URL). Every relay is called the same way: a
// POST of a JSON body signed with an HMAC-SHA256 of "{timestamp}.{body}"
// under the shared secret, hex in X-Relay-Signature with the Unix timestamp
// in X-Relay-Timestamp, no redirect followed, answered 2xx within Timeout.
package relay

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

// Timeout bounds one call to a relay, whatever the caller's deadline.
const Timeout = 5 * time.Second

// MinSecretLen is the shortest shared secret a relay is configured with.
const MinSecretLen = 32

// Endpoint is one relay.
type Endpoint struct {
	url    string
	secret []byte
	clock  clock.Clock
	client *http.Client
	// timeout is Timeout; a test shortens it.
	timeout time.Duration
}

// New checks a relay's address and secret; name says which relay in the
// errors ("the mail relay").
func New(name, rawURL, secret string, c clock.Clock) (*Endpoint, error) {
	u, err := url.Parse(rawURL)
	if err != nil || !u.IsAbs() || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("%s URL must be an absolute http(s) URL", name)
	}
	if len(secret) < MinSecretLen {
		return nil, fmt.Errorf("%s secret must be at least %d characters", name, MinSecretLen)
	}
	return &Endpoint{url: rawURL, secret: []byte(secret), clock: c, timeout: Timeout, client: &http.Client{
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}, nil
}

// Sign returns the signature of body sent at the Unix time ts.
func Sign(secret []byte, ts string, body []byte) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(ts + "."))
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// Post sends v as JSON, signed. The error never holds the body (it carries
// codes and sign-in links) nor the URL.
func (e *Endpoint) Post(ctx context.Context, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	ts := strconv.FormatInt(e.clock.Now().Unix(), 10)
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Relay-Timestamp", ts)
	req.Header.Set("X-Relay-Signature", Sign(e.secret, ts, body))
	resp, err := e.client.Do(req)
	if err != nil {
		return errors.Unwrap(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("answered %d", resp.StatusCode)
	}
	return nil
}
