// Package webhooks manages partner apps' webhook subscriptions: one callback
// URL per event type, checked against SSRF when it is set, with a signing
// secret sealed at rest. Deliveries run on the worker role.
package webhooks

import (
	"context"
	"errors"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/sdk/webhook"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/webhooks/callback"
)

// RotationOverlap is how long the previous secret keeps signing after a
// rotation.
const RotationOverlap = 24 * time.Hour

// Config is what a Service is built from.
type Config struct {
	Store Store
	// Sealer seals signing secrets at rest (the key app secrets use).
	Sealer *auth.Sealer
	// Callbacks is the deployment's callback URL policy (its allow list, a
	// resolver in tests); whether plain http is allowed follows each
	// subscription's environment (callbackPolicy).
	Callbacks callback.Policy
	// Clock is wall time (default: the system clock).
	Clock clock.Clock
	// Jobs queues redeliveries, replays and tests (core; the worker, which
	// only signs, has none).
	Jobs *worker.Inserter
}

// Service holds the subscription use cases.
type Service struct {
	cfg Config
}

// NewService returns a Service.
func NewService(cfg Config) (*Service, error) {
	if cfg.Store == nil || cfg.Sealer == nil {
		return nil, errors.New("webhooks: a store and a sealer are required")
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	return &Service{cfg: cfg}, nil
}

// View is a subscription as rendered; Secret is set only when one was just
// issued.
type View struct {
	*Subscription
	Type   events.Type
	Secret string
}

// callbackPolicy is the URL policy of a live (https only) or a sandbox
// (http too) app's subscriptions: at subscription and at delivery alike.
func (s *Service) callbackPolicy(sandbox bool) callback.Policy {
	p := s.cfg.Callbacks
	p.AllowHTTP = sandbox
	return p
}

// checkURL validates a callback URL by the rules of the app's environment.
func (s *Service) checkURL(ctx context.Context, p *principal.Principal, raw string) (string, error) {
	u, err := s.callbackPolicy(p.Environment == auth.EnvSandbox).Check(ctx, raw)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

// app is the calling partner app: subscriptions belong to apps.
func app(ctx context.Context) (*principal.Principal, error) {
	p, ok := principal.FromContext(ctx)
	if !ok {
		return nil, apierr.New(apierr.Forbidden, "webhook subscriptions belong to partner apps")
	}
	return p, nil
}

func notFound() error { return apierr.New(apierr.NotFound, "webhook subscription not found") }

func exists() error {
	return apierr.New(apierr.WebhookSubscriptionExists, "this app already subscribes this callback URL to this event type")
}

func view(s *Subscription) View {
	t, _ := events.ParseType(s.EventType)
	return View{Subscription: s, Type: t}
}

// Create subscribes a callback URL to an event type the app may read.
func (s *Service) Create(ctx context.Context, t events.Type, rawURL string) (View, error) {
	p, err := app(ctx)
	if err != nil {
		return View{}, err
	}
	name := events.WireName(t)
	if name == "" {
		return View{}, apierr.New(apierr.ValidationError, "eventType: must be an event type of the catalogue")
	}
	if !events.MayRead(p, t) {
		return View{}, apierr.Newf(apierr.Forbidden, "subscribing to %s needs the scope %s", name, events.ReadScope(t))
	}
	callback, err := s.checkURL(ctx, p, rawURL)
	if err != nil {
		return View{}, err
	}
	now := s.cfg.Clock.Now()
	sub := &Subscription{ID: ids.NewAt("whk", now), AppID: p.AppID, EventType: name, URL: callback, Active: true,
		Sandbox:   p.Environment == auth.EnvSandbox,
		CreatedAt: now, UpdatedAt: now}
	secret, sealed, err := s.issueSecret(sub.ID)
	if err != nil {
		return View{}, err
	}
	sub.Secret = sealed
	if err := s.cfg.Store.Create(ctx, sub); err != nil {
		if errors.Is(err, ErrExists) {
			return View{}, exists()
		}
		return View{}, err
	}
	v := view(sub)
	v.Secret = secret
	return v, nil
}

// List returns the app's subscriptions, oldest first.
func (s *Service) List(ctx context.Context) ([]View, error) {
	p, err := app(ctx)
	if err != nil {
		return nil, err
	}
	subs, err := s.cfg.Store.List(ctx, p.AppID)
	if err != nil {
		return nil, err
	}
	out := make([]View, len(subs))
	for i, sub := range subs {
		out[i] = view(sub)
	}
	return out, nil
}

// Get returns one of the app's subscriptions.
func (s *Service) Get(ctx context.Context, id string) (View, error) {
	p, err := app(ctx)
	if err != nil {
		return View{}, err
	}
	if !ids.Plausible("whk", id) {
		return View{}, notFound()
	}
	sub, err := s.cfg.Store.Get(ctx, p.AppID, id)
	if errors.Is(err, ErrNotFound) {
		return View{}, notFound()
	}
	if err != nil {
		return View{}, err
	}
	return view(sub), nil
}

// Update changes the callback URL (checked like a new one) or the active
// flag. Re-activating clears the platform's disabling and the failure count.
func (s *Service) Update(ctx context.Context, id string, rawURL *string, active *bool) (View, error) {
	p, err := app(ctx)
	if err != nil {
		return View{}, err
	}
	if !ids.Plausible("whk", id) {
		return View{}, notFound()
	}
	var newURL string
	if rawURL != nil {
		if newURL, err = s.checkURL(ctx, p, *rawURL); err != nil {
			return View{}, err
		}
	}
	now := s.cfg.Clock.Now()
	sub, err := s.cfg.Store.Update(ctx, p.AppID, id, func(sub *Subscription) error {
		if rawURL != nil {
			sub.URL = newURL
		}
		if active != nil {
			if *active && !sub.Active {
				sub.ConsecutiveFailures, sub.FailingSince, sub.DisabledReason = 0, nil, nil
			}
			sub.Active = *active
		}
		sub.UpdatedAt = now
		return nil
	})
	switch {
	case errors.Is(err, ErrNotFound):
		return View{}, notFound()
	case errors.Is(err, ErrExists):
		return View{}, exists()
	case err != nil:
		return View{}, err
	}
	return view(sub), nil
}

// Delete removes one of the app's subscriptions.
func (s *Service) Delete(ctx context.Context, id string) error {
	p, err := app(ctx)
	if err != nil {
		return err
	}
	if !ids.Plausible("whk", id) {
		return notFound()
	}
	if err := s.cfg.Store.Delete(ctx, p.AppID, id); errors.Is(err, ErrNotFound) {
		return notFound()
	} else if err != nil {
		return err
	}
	return nil
}

// RotateSecret issues a new signing secret; the previous one keeps signing
// for RotationOverlap.
func (s *Service) RotateSecret(ctx context.Context, id string) (View, error) {
	p, err := app(ctx)
	if err != nil {
		return View{}, err
	}
	if !ids.Plausible("whk", id) {
		return View{}, notFound()
	}
	secret, sealed, err := s.issueSecret(id)
	if err != nil {
		return View{}, err
	}
	now := s.cfg.Clock.Now()
	sub, err := s.cfg.Store.Update(ctx, p.AppID, id, func(sub *Subscription) error {
		until := now.Add(RotationOverlap)
		sub.PreviousSecret, sub.PreviousSecretExpiresAt = sub.Secret, &until
		sub.Secret, sub.UpdatedAt = sealed, now
		return nil
	})
	if errors.Is(err, ErrNotFound) {
		return View{}, notFound()
	}
	if err != nil {
		return View{}, err
	}
	v := view(sub)
	v.Secret = secret
	return v, nil
}

// Secrets returns the secrets that sign sub's deliveries at now: the current
// one, and the previous one during a rotation's overlap.
func (s *Service) Secrets(sub *Subscription, now time.Time) ([]string, error) {
	cur, err := s.cfg.Sealer.Open(sub.Secret, []byte(sub.ID))
	if err != nil {
		return nil, err
	}
	out := []string{string(cur)}
	if sub.PreviousSecret != nil && sub.PreviousSecretExpiresAt != nil && now.Before(*sub.PreviousSecretExpiresAt) {
		prev, err := s.cfg.Sealer.Open(sub.PreviousSecret, []byte(sub.ID))
		if err != nil {
			return nil, err
		}
		out = append(out, string(prev))
	}
	return out, nil
}

// issueSecret makes a Standard Webhooks secret (webhook.NewSecret) and
// seals it for the subscription id.
func (s *Service) issueSecret(id string) (secret string, sealed []byte, err error) {
	if secret, err = webhook.NewSecret(); err != nil {
		return "", nil, err
	}
	sealed, err = s.cfg.Sealer.Seal([]byte(secret), []byte(id))
	return secret, sealed, err
}
