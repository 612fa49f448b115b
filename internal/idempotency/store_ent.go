package idempotency

import (
	"context"
	"fmt"
	"time"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/idempotencykey"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/db"
)

// EntStore is the Store on ent, for PostgreSQL and SQLite alike.
type EntStore struct {
	client *ent.Client
}

var _ Store = (*EntStore)(nil)

// NewEntStore returns a Store on client.
func NewEntStore(client *ent.Client) *EntStore { return &EntStore{client: client} }

// Claim implements Store. INSERT ... ON CONFLICT DO NOTHING then a read:
// concurrent claims of one key all read the winner's row.
func (s *EntStore) Claim(ctx context.Context, c Claim) (Record, error) {
	err := s.client.IdempotencyKey.Create().
		SetScope(c.Scope).SetKey(c.Key).SetFingerprint(c.Fingerprint).SetMethod(c.Method).
		SetHolder(c.Holder).SetRequestID(c.RequestID).SetLockedUntil(c.LockedUntil).SetCreatedAt(c.Now).
		OnConflictColumns(idempotencykey.FieldScope, idempotencykey.FieldKey).DoNothing().
		Exec(ctx)
	// DoNothing on a conflict reports "no rows" on some dialects: the read
	// below tells who holds the key either way.
	if err != nil && !ent.IsNotFound(err) && !isNoRows(err) {
		return Record{}, fmt.Errorf("idempotency: claim: %w", err)
	}
	r, err := s.client.IdempotencyKey.Query().
		Where(idempotencykey.Scope(c.Scope), idempotencykey.Key(c.Key)).Only(ctx)
	if err != nil {
		return Record{}, fmt.Errorf("idempotency: read claim: %w", err)
	}
	return recordFromEnt(r), nil
}

// TakeOver implements Store.
func (s *EntStore) TakeOver(ctx context.Context, t Claim) (bool, error) {
	n, err := s.client.IdempotencyKey.Update().
		Where(idempotencykey.Scope(t.Scope), idempotencykey.Key(t.Key),
			idempotencykey.StateEQ(idempotencykey.StateInProgress), idempotencykey.LockedUntilLTE(t.Now)).
		SetHolder(t.Holder).SetRequestID(t.RequestID).SetLockedUntil(t.LockedUntil).
		Save(ctx)
	if err != nil {
		return false, fmt.Errorf("idempotency: take over: %w", err)
	}
	return n == 1, nil
}

// InTx implements Store.
func (s *EntStore) InTx(ctx context.Context, fn func(ctx context.Context) error) error {
	return db.InTx(ctx, s.client, fn)
}

// Complete implements Store; it runs on ctx's transaction when there is one.
func (s *EntStore) Complete(ctx context.Context, scope, key, holder string, a Answer, at time.Time) error {
	u := db.Client(ctx, s.client).IdempotencyKey.Update().
		Where(idempotencykey.Scope(scope), idempotencykey.Key(key), idempotencykey.Holder(holder),
			idempotencykey.StateEQ(idempotencykey.StateInProgress)).
		SetState(idempotencykey.StateCompleted).SetErrorCode(a.ErrorCode).SetErrorMessage(a.ErrorMessage).
		SetErrorReason(a.ErrorFields.Reason).SetNillableErrorRetryable(a.ErrorFields.Retryable).SetCompletedAt(at)
	if a.Response != nil {
		u.SetResponse(a.Response)
	}
	n, err := u.Save(ctx)
	if err != nil {
		return fmt.Errorf("idempotency: complete: %w", err)
	}
	if n != 1 {
		return ErrLeaseLost
	}
	return nil
}

// Release implements Store.
func (s *EntStore) Release(ctx context.Context, scope, key, holder string) error {
	_, err := s.client.IdempotencyKey.Delete().
		Where(idempotencykey.Scope(scope), idempotencykey.Key(key), idempotencykey.Holder(holder),
			idempotencykey.StateEQ(idempotencykey.StateInProgress)).
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("idempotency: release: %w", err)
	}
	return nil
}

// Purge implements Store.
func (s *EntStore) Purge(ctx context.Context, before time.Time) (int, error) {
	n, err := s.client.IdempotencyKey.Delete().Where(idempotencykey.CreatedAtLT(before)).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("idempotency: purge: %w", err)
	}
	return n, nil
}

func recordFromEnt(r *ent.IdempotencyKey) Record {
	rec := Record{
		Scope: r.Scope, Key: r.Key, Fingerprint: r.Fingerprint, Method: r.Method, Holder: r.Holder, RequestID: r.RequestID,
		Completed:   r.State == idempotencykey.StateCompleted,
		LockedUntil: r.LockedUntil,
		Answer: Answer{ErrorCode: r.ErrorCode, ErrorMessage: r.ErrorMessage,
			ErrorFields: apierr.Fields{Reason: r.ErrorReason, Retryable: r.ErrorRetryable}},
	}
	if r.Response != nil {
		rec.Answer.Response = *r.Response
	}
	return rec
}
