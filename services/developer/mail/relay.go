package mail

import (
	"context"
	"fmt"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/relay"
)

// Relay hands messages to the operator's mail relay (MP_MAIL_RELAY_URL): a
// POST of {"to","subject","text"} signed as every relay call is
// (internal/relay, like the one-time-code relay's), answered 2xx.
type Relay struct{ relay *relay.Endpoint }

// NewRelay checks the relay's address and secret.
func NewRelay(rawURL, secret string, c clock.Clock) (*Relay, error) {
	r, err := relay.New("the mail relay", rawURL, secret, c)
	if err != nil {
		return nil, fmt.Errorf("mail: %w", err)
	}
	return &Relay{relay: r}, nil
}

// Send implements Sender.
func (r *Relay) Send(ctx context.Context, m Message) error {
	// Never the body in the error: it holds a link that signs a person in
	// to a step.
	if err := r.relay.Post(ctx, map[string]string{"to": m.To, "subject": m.Subject, "text": m.Text}); err != nil {
		return fmt.Errorf("mail: relay: %w", err)
	}
	return nil
}
