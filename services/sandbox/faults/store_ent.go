package faults

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/sandboxfault"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/ids"
)

// Store is the sandbox_faults table.
type Store struct {
	client  *ent.Client
	dialect string
}

// NewStore returns the store on d.
func NewStore(d *db.DB) *Store {
	s := &Store{client: d.Ent, dialect: dialect.SQLite}
	if d.Driver() == db.DriverPostgres {
		s.dialect = dialect.Postgres
	}
	return s
}

func (s *Store) db(ctx context.Context) *ent.Client { return db.Client(ctx, s.client) }

// Set replaces seller's queue for target with count failures of kind;
// count 0 clears it.
func (s *Store) Set(ctx context.Context, sellerID, target, kind string, count int) error {
	if count == 0 {
		_, err := s.db(ctx).SandboxFault.Delete().
			Where(sandboxfault.SellerID(sellerID), sandboxfault.Target(target)).Exec(ctx)
		if err != nil {
			return fmt.Errorf("faults: clear: %w", err)
		}
		return nil
	}
	err := s.db(ctx).SandboxFault.Create().
		SetID(ids.New("sfl")).SetSellerID(sellerID).SetTarget(target).SetError(kind).SetRemaining(count).
		OnConflictColumns(sandboxfault.FieldSellerID, sandboxfault.FieldTarget).
		Update(func(u *ent.SandboxFaultUpsert) { u.UpdateError().UpdateRemaining().UpdateUpdatedAt() }).
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("faults: set: %w", err)
	}
	return nil
}

// Take consumes one failure of seller's queue for target: one conditional
// UPDATE … SET remaining = remaining - 1 WHERE remaining > 0 RETURNING
// error, so concurrent calls on any replica take distinct failures.
func (s *Store) Take(ctx context.Context, sellerID, target string) (string, bool, error) {
	q, args := entsql.Dialect(s.dialect).Update(sandboxfault.Table).
		Add(sandboxfault.FieldRemaining, -1).
		Where(entsql.And(entsql.EQ(sandboxfault.FieldSellerID, sellerID), entsql.EQ(sandboxfault.FieldTarget, target),
			entsql.GT(sandboxfault.FieldRemaining, 0))).
		Returning(sandboxfault.FieldError).Query()
	rows, err := s.db(ctx).QueryContext(ctx, q, args...)
	if err != nil {
		return "", false, fmt.Errorf("faults: take: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		return "", false, rows.Err()
	}
	var kind string
	if err := rows.Scan(&kind); err != nil {
		return "", false, fmt.Errorf("faults: take: %w", err)
	}
	return kind, true, rows.Close()
}

// Pending is what is left of seller's queue for target.
func (s *Store) Pending(ctx context.Context, sellerID, target string) (string, int, error) {
	row, err := s.db(ctx).SandboxFault.Query().
		Where(sandboxfault.SellerID(sellerID), sandboxfault.Target(target)).Only(ctx)
	if ent.IsNotFound(err) {
		return "", 0, nil
	}
	if err != nil {
		return "", 0, fmt.Errorf("faults: pending: %w", err)
	}
	if row.Remaining == 0 {
		return "", 0, nil
	}
	return row.Error, row.Remaining, nil
}
