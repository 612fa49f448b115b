package webhooks

import (
	"context"
	"fmt"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/webhooksubscription"
	"github.com/mallplatform/partnerapi/internal/db"
)

// EntStore is the Store on ent, for PostgreSQL and SQLite alike.
type EntStore struct {
	client  *ent.Client
	dialect string
}

var _ Store = (*EntStore)(nil)

// NewEntStore returns a Store on d.
func NewEntStore(d *db.DB) *EntStore { return &EntStore{client: d.Ent, dialect: d.Driver()} }

func (s *EntStore) db(ctx context.Context) *ent.Client { return db.Client(ctx, s.client) }

// appSubscriptions starts every query: the app filter is written here and
// nowhere else.
func (s *EntStore) appSubscriptions(ctx context.Context, appID string) *ent.WebhookSubscriptionQuery {
	return s.db(ctx).WebhookSubscription.Query().Where(webhooksubscription.AppID(appID))
}

// Create implements Store.
func (s *EntStore) Create(ctx context.Context, sub *Subscription) error {
	err := s.db(ctx).WebhookSubscription.Create().
		SetID(sub.ID).SetAppID(sub.AppID).SetEventType(sub.EventType).SetCallbackURL(sub.URL).
		SetIsActive(sub.Active).SetSandbox(sub.Sandbox).SetSecretCiphertext(sub.Secret).
		SetCreatedAt(sub.CreatedAt).SetUpdatedAt(sub.UpdatedAt).
		Exec(ctx)
	if ent.IsConstraintError(err) {
		return ErrExists
	}
	if err != nil {
		return fmt.Errorf("webhooks: create: %w", err)
	}
	return nil
}

// List implements Store.
func (s *EntStore) List(ctx context.Context, appID string) ([]*Subscription, error) {
	rows, err := s.appSubscriptions(ctx, appID).
		Order(ent.Asc(webhooksubscription.FieldCreatedAt), ent.Asc(webhooksubscription.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("webhooks: list: %w", err)
	}
	out := make([]*Subscription, len(rows))
	for i, r := range rows {
		out[i] = fromEnt(r)
	}
	return out, nil
}

// Get implements Store.
func (s *EntStore) Get(ctx context.Context, appID, id string) (*Subscription, error) {
	r, err := s.appSubscriptions(ctx, appID).Where(webhooksubscription.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("webhooks: get: %w", err)
	}
	return fromEnt(r), nil
}

// Update implements Store.
func (s *EntStore) Update(ctx context.Context, appID, id string, apply func(*Subscription) error) (*Subscription, error) {
	var out *Subscription
	err := db.InTx(ctx, s.client, func(ctx context.Context) error {
		q := s.appSubscriptions(ctx, appID).Where(webhooksubscription.ID(id))
		if s.dialect == db.DriverPostgres {
			q = q.ForUpdate()
		}
		r, err := q.Only(ctx)
		if ent.IsNotFound(err) {
			return ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("webhooks: read for update: %w", err)
		}
		sub := fromEnt(r)
		if err := apply(sub); err != nil {
			return err
		}
		u := s.db(ctx).WebhookSubscription.UpdateOneID(id).
			SetCallbackURL(sub.URL).SetIsActive(sub.Active).SetSecretCiphertext(sub.Secret).
			SetConsecutiveFailures(sub.ConsecutiveFailures).
			SetNillableFailingSince(sub.FailingSince).SetNillableDisabledReason(sub.DisabledReason).
			SetUpdatedAt(sub.UpdatedAt)
		if sub.FailingSince == nil {
			u.ClearFailingSince()
		}
		if sub.DisabledReason == nil {
			u.ClearDisabledReason()
		}
		if sub.PreviousSecret != nil {
			u.SetPreviousSecretCiphertext(sub.PreviousSecret).SetNillablePreviousSecretExpiresAt(sub.PreviousSecretExpiresAt)
		}
		if err := u.Exec(ctx); err != nil {
			if ent.IsConstraintError(err) {
				return ErrExists
			}
			return fmt.Errorf("webhooks: update: %w", err)
		}
		out = sub
		return nil
	})
	return out, err
}

// Delete implements Store.
func (s *EntStore) Delete(ctx context.Context, appID, id string) error {
	n, err := s.db(ctx).WebhookSubscription.Delete().
		Where(webhooksubscription.AppID(appID), webhooksubscription.ID(id)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("webhooks: delete: %w", err)
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

func fromEnt(r *ent.WebhookSubscription) *Subscription {
	s := &Subscription{
		ID: r.ID, AppID: r.AppID, EventType: r.EventType, URL: r.CallbackURL, Active: r.IsActive, Sandbox: r.Sandbox,
		Secret: r.SecretCiphertext, PreviousSecretExpiresAt: r.PreviousSecretExpiresAt,
		ConsecutiveFailures: r.ConsecutiveFailures, FailingSince: r.FailingSince, DisabledReason: r.DisabledReason,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
	if r.PreviousSecretCiphertext != nil {
		s.PreviousSecret = *r.PreviousSecretCiphertext
	}
	return s
}
