package auth

import (
	"context"
	"time"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/internalcaller"
)

// CreateInternalCaller inserts a caller (its token's hash, never the token).
func (s *EntStore) CreateInternalCaller(ctx context.Context, c *InternalCaller) error {
	return s.db(ctx).InternalCaller.Create().
		SetID(c.ID).SetName(c.Name).SetTokenHash(c.TokenHash).
		SetServices(nonNil(c.Services)).SetCreatedAt(c.CreatedAt).
		Exec(ctx)
}

// InternalCallerByTokenHash finds a caller by its token's hash.
func (s *EntStore) InternalCallerByTokenHash(ctx context.Context, hash string) (*InternalCaller, error) {
	row, err := s.db(ctx).InternalCaller.Query().Where(internalcaller.TokenHash(hash)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, notFoundError{"internal caller"}
	}
	if err != nil {
		return nil, err
	}
	return internalCallerFromRow(row), nil
}

// RevokeInternalCaller sets revoked_at unless it is already set.
func (s *EntStore) RevokeInternalCaller(ctx context.Context, id string, now time.Time) (*InternalCaller, error) {
	_, err := s.db(ctx).InternalCaller.Update().
		Where(internalcaller.ID(id), internalcaller.RevokedAtIsNil()).
		SetRevokedAt(now).Save(ctx)
	if err != nil {
		return nil, err
	}
	row, err := s.db(ctx).InternalCaller.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, notFoundError{"internal caller"}
	}
	if err != nil {
		return nil, err
	}
	return internalCallerFromRow(row), nil
}

// ListInternalCallers lists callers, oldest first.
func (s *EntStore) ListInternalCallers(ctx context.Context) ([]*InternalCaller, error) {
	rows, err := s.db(ctx).InternalCaller.Query().Order(ent.Asc(internalcaller.FieldCreatedAt), ent.Asc(internalcaller.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]*InternalCaller, len(rows))
	for i, row := range rows {
		out[i] = internalCallerFromRow(row)
	}
	return out, nil
}

func internalCallerFromRow(row *ent.InternalCaller) *InternalCaller {
	return &InternalCaller{
		ID:        row.ID,
		Name:      row.Name,
		TokenHash: row.TokenHash,
		Services:  row.Services,
		CreatedAt: row.CreatedAt,
		RevokedAt: row.RevokedAt,
	}
}
