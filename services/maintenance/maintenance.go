// Package maintenance holds each environment's maintenance switch: an
// operator turns it on (mpserver admin maintenance on) and off through
// core's internal MaintenanceAdminService, the state is one row per
// environment, and every gateway replica serving the environment reads it
// through MaintenanceService about once a second and answers partner routes
// 503 MAINTENANCE while it is on.
package maintenance

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/core"
)

// Environments that can be switched.
const (
	Sandbox    = "sandbox"
	Production = "production"
)

// MaxMessageLen bounds the message partners and sellers are shown.
const MaxMessageLen = 500

// State is an environment's maintenance state. The zero State of an
// environment (On false) is one never switched.
type State struct {
	Environment string
	On          bool
	// Until is when the operator expects maintenance to end (zero: not
	// said). It sets Retry-After; maintenance does not end when it passes.
	Until   time.Time
	Message string
	// SetBy names the internal caller of the last change.
	SetBy     string
	UpdatedAt time.Time
}

// Store keeps one State per environment.
type Store interface {
	// Get returns env's state; an environment never switched is the zero
	// State with Environment set, not an error.
	Get(ctx context.Context, env string) (State, error)
	// Put writes env's state (insert or replace).
	Put(ctx context.Context, s State) error
}

// Config configures the service.
type Config struct {
	Store Store
	// Clock stamps changes and judges whether until is in the future:
	// maintenance is operations' wall time, not a shop's business time.
	Clock clock.Clock
}

// Validate reports configuration mistakes.
func (c Config) Validate() error {
	if c.Store == nil {
		return errors.New("maintenance: a store is required")
	}
	return nil
}

// Service switches environments in and out of maintenance.
type Service struct {
	store Store
	clock clock.Clock
}

// New returns the service.
func New(cfg Config) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	return &Service{store: cfg.Store, clock: cfg.Clock}, nil
}

func validEnvironment(env string) error {
	if env != Sandbox && env != Production {
		return apierr.Newf(apierr.ValidationError, "environment: must be %q or %q", Sandbox, Production)
	}
	return nil
}

// Get returns env's state.
func (s *Service) Get(ctx context.Context, env string) (State, error) {
	if err := validEnvironment(env); err != nil {
		return State{}, err
	}
	st, err := s.store.Get(ctx, env)
	if err != nil {
		return State{}, fmt.Errorf("maintenance: %w", err)
	}
	return st, nil
}

// Set turns maintenance on for env with until (zero: not said) and
// message, or replaces both while it is on.
func (s *Service) Set(ctx context.Context, env string, until time.Time, message string) (State, error) {
	if err := validEnvironment(env); err != nil {
		return State{}, err
	}
	now := s.clock.Now()
	if !until.IsZero() && !until.After(now) {
		return State{}, apierr.New(apierr.ValidationError, "until: must be in the future")
	}
	if len(message) > MaxMessageLen {
		return State{}, apierr.Newf(apierr.ValidationError, "message: at most %d bytes", MaxMessageLen)
	}
	st := State{Environment: env, On: true, Message: message, SetBy: setBy(ctx), UpdatedAt: now}
	if !until.IsZero() {
		st.Until = until.UTC()
	}
	if err := s.store.Put(ctx, st); err != nil {
		return State{}, fmt.Errorf("maintenance: %w", err)
	}
	return st, nil
}

// Clear turns maintenance off for env; off already is not an error (the
// change is stamped all the same).
func (s *Service) Clear(ctx context.Context, env string) (State, error) {
	if err := validEnvironment(env); err != nil {
		return State{}, err
	}
	st := State{Environment: env, SetBy: setBy(ctx), UpdatedAt: s.clock.Now()}
	if err := s.store.Put(ctx, st); err != nil {
		return State{}, fmt.Errorf("maintenance: %w", err)
	}
	return st, nil
}

// setBy names the call's caller: the internal caller's name and id.
func setBy(ctx context.Context) string {
	c := core.CallerOf(ctx).String()
	if len(c) > 200 {
		c = c[:200]
	}
	return c
}
