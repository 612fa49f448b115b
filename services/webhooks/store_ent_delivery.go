package webhooks

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/event"
	"github.com/mallplatform/partnerapi/ent/sellerauthorization"
	"github.com/mallplatform/partnerapi/ent/webhookdelivery"
	"github.com/mallplatform/partnerapi/ent/webhooksubscription"
	"github.com/mallplatform/partnerapi/internal/db"
)

// Matching returns the active subscriptions to eventType whose app holds an
// active grant of the seller that includes scope: the subscriptions an
// event of that seller is delivered to.
func (s *EntStore) Matching(ctx context.Context, sellerID, eventType, scope string, now time.Time) ([]*Subscription, error) {
	c := s.db(ctx)
	subs, err := c.WebhookSubscription.Query().
		Where(webhooksubscription.EventType(eventType), webhooksubscription.IsActive(true)).
		Order(ent.Asc(webhooksubscription.FieldID)).All(ctx)
	if err != nil || len(subs) == 0 {
		return nil, err
	}
	apps := make([]string, 0, len(subs))
	for _, sub := range subs {
		apps = append(apps, sub.AppID)
	}
	grants, err := c.SellerAuthorization.Query().
		Where(sellerauthorization.SellerID(sellerID), sellerauthorization.AppIDIn(apps...),
			sellerauthorization.RevokedAtIsNil(), sellerauthorization.RefreshExpiresAtGT(now)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("webhooks: grants: %w", err)
	}
	granted := map[string]bool{}
	for _, g := range grants {
		if slices.Contains(g.Scopes, scope) {
			granted[g.AppID] = true
		}
	}
	var out []*Subscription
	for _, sub := range subs {
		if granted[sub.AppID] {
			out = append(out, fromEnt(sub))
		}
	}
	return out, nil
}

// AppMatching returns the app's active subscriptions to eventType: the
// subscriptions an event addressed to the app is delivered to.
func (s *EntStore) AppMatching(ctx context.Context, appID, eventType string) ([]*Subscription, error) {
	rows, err := s.appSubscriptions(ctx, appID).
		Where(webhooksubscription.EventType(eventType), webhooksubscription.IsActive(true)).
		Order(ent.Asc(webhooksubscription.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("webhooks: subscriptions: %w", err)
	}
	out := make([]*Subscription, len(rows))
	for i, r := range rows {
		out[i] = fromEnt(r)
	}
	return out, nil
}

// ByID returns a subscription whatever its app, for the delivery worker.
func (s *EntStore) ByID(ctx context.Context, id string) (*Subscription, error) {
	r, err := s.db(ctx).WebhookSubscription.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("webhooks: get: %w", err)
	}
	return fromEnt(r), nil
}

// Attempt is one delivery attempt as logged.
type Attempt struct {
	ID, SubscriptionID, AppID, EventID, EventType string
	Test                                          bool
	// Pending: queued, not attempted yet (ID is empty, NextAttemptAt is
	// when it is due).
	Pending        bool
	Number         int64
	Succeeded      bool
	ResponseStatus *int64
	Duration       time.Duration
	Error          string
	ResponseBody   []byte
	NextAttemptAt  *time.Time
	At             time.Time
}

// RecordAttempt logs an attempt and updates the subscription's health: a
// success clears the failures (when failing says there are some); a failure
// counts one more and keeps when the run of failures began, which it
// returns.
func (s *EntStore) RecordAttempt(ctx context.Context, a Attempt, failing bool) (failingSince *time.Time, err error) {
	// The attempt and the subscription's health change together: a reader
	// never sees a success logged beside the failure count it reset.
	err = db.InTx(ctx, s.client, func(ctx context.Context) error {
		failingSince, err = s.recordAttempt(ctx, a, failing)
		return err
	})
	return failingSince, err
}

func (s *EntStore) recordAttempt(ctx context.Context, a Attempt, failing bool) (failingSince *time.Time, err error) {
	status := webhookdelivery.StatusFailed
	if a.Succeeded {
		status = webhookdelivery.StatusSucceeded
	}
	c := s.db(ctx)
	err = c.WebhookDelivery.Create().
		SetID(a.ID).SetSubscriptionID(a.SubscriptionID).SetAppID(a.AppID).SetEventID(a.EventID).SetEventType(a.EventType).
		SetTest(a.Test).
		SetAttempt(a.Number).SetStatus(status).SetNillableResponseStatus(a.ResponseStatus).
		SetDurationMs(a.Duration.Milliseconds()).SetError(a.Error).SetResponseBody(a.ResponseBody).
		SetNillableNextAttemptAt(a.NextAttemptAt).SetCreatedAt(a.At).
		Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("webhooks: log attempt: %w", err)
	}
	u := c.WebhookSubscription.Update().Where(webhooksubscription.ID(a.SubscriptionID))
	if a.Succeeded {
		if failing {
			_, err = u.SetConsecutiveFailures(0).ClearFailingSince().Save(ctx)
		}
		return nil, err
	}
	if _, err = u.AddConsecutiveFailures(1).Save(ctx); err != nil {
		return nil, fmt.Errorf("webhooks: count failure: %w", err)
	}
	// The run of failures began now unless it had begun already.
	if _, err = c.WebhookSubscription.Update().
		Where(webhooksubscription.ID(a.SubscriptionID), webhooksubscription.FailingSinceIsNil()).
		SetFailingSince(a.At).Save(ctx); err != nil {
		return nil, fmt.Errorf("webhooks: count failure: %w", err)
	}
	sub, err := s.ByID(ctx, a.SubscriptionID)
	if err != nil {
		return nil, err
	}
	return sub.FailingSince, nil
}

// Disable stops deliveries to a subscription, saying why.
func (s *EntStore) Disable(ctx context.Context, id, reason string, at time.Time) error {
	_, err := s.db(ctx).WebhookSubscription.UpdateOneID(id).
		SetIsActive(false).SetDisabledReason(reason).SetUpdatedAt(at).Save(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return fmt.Errorf("webhooks: disable: %w", err)
	}
	return nil
}

// DeliveryLogRetention is how long delivery attempts are kept.
const DeliveryLogRetention = 30 * 24 * time.Hour

// DeliveryLog is the attempt log as a retention target.
type DeliveryLog struct{ store *EntStore }

// DeliveryLog returns the attempt log for the retention job.
func (s *EntStore) DeliveryLog() DeliveryLog { return DeliveryLog{s} }

// Purge deletes the attempts logged before before.
func (l DeliveryLog) Purge(ctx context.Context, before time.Time) (int, error) {
	n, err := l.store.db(ctx).WebhookDelivery.Delete().Where(webhookdelivery.CreatedAtLT(before)).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("webhooks: purge the delivery log: %w", err)
	}
	return n, nil
}

// Attempts implements Store.
func (s *EntStore) Attempts(ctx context.Context, subscriptionID string, limit int) ([]Attempt, error) {
	rows, err := s.db(ctx).WebhookDelivery.Query().Where(webhookdelivery.SubscriptionID(subscriptionID)).
		Order(ent.Desc(webhookdelivery.FieldCreatedAt), ent.Desc(webhookdelivery.FieldID)).Limit(limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("webhooks: list attempts: %w", err)
	}
	out := make([]Attempt, len(rows))
	for i, r := range rows {
		out[i] = attemptFromEnt(r)
	}
	return out, nil
}

// Attempt implements Store.
func (s *EntStore) Attempt(ctx context.Context, subscriptionID, id string) (Attempt, error) {
	r, err := s.db(ctx).WebhookDelivery.Query().
		Where(webhookdelivery.SubscriptionID(subscriptionID), webhookdelivery.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return Attempt{}, ErrNotFound
	}
	if err != nil {
		return Attempt{}, fmt.Errorf("webhooks: get attempt: %w", err)
	}
	return attemptFromEnt(r), nil
}

// ReplayEvents implements Store.
func (s *EntStore) ReplayEvents(ctx context.Context, sub *Subscription, scope string, since, now time.Time, limit int) ([]string, error) {
	c := s.db(ctx)
	grants, err := c.SellerAuthorization.Query().
		Where(sellerauthorization.AppID(sub.AppID), sellerauthorization.RevokedAtIsNil(), sellerauthorization.RefreshExpiresAtGT(now)).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("webhooks: grants: %w", err)
	}
	var sellers []string
	for _, g := range grants {
		if slices.Contains(g.Scopes, scope) && !slices.Contains(sellers, g.SellerID) {
			sellers = append(sellers, g.SellerID)
		}
	}
	// The events addressed to the app, whatever its grants now (a revoked
	// grant's authorization.revoked); the unaddressed ones of the sellers
	// granting the scope.
	of := event.AppID(sub.AppID)
	if len(sellers) > 0 {
		of = event.Or(of, event.And(event.AppIDIsNil(), event.SellerIDIn(sellers...)))
	}
	return c.Event.Query().
		Where(event.TypeEQ(sub.EventType), event.CreatedAtGTE(since), of).
		Order(ent.Asc(event.FieldID)).Limit(limit).Select(event.FieldEventID).Strings(ctx)
}

// InTx implements Store.
func (s *EntStore) InTx(ctx context.Context, fn func(ctx context.Context) error) error {
	return db.InTx(ctx, s.client, fn)
}

func attemptFromEnt(r *ent.WebhookDelivery) Attempt {
	return Attempt{
		ID: r.ID, SubscriptionID: r.SubscriptionID, AppID: r.AppID, EventID: r.EventID, EventType: r.EventType, Test: r.Test,
		Number: r.Attempt, Succeeded: r.Status == webhookdelivery.StatusSucceeded, ResponseStatus: r.ResponseStatus,
		Duration: time.Duration(r.DurationMs) * time.Millisecond, Error: r.Error, ResponseBody: r.ResponseBody,
		NextAttemptAt: r.NextAttemptAt, At: r.CreatedAt,
	}
}

// The queue queries below match the queue's index for delivery jobs
// (internal/db, river_job_webhook_resource) in both dialects: its
// expressions, and its predicate as a literal so that a prepared statement's
// generic plan can use it too (TestQueueQueriesUseTheirIndex). SQLite,
// without statistics, would pick River's index on kind alone: it is told.
var (
	earlierFirstAttemptQuery = map[string]string{
		db.DriverPostgres: `SELECT 1 FROM river_job WHERE kind = '` + DeliverKind + `' AND id < $1
		AND args->>'subscription_id' = $2 AND args->>'resource_id' = $3
		AND (state IN ('available', 'scheduled', 'pending') AND attempt = 0 OR state = 'running' AND attempt = 1) LIMIT 1`,
		db.DriverSQLite: `SELECT 1 FROM river_job INDEXED BY river_job_webhook_resource WHERE kind = '` + DeliverKind + `' AND id < ?1
		AND json_extract(args, '$.subscription_id') = ?2 AND json_extract(args, '$.resource_id') = ?3
		AND (state IN ('available', 'scheduled', 'pending') AND attempt = 0 OR state = 'running' AND attempt = 1) LIMIT 1`,
	}
	pendingQuery = map[string]string{
		db.DriverPostgres: `SELECT args, created_at, scheduled_at FROM river_job WHERE kind = '` + DeliverKind + `'
		AND args->>'subscription_id' = $1
		AND attempt = 0 AND state IN ('available', 'scheduled', 'pending') ORDER BY id DESC LIMIT $2`,
		db.DriverSQLite: `SELECT args, created_at, scheduled_at FROM river_job INDEXED BY river_job_webhook_resource WHERE kind = '` + DeliverKind + `'
		AND json_extract(args, '$.subscription_id') = ?1
		AND attempt = 0 AND state IN ('available', 'scheduled', 'pending') ORDER BY id DESC LIMIT ?2`,
	}
)

// EarlierFirstAttemptPending reports whether a delivery job older than jobID,
// of the same subscription and resource, has not made its first attempt yet
// (queued, scheduled, or running it now).
func (s *EntStore) EarlierFirstAttemptPending(ctx context.Context, jobID int64, subscriptionID, resourceID string) (bool, error) {
	q := earlierFirstAttemptQuery[s.dialect]
	rows, err := s.db(ctx).QueryContext(ctx, q, jobID, subscriptionID, resourceID)
	if err != nil {
		return false, fmt.Errorf("webhooks: earlier deliveries: %w", err)
	}
	defer rows.Close()
	found := rows.Next()
	return found, rows.Err()
}

// Pending returns the deliveries to sub queued and not attempted yet, newest
// first: River's jobs that have not run.
func (s *EntStore) Pending(ctx context.Context, sub *Subscription, limit int) ([]Attempt, error) {
	q := pendingQuery[s.dialect]
	rows, err := s.db(ctx).QueryContext(ctx, q, sub.ID, limit)
	if err != nil {
		return nil, fmt.Errorf("webhooks: pending deliveries: %w", err)
	}
	defer rows.Close()
	var out []Attempt
	for rows.Next() {
		var raw []byte
		var created, due time.Time
		if err := rows.Scan(&raw, &created, &due); err != nil {
			return nil, fmt.Errorf("webhooks: pending deliveries: %w", err)
		}
		var args DeliverArgs
		if err := json.Unmarshal(raw, &args); err != nil {
			return nil, fmt.Errorf("webhooks: pending deliveries: %w", err)
		}
		due = due.UTC()
		out = append(out, Attempt{SubscriptionID: sub.ID, AppID: sub.AppID, EventID: args.EventID, EventType: sub.EventType,
			Test: args.Test, Pending: true, Number: 1, NextAttemptAt: &due, At: created.UTC()})
	}
	return out, rows.Err()
}
