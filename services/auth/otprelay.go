package auth

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
)

// RelaySender hands one-time codes to the operator's messaging relay (the
// service that owns SMS and e-mail delivery): a POST of
// {"destination","code","expires_in"} to URL, signed with an HMAC-SHA256 of
// "{timestamp}.{body}" under Secret in X-Relay-Signature (X-Relay-Timestamp
// beside it), answered 2xx. The platform keeps no copy of the code.
type RelaySender struct {
	URL    string
	Secret []byte
	// Client sends the request (default: 5 s timeout, no redirects).
	Client *http.Client
}

// NewRelaySender checks the relay's address and secret.
func NewRelaySender(rawURL, secret string) (*RelaySender, error) {
	u, err := url.Parse(rawURL)
	if err != nil || !u.IsAbs() || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, errors.New("auth: the one-time code relay URL must be an absolute http(s) URL")
	}
	if len(secret) < 32 {
		return nil, errors.New("auth: the one-time code relay secret must be at least 32 characters")
	}
	return &RelaySender{URL: rawURL, Secret: []byte(secret), Client: &http.Client{Timeout: 5 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}, nil
}

// SendOTP implements OTPSender.
func (r *RelaySender) SendOTP(ctx context.Context, destination, code string) error {
	body, err := json.Marshal(map[string]any{"destination": destination, "code": code, "expires_in": int64(OTPTTL / time.Second)})
	if err != nil {
		return err
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, r.Secret)
	mac.Write([]byte(ts + "."))
	mac.Write(body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Relay-Timestamp", ts)
	req.Header.Set("X-Relay-Signature", hex.EncodeToString(mac.Sum(nil)))
	resp, err := r.Client.Do(req)
	if err != nil {
		// The URL, never the body: the error may be logged.
		return fmt.Errorf("auth: one-time code relay: %w", errors.Unwrap(err))
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("auth: one-time code relay answered %d", resp.StatusCode)
	}
	return nil
}
