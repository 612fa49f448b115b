package auth

import (
	"context"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// CredentialsView is what a partner app may read about its own credentials:
// never a secret.
type CredentialsView struct {
	ClientID    string
	Environment string
	// SecretCreatedAt is when the current secret was issued.
	SecretCreatedAt time.Time
	// PreviousExpiresAt is when the rotated-out secret stops verifying;
	// nil unless it still verifies.
	PreviousExpiresAt *time.Time
}

// Credentials describes the app's credentials as they stand at this
// moment of security time.
func (s *Service) Credentials(ctx context.Context, clientID string) (*CredentialsView, error) {
	a, err := s.store.AppByClientID(ctx, clientID)
	if isNotFound(err) {
		return nil, apierr.New(apierr.NotFound, "app not found")
	}
	if err != nil {
		return nil, err
	}
	v := &CredentialsView{ClientID: a.ClientID, Environment: a.Environment, SecretCreatedAt: a.CreatedAt}
	if a.SecretCreatedAt != nil {
		v.SecretCreatedAt = *a.SecretCreatedAt
	}
	if a.PreviousCiphertext != nil && a.PreviousExpiresAt != nil && s.clock.Now().Before(*a.PreviousExpiresAt) {
		exp := *a.PreviousExpiresAt
		v.PreviousExpiresAt = &exp
	}
	return v, nil
}

// RotateClientSecret is a partner's own rotation: a new secret that
// verifies at once, the one it replaces verifying for the configured
// overlap. A rotation inside the overlap of the last one ends the secret
// that one replaced, so at most two secrets ever verify.
func (s *Service) RotateClientSecret(ctx context.Context, appID string) (secret string, previousExpires time.Time, err error) {
	return s.RotateSecret(ctx, appID, s.overlap)
}

// RotationOverlap is how long a secret a partner rotates out keeps
// verifying.
func (s *Service) RotationOverlap() time.Duration { return s.overlap }
