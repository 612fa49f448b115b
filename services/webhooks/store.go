package webhooks

import (
	"context"
	"errors"
	"time"
)

// Store errors.
var (
	// ErrNotFound: no such subscription for the app (another app's is the
	// same).
	ErrNotFound = errors.New("webhooks: subscription not found")
	// ErrExists: the app already subscribes this URL to this type.
	ErrExists = errors.New("webhooks: subscription exists")
)

// Subscription is a subscription as stored.
type Subscription struct {
	ID        string
	AppID     string
	EventType string
	URL       string
	Active    bool
	// Sandbox: a sandbox app's subscription (plain http allowed).
	Sandbox bool
	// Secret and PreviousSecret are sealed (auth.Sealer, bound to the id).
	Secret                  []byte
	PreviousSecret          []byte
	PreviousSecretExpiresAt *time.Time
	ConsecutiveFailures     int64
	FailingSince            *time.Time
	DisabledReason          *string
	CreatedAt, UpdatedAt    time.Time
}

// Store keeps subscriptions. Every method takes the app the caller is and
// never touches another app's rows.
type Store interface {
	Create(ctx context.Context, s *Subscription) error
	List(ctx context.Context, appID string) ([]*Subscription, error)
	Get(ctx context.Context, appID, id string) (*Subscription, error)
	// Update loads the app's subscription under a row lock where the
	// backend has one, calls apply and writes what it changed.
	Update(ctx context.Context, appID, id string, apply func(s *Subscription) error) (*Subscription, error)
	Delete(ctx context.Context, appID, id string) error
	// Attempts returns a subscription's logged attempts, newest first.
	Attempts(ctx context.Context, subscriptionID string, limit int) ([]Attempt, error)
	// Pending returns the deliveries to sub queued and not attempted yet,
	// newest first.
	Pending(ctx context.Context, sub *Subscription, limit int) ([]Attempt, error)
	// Attempt returns one logged attempt of the subscription.
	Attempt(ctx context.Context, subscriptionID, id string) (Attempt, error)
	// ReplayEvents returns the ids of the events of sub's type recorded at
	// or after since, oldest first, at most limit: those addressed to sub's
	// app, and the unaddressed ones of every seller whose active grant to
	// sub's app includes scope.
	ReplayEvents(ctx context.Context, sub *Subscription, scope string, since, now time.Time, limit int) ([]string, error)
	// InTx runs fn in a transaction (joining one ctx carries).
	InTx(ctx context.Context, fn func(ctx context.Context) error) error
}
