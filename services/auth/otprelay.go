package auth

import (
	"context"
	"fmt"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/relay"
)

// RelaySender hands one-time codes to the operator's messaging relay (the
// service that owns SMS and e-mail delivery): a POST of
// {"destination","code","expires_in"} signed as every relay call is
// (internal/relay), answered 2xx. The platform keeps no copy of the code.
type RelaySender struct{ relay *relay.Endpoint }

// NewRelaySender checks the relay's address and secret.
func NewRelaySender(rawURL, secret string) (*RelaySender, error) {
	r, err := relay.New("the one-time code relay", rawURL, secret, clock.System{})
	if err != nil {
		return nil, fmt.Errorf("auth: %w", err)
	}
	return &RelaySender{relay: r}, nil
}

// SendOTP implements OTPSender.
func (r *RelaySender) SendOTP(ctx context.Context, destination, code string) error {
	err := r.relay.Post(ctx, map[string]any{"destination": destination, "code": code, "expires_in": int64(OTPTTL / time.Second)})
	if err != nil {
		return fmt.Errorf("auth: one-time code relay: %w", err)
	}
	return nil
}
